import Foundation
import HTTPStreamSource
import MediaEngine
import MediaTestSupport
import Testing

/// What a real server can do to a player: credentials (Basic, Digest, a store, a wrong
/// password), redirects, error statuses, TLS, headers and cookies; each against nginx on
/// loopback with the numbered clip as `movie.mp4`.
@Suite("Server behaviour")
struct ServerBehaviourTests {
    /// nginx serving the numbered clip, with the configuration's credentials and expectations.
    static func server(
        _ configuration: StreamingTestServer.Configuration = .init()
    ) async throws -> (StreamingTestServer, URL) {
        let folder = try TestMedia.scratchDirectory()
        try FileManager.default.copyItem(
            at: try await TestMedia.url(for: TestMedia.numbered), to: folder.appendingPathComponent("movie.mp4"))
        return (try await StreamingTestServer(serving: folder, configuration: configuration), folder)
    }

    /// Prepares a player for `url`; returns it and the error preparation threw, if any.
    static func prepare(
        _ url: String, options: HTTPStreamOptions = HTTPStreamOptions(), within limit: Duration = .seconds(10)
    ) async throws -> (MoviePlayer, MediaError?) {
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: url, options: options), videoSink: NullVideoSink(),
            audioOutput: .discard)
        player.shouldAutoplay = false
        do {
            try await withDeadline(limit, "prepareToPlay() of \(url)") { try await player.prepareToPlay() }
            return (player, nil)
        } catch let error as MediaError {
            return (player, error)
        }
    }

    static func noStore() -> HTTPStreamOptions {
        var options = HTTPStreamOptions()
        options.credentialStore = nil
        return options
    }

    @Test("Basic: the source's credential plays; a wrong one is unauthorized after one try, no loop")
    func basic() async throws {
        let (server, folder) = try await Self.server(.init(user: "viewer", password: "popcorn"))
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = Self.noStore()
        options.credential = HTTPCredential(user: "viewer", password: "popcorn")
        let (good, goodError) = try await Self.prepare(server.url("basic/movie.mp4"), options: options)
        #expect(goodError == nil && good.duration == .seconds(2))
        let before = try server.accessLog().count
        options.credential = HTTPCredential(user: "viewer", password: "wrong-password")
        let (bad, error) = try await Self.prepare(server.url("basic/movie.mp4"), options: options)
        #expect(error?.code == .unauthorized && error?.httpStatusCode == 401)
        let reported = "\(String(describing: error)) \(error?.debugDetail ?? "") \(bad.errorLog)"
        #expect(!reported.contains("wrong-password"))
        // libsoup sends the request, gets the challenge, answers it once: two requests.
        let requests = try server.accessLog().dropFirst(before)
        #expect(requests.count <= 2, "\(requests.map(\.status))")
        _ = good
    }

    @Test("a credential stored for the challenge's protection space answers it; another realm's does not")
    func credentialStore() async throws {
        let (server, folder) = try await Self.server(.init(user: "viewer", password: "popcorn"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try #require(URLComponents(string: server.baseURL))
        let store = CredentialStore()
        var options = HTTPStreamOptions()
        options.credentialStore = store
        store.set(
            HTTPCredential(user: "viewer", password: "popcorn"),
            for: ProtectionSpace(host: "127.0.0.1", port: url.port, scheme: "http", realm: "Other", method: .basic))
        let (_, refused) = try await Self.prepare(server.url("basic/movie.mp4"), options: options)
        #expect(refused?.code == .unauthorized)
        store.set(
            HTTPCredential(user: "viewer", password: "popcorn"),
            for: ProtectionSpace(host: "127.0.0.1", port: url.port, scheme: "http", realm: "Movies", method: .basic))
        let (player, error) = try await Self.prepare(server.url("basic/movie.mp4"), options: options)
        #expect(error == nil, "\(String(describing: error))")
        #expect(player.isPreparedToPlay)
        #expect(player.accessLog.events.count == 1, "the answered challenge is the same preparation")
        #expect(player.errorLog.events.map(\.statusCode) == [401], "the challenge itself is logged")
    }

    @Test("Digest: the source's credential plays")
    func digest() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        let server = try FaultInjectingServer(
            serving: movie, digest: FaultInjectingServer.DigestAccount(user: "d-user", password: "d-secret"))
        var options = Self.noStore()
        options.credential = HTTPCredential(user: "d-user", password: "d-secret")
        let (player, error) = try await Self.prepare(server.url(), options: options)
        #expect(error == nil, "\(String(describing: error))")
        #expect(player.duration == .seconds(2))
        options.credential = HTTPCredential(user: "d-user", password: "nope")
        let (_, refused) = try await Self.prepare(server.url(), options: options)
        #expect(refused?.code == .unauthorized)
    }

    @Test("redirects are followed and the access log has the final URL; a loop is tooManyRedirects")
    func redirects() async throws {
        let (server, folder) = try await Self.server()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (player, error) = try await Self.prepare(server.url("redirect/3/movie.mp4"))
        #expect(error == nil)
        #expect(player.accessLog.events.first?.uri == server.url("movie.mp4"))
        let (_, loop) = try await Self.prepare(server.url("loop"))
        #expect(loop?.code == .tooManyRedirects)
    }

    @Test(
        "statuses become typed errors with the status, and an HTML page is not a movie",
        arguments: [
            ("status/401", MediaError.Code.unauthorized, 401), ("status/403", .forbidden, 403),
            ("status/404", .fileNotFound, 404), ("status/500", .httpError, 500), ("html200", .notAMovie, nil),
        ] as [(String, MediaError.Code, Int?)])
    func statuses(path: String, code: MediaError.Code, status: Int?) async throws {
        let (server, folder) = try await Self.server()
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = ContinuousClock.now
        let (player, error) = try await Self.prepare(server.url(path), options: Self.noStore())
        #expect(error?.code == code, "\(String(describing: error))")
        #expect(error?.httpStatusCode == status)
        #expect(ContinuousClock.now - started < .seconds(5))
        if let status { #expect(player.errorLog.events.first?.statusCode == status) }
    }

    @Test("headers, cookies and the user agent reach the server")
    func requestHeaders() async throws {
        let (server, folder) = try await Self.server(
            .init(expectedToken: "t-1", expectedSessionCookie: "s-2", expectedUserAgent: "EngineTest/1.0"))
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = HTTPStreamOptions()
        let (_, refused) = try await Self.prepare(server.url("echo-headers/movie.mp4"), options: options)
        #expect(refused?.code == .forbidden)
        options.headers = ["X-Test-Token": "t-1"]
        options.cookies = ["session=s-2"]
        options.userAgent = "EngineTest/1.0"
        let (_, error) = try await Self.prepare(server.url("echo-headers/movie.mp4"), options: options)
        #expect(error == nil, "\(String(describing: error))")
    }

    @Test("HTTPS: the given CA is trusted; an unknown CA, another host's or an expired certificate is tlsFailure")
    func tls() async throws {
        let (server, folder) = try await Self.server()
        defer { try? FileManager.default.removeItem(at: folder) }
        var trusting = HTTPStreamOptions()
        trusting.certificateAuthorityFile = server.caFile.path
        trusting.retries = 0
        let (player, error) = try await Self.prepare(server.httpsURL("movie.mp4"), options: trusting)
        #expect(error == nil, "\(String(describing: error))")
        #expect(player.duration == .seconds(2))
        var system = HTTPStreamOptions()
        system.retries = 0
        let (_, unknown) = try await Self.prepare(server.httpsURL("movie.mp4"), options: system)
        #expect(
            unknown?.code == .tlsFailure && unknown?.message.contains("not trusted") == true,
            "\(String(describing: unknown))")
        let (_, wrongHost) = try await Self.prepare("\(server.wrongHostBaseURL)/movie.mp4", options: trusting)
        #expect(
            wrongHost?.code == .tlsFailure && wrongHost?.message.contains("another host") == true,
            "\(String(describing: wrongHost))")
        let (_, expired) = try await Self.prepare("\(server.expiredBaseURL)/movie.mp4", options: trusting)
        #expect(
            expired?.code == .tlsFailure && expired?.message.contains("expired") == true,
            "\(String(describing: expired))")
        var insecure = system
        insecure.insecurelyAcceptsAnyCertificate = true
        let (_, accepted) = try await Self.prepare("\(server.expiredBaseURL)/movie.mp4", options: insecure)
        #expect(accepted == nil, "\(String(describing: accepted))")
    }
}
