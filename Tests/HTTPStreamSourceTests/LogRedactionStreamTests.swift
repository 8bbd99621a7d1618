import Foundation
import HTTPStreamSource
import MediaEngine
import MediaTestSupport
import Testing

/// No secret reaches the log handler: a stream behind Basic authentication, with a token in its
/// URL's query, a secret header and a cookie, played with GStreamer's HTTP source logging
/// everything (souphttpsrc's category at TRACE, with souputils' at TRACE, attaches libsoup's
/// logger, which prints each request's line and headers) and the engine's own trace on. With the
/// redaction switched off (tried by hand), the token, the query's other value, the header and the
/// cookie appear in that log some 60 times; libsoup itself hides the Basic password.
@Suite("No secret in the log")
struct LogRedactionStreamTests {
    /// nginx serving the numbered clip behind `/basic/` for `password`.
    static func server(password: String) async throws -> (StreamingTestServer, URL) {
        let folder = try TestMedia.scratchDirectory()
        try FileManager.default.copyItem(
            at: try await TestMedia.url(for: TestMedia.numbered), to: folder.appendingPathComponent("movie.mp4"))
        return (try await StreamingTestServer(serving: folder, configuration: .init(password: password)), folder)
    }

    /// Prepares `url` with the engine's trace and souphttpsrc's whole log forwarded;
    /// returns the error preparation threw, if any, and every record the handler got.
    static func prepare(_ url: String, options: HTTPStreamOptions) async throws -> (MediaError?, [LogCapture.Record]) {
        let (error, capture) = try await LogCapture.capture(
            level: .trace, forwarding: .init(gstreamer: "souphttpsrc:7,souputils:7")
        ) { _ in
            let player = MoviePlayer(
                source: try HTTPStreamSource(string: url, options: options), videoSink: NullVideoSink(),
                audioOutput: .discard)
            player.shouldAutoplay = false
            var failure: MediaError?
            do {
                try await withDeadline(.seconds(10), "prepareToPlay() of the stream") {
                    try await player.prepareToPlay()
                }
            } catch let error as MediaError {
                failure = error
            }
            await player.shutdown()
            return failure
        }
        return (error, capture.all)
    }

    /// Checks that no secret appears in any record, and that the log shows the request redacted.
    static func check(_ records: [LogCapture.Record], secrets: [String]) {
        #expect(records.count > 20, "the log is not empty")
        let soup = records.filter { $0.metadata["gst.category"] == "souphttpsrc" }
        #expect(!soup.isEmpty, "souphttpsrc's log was forwarded")
        #expect(records.contains { $0.category == MediaEngineLog.Category.player }, "the engine's trace was there")
        for secret in secrets {
            let leaks = records.filter { $0.text.contains(secret) }
            #expect(leaks.isEmpty, "\(secret) in \(leaks.prefix(3).map(\.text))")
        }
        // The request as libsoup printed it: its line and its headers, redacted.
        #expect(records.contains { $0.message.contains("movie.mp4?token=<redacted>&Expires=<redacted>") })
        #expect(records.contains { $0.message.contains("Authorization: <redacted>") })
        #expect(records.contains { $0.message.contains("X-Signed-Token: <redacted>") })
        #expect(records.contains { $0.message.contains("Cookie: <redacted>") })
    }

    @Test("a credential in the URL, a token in its query, a secret header and a cookie never reach the handler")
    func sourceCredential() async throws {
        let tag = UUID().uuidString.prefix(8).lowercased()
        let (password, token, header, cookie) = ("pw-\(tag)", "tok-\(tag)", "hdr-\(tag)", "ck-\(tag)")
        let (server, folder) = try await Self.server(password: password)
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = HTTPStreamOptions()
        options.credentialStore = nil
        options.headers = ["X-Signed-Token": header]
        options.cookies = ["session=\(cookie)"]
        let url = server.url("basic/movie.mp4?token=\(token)&Expires=1900000000").replacingOccurrences(
            of: "http://", with: "http://viewer:\(password)@")
        let (error, records) = try await Self.prepare(url, options: options)
        #expect(error == nil, "\(String(describing: error))")
        let basic = Data("viewer:\(password)".utf8).base64EncodedString()
        Self.check(records, secrets: [password, token, header, cookie, basic, "1900000000"])
    }

    @Test("a password from the credential store, answering the server's challenge, never reaches the handler")
    func storedCredential() async throws {
        let tag = UUID().uuidString.prefix(8).lowercased()
        let (password, token, header, cookie) = ("pw-\(tag)", "tok-\(tag)", "hdr-\(tag)", "ck-\(tag)")
        let (server, folder) = try await Self.server(password: password)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try #require(URLComponents(string: server.baseURL)?.port)
        let store = CredentialStore()
        store.set(
            HTTPCredential(user: "viewer", password: password),
            for: ProtectionSpace(host: "127.0.0.1", port: port, scheme: "http", realm: "Movies", method: .basic))
        var options = HTTPStreamOptions()
        options.credentialStore = store
        options.headers = ["X-Signed-Token": header]
        options.cookies = ["session=\(cookie)"]
        let (error, records) = try await Self.prepare(
            server.url("basic/movie.mp4?token=\(token)&Expires=1900000000"), options: options)
        #expect(error == nil, "\(String(describing: error))")
        let basic = Data("viewer:\(password)".utf8).base64EncodedString()
        Self.check(records, secrets: [password, token, header, cookie, basic, "1900000000"])
    }
}
