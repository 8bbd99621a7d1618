import Foundation
import MediaTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The test servers themselves (``StreamingTestServer``, ``FaultInjectingServer``), checked
/// with a raw-socket client that shows every byte and every reset, so the player's tests can
/// trust what the servers do. Each test stops its servers when its values go away, pass or fail.
@Suite("HTTP test servers")
struct HTTPTestServerTests {
    /// 100,000 bytes that differ from any shifted copy of themselves within a range's length.
    static let data = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 251) })

    /// A scratch folder holding `data.bin`.
    static func folder() throws -> URL {
        let folder = try TestMedia.scratchDirectory()
        try data.write(to: folder.appendingPathComponent("data.bin"))
        return folder
    }

    // MARK: nginx

    @Test("nginx serves the folder with Range support")
    func staticFiles() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await StreamingTestServer(serving: folder)
        let port = try Self.port(server.baseURL)
        let whole = try await RawClient.get(port: port, "/data.bin")
        #expect(whole.status == 200)
        #expect(whole.body == Self.data)
        let part = try await RawClient.get(port: port, "/data.bin", headers: ["Range: bytes=1000-1999"])
        #expect(part.status == 206)
        #expect(part.headers["content-range"] == "bytes 1000-1999/100000")
        #expect(part.body == Self.data[1000..<2000])
        #expect(try await server.accessLog(atLeast: 2).map(\.range) == ["", "bytes=1000-1999"])
    }

    @Test("/basic/ asks for the Movies realm and serves only the configured user")
    func basicAuthentication() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await StreamingTestServer(
            serving: folder, configuration: .init(user: "alice", password: "s3cret pass"))
        let port = try Self.port(server.baseURL)
        func basic(_ credentials: String) -> String {
            "Authorization: Basic " + Data(credentials.utf8).base64EncodedString()
        }
        let anonymous = try await RawClient.get(port: port, "/basic/data.bin")
        #expect(anonymous.status == 401)
        #expect(anonymous.headers["www-authenticate"] == "Basic realm=\"Movies\"")
        let wrong = try await RawClient.get(port: port, "/basic/data.bin", headers: [basic("alice:popcorn")])
        #expect(wrong.status == 401)
        let right = try await RawClient.get(
            port: port, "/basic/data.bin", headers: [basic("alice:s3cret pass"), "Range: bytes=10-19"])
        #expect(right.status == 206)
        #expect(right.body == Self.data[10..<20])
        #expect(try await server.accessLog(atLeast: 3).map(\.user) == ["", "alice", "alice"])
    }

    @Test("error statuses, redirect chains, a redirect loop and an HTML page with status 200")
    func statusesAndRedirects() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await StreamingTestServer(serving: folder)
        let port = try Self.port(server.baseURL)
        for status in [401, 403, 404, 500] {
            let response = try await RawClient.get(port: port, "/status/\(status)")
            #expect(response.status == status)
            #expect(response.headers["www-authenticate"] == (status == 401 ? "Basic realm=\"Movies\"" : nil))
        }
        var path = "/redirect/3/data.bin"
        var hops: [String] = []
        while true {
            let response = try await RawClient.get(port: port, path)
            guard response.status == 302, let location = response.headers["location"] else {
                #expect(response.status == 200)
                #expect(response.body == Self.data)
                break
            }
            path = try Self.path(location, port: port)
            hops.append(path)
            try #require(hops.count <= 3)
        }
        #expect(hops == ["/redirect/2/data.bin", "/redirect/1/data.bin", "/data.bin"])
        path = "/loop"
        hops = []
        for _ in 0..<6 {
            let response = try await RawClient.get(port: port, path)
            #expect(response.status == 302)
            path = try Self.path(try #require(response.headers["location"]), port: port)
            hops.append(path)
        }
        #expect(hops == ["/loop/again", "/loop", "/loop/again", "/loop", "/loop/again", "/loop"])
        let page = try await RawClient.get(port: port, "/html200")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html")
        #expect(String(decoding: page.body, as: UTF8.self).contains("<html>"))
        withExtendedLifetime(server) {}
    }

    @Test("/echo-headers answers 200 only with the expected token, cookie and user agent")
    func headerCheck() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await StreamingTestServer(
            serving: folder,
            configuration: .init(
                expectedToken: "t-1", expectedSessionCookie: "s-2", expectedUserAgent: "TestPlayer/1.0"))
        let port = try Self.port(server.baseURL)
        let good = ["X-Test-Token: t-1", "Cookie: theme=dark; session=s-2", "User-Agent: TestPlayer/1.0"]
        let answer = try await RawClient.get(port: port, "/echo-headers", headers: good)
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == "token=t-1\ncookie=s-2\nuser-agent=TestPlayer/1.0\n")
        for (index, replacement) in ["X-Test-Token: t-2", "Cookie: session=s-3", "User-Agent: curl/8"].enumerated() {
            var headers = good
            headers[index] = replacement
            #expect(try await RawClient.get(port: port, "/echo-headers", headers: headers).status == 403)
            headers.remove(at: index)
            #expect(try await RawClient.get(port: port, "/echo-headers", headers: headers).status == 403)
        }
        let file = try await RawClient.get(port: port, "/echo-headers/data.bin", headers: good)
        #expect(file.status == 200)
        #expect(file.body == Self.data)
        #expect(try await RawClient.get(port: port, "/echo-headers/data.bin").status == 403)
        let logged = try #require(try await server.accessLog(atLeast: 9).first)
        #expect([logged.token, logged.sessionCookie, logged.userAgent] == ["t-1", "s-2", "TestPlayer/1.0"])
    }

    @Test("/slow/ sends at the configured rate while / sends at once")
    func throttled() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rate = 20_000
        let server = try await StreamingTestServer(serving: folder, configuration: .init(slowBytesPerSecond: rate))
        let port = try Self.port(server.baseURL)
        #expect(try await RawClient.get(port: port, "/data.bin").body.count == Self.data.count)
        let (received, elapsed) = try await OwnThread.run {
            let client = try RawClient(port: port)
            defer { client.close() }
            try client.send("GET /slow/data.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return client.receive(for: .milliseconds(300))
        }
        // nginx's limit_rate lets a second's worth go at once, then keeps to the rate.
        #expect(received > 0)
        #expect(received < Int(Double(rate) * (1 + elapsed.inSeconds)) + 4096)
        #expect(received < Self.data.count / 2)
        withExtendedLifetime(server) {}
    }

    @Test("HTTPS: trusted with the CA file; the wrong-host, expired and unknown-CA cases fail to verify")
    func https() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await StreamingTestServer(serving: folder)
        func verify(_ base: String, trusting ca: URL?) async throws -> ProcessRunner.Result {
            try await ProcessRunner.run(
                "openssl",
                ["s_client", "-connect", base.replacingOccurrences(of: "https://", with: ""), "-verify_return_error"]
                    + ["-verify_ip", "127.0.0.1", "-brief"] + (ca.map { ["-CAfile", $0.path] } ?? []))
        }
        let trusted = try await verify(server.httpsBaseURL, trusting: server.caFile)
        #expect(trusted.status == 0, "\(trusted.standardError)")
        let unknown = try await verify(server.httpsBaseURL, trusting: nil)
        #expect(unknown.status != 0)
        #expect(unknown.standardError.contains("unable to get local issuer certificate"))
        let wrongHost = try await verify(server.wrongHostBaseURL, trusting: server.caFile)
        #expect(wrongHost.status != 0)
        #expect(wrongHost.standardError.contains("IP address mismatch"))
        let expired = try await verify(server.expiredBaseURL, trusting: server.caFile)
        #expect(expired.status != 0)
        #expect(expired.standardError.contains("certificate has expired"))
        // GStreamer's HTTP source (GnuTLS underneath) accepts the certificate. With libsoup 3,
        // which souphttpsrc prefers, GStreamer 1.22 ignores ssl-ca-file (only a GTlsDatabase in
        // tls-database counts, which gst-launch cannot set); with libsoup 2 already loaded it uses
        // libsoup 2, which honours ssl-ca-file.
        let copy = folder.appendingPathComponent("copy.bin")
        let fetched = try await ProcessRunner.run(
            "gst-launch-1.0",
            ["-q", "souphttpsrc", "location=\(server.httpsURL("data.bin"))", "ssl-ca-file=\(server.caFile.path)"]
                + ["!", "filesink", "location=\(copy.path)"], environment: ["LD_PRELOAD": "libsoup-2.4.so.1"])
        #expect(fetched.status == 0, "\(fetched.standardError)")
        #expect(try Data(contentsOf: copy) == Self.data)
        #expect(try await server.accessLog(atLeast: 1).map { [$0.scheme, "\($0.status)"] } == [["https", "200"]])
    }

    // MARK: Fault-injecting server

    @Test("the fault-free server answers whole, ranged, unsatisfiable and HEAD requests on one connection")
    func plainServer() async throws {
        let server = try FaultInjectingServer(serving: Self.data)
        let responses = try await OwnThread.run {
            let client = try RawClient(port: server.port)
            defer { client.close() }
            return try [
                "GET /a.mp4 HTTP/1.1", "GET /a.mp4 HTTP/1.1\r\nRange: bytes=100-199",
                "GET /a.mp4 HTTP/1.1\r\nRange: bytes=-10",
                "GET /a.mp4 HTTP/1.1\r\nRange: bytes=99990-200000", "GET /a.mp4 HTTP/1.1\r\nRange: bytes=100000-",
                "HEAD /a.mp4 HTTP/1.1",
            ].map { request in
                try client.send(request + "\r\nHost: 127.0.0.1\r\n\r\n")
                return try client.readResponse(bodyless: request.hasPrefix("HEAD"))
            }
        }
        #expect(responses.map(\.status) == [200, 206, 206, 206, 416, 200])
        #expect(responses[0].body == Self.data)
        #expect(responses[0].headers["content-type"] == "video/mp4")
        #expect(responses[1].body == Self.data[100..<200])
        #expect(responses[1].headers["content-range"] == "bytes 100-199/100000")
        #expect(responses[2].body == Self.data.suffix(10))
        #expect(responses[3].body == Self.data.suffix(10))
        #expect(responses[4].headers["content-range"] == "bytes */100000")
        #expect(responses[5].headers["content-length"] == "100000")
        #expect(responses[5].body.isEmpty)
        #expect(server.requests.map(\.status) == [200, 206, 206, 206, 416, 200])
        #expect(server.requests[1].value(of: "range") == "bytes=100-199")
    }

    @Test("a reset after N body bytes, once; the next request is served whole")
    func resetInTheMiddle() async throws {
        let server = try FaultInjectingServer(serving: Self.data, fault: .resetAfter(bytes: 5000), faultLimit: 1)
        let first = try await RawClient.get(port: server.port, "/movie.mp4")
        #expect(first.status == 200)
        #expect(first.headers["content-length"] == "100000")
        #expect(first.body == Self.data.prefix(5000))
        #expect(first.ending == .error(ECONNRESET))
        let rest = try await RawClient.get(port: server.port, "/movie.mp4", headers: ["Range: bytes=5000-"])
        #expect(rest.status == 206)
        #expect(rest.body == Self.data.dropFirst(5000))
        #expect(rest.ending == .complete)
        #expect(server.requests.map(\.faulted) == [true, false])
    }

    @Test("a body shorter than its Content-Length, then a normal close")
    func shortBody() async throws {
        let server = try FaultInjectingServer(serving: Self.data, fault: .shortBody(bytes: 3000))
        let response = try await RawClient.get(port: server.port, "/movie.mp4", headers: ["Range: bytes=1000-"])
        #expect(response.status == 206)
        #expect(response.headers["content-length"] == "99000")
        #expect(response.body == Self.data[1000..<4000])
        #expect(response.ending == .closed)
    }

    @Test("a throttled body comes whole, at the rate asked for; a 204 has no body")
    func throttleAndNoContent() async throws {
        let server = try FaultInjectingServer(serving: Self.data, fault: .throttle(bytesPerSecond: 200_000))
        let started = ContinuousClock.now
        let response = try await RawClient.get(port: server.port, "/movie.mp4", headers: ["Range: bytes=40000-"])
        let took = ContinuousClock.now - started
        #expect(response.status == 206 && response.body == Self.data.dropFirst(40000))
        // 60,000 bytes, 20,000 every 100 ms: three tenths of a second, the first at once. The
        // upper bound only catches a throttle that stalls (a loaded machine stretches the rest).
        #expect(took >= .milliseconds(200) && took < Duration.seconds(10).scaled, "\(took)")
        let empty = try FaultInjectingServer(serving: Self.data, fault: .status(204))
        let noContent = try await RawClient.get(port: empty.port, "/")
        #expect(noContent.status == 204 && noContent.body.isEmpty && noContent.headers["content-length"] == nil)
    }

    @Test("garbage with status 200: the right length, the same every time, not the file")
    func garbage() async throws {
        let server = try FaultInjectingServer(serving: Self.data, fault: .garbage)
        let first = try await RawClient.get(port: server.port, "/movie.mp4")
        let second = try await RawClient.get(port: server.port, "/movie.mp4", headers: ["Range: bytes=50-99"])
        #expect(first.status == 200)
        #expect(first.body.count == Self.data.count)
        #expect(first.body != Self.data)
        #expect(second.body == first.body[50..<100])
        #expect(Set(first.body).count > 200)
    }

    @Test("a server that never answers holds one connection while serving others, until it stops")
    func neverAnswer() async throws {
        let server = try FaultInjectingServer(serving: Self.data, fault: .neverAnswer, faultLimit: 1)
        let silent = try RawClient(port: server.port)
        defer { silent.close() }
        try silent.send("GET /movie.mp4 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let seen = try await withDeadline(.seconds(5), "the request to arrive") { await server.requests(atLeast: 1) }
        #expect(seen.map(\.status) == [nil])
        let served = try await RawClient.get(port: server.port, "/movie.mp4")
        #expect(served.body == Self.data)
        let quiet = try await OwnThread.run { silent.receive(for: .milliseconds(100)).bytes }
        #expect(quiet == 0)
        #expect(server.openConnections == 1)
        server.stop()
        #expect(server.runningThreads == 0)
        #expect(server.openConnections == 0)
        let afterStop = try await OwnThread.run { try silent.readResponse() }
        #expect(afterStop.ending == .closed)
        #expect(afterStop.status == nil)
        #expect(throws: (any Error).self) { try RawClient(port: server.port) }
    }

    @Test("ICY metadata every metaint bytes, the title changing over the stream; plain bytes without Icy-MetaData")
    func icy() async throws {
        let titles = ["First song", "Second song", "It's the third"]
        let server = try FaultInjectingServer(
            serving: Self.data, contentType: "audio/mpeg", fault: .icy(metaint: 4096, titles: titles))
        let radio = try await RawClient.get(port: server.port, "/stream", headers: ["Icy-MetaData: 1"])
        #expect(radio.status == 200)
        #expect(radio.headers["icy-metaint"] == "4096")
        #expect(radio.headers["content-length"] == nil)
        var body = Data()
        var blocks: [String] = []
        var stream = radio.body[...]
        while !stream.isEmpty {
            body += stream.prefix(4096)
            stream = stream.dropFirst(4096)
            guard let length = stream.first else { break }
            let block = stream.dropFirst().prefix(Int(length) * 16)
            blocks.append(String(decoding: block.prefix { $0 != 0 }, as: UTF8.self))
            stream = stream.dropFirst(1 + Int(length) * 16)
        }
        #expect(body == Self.data)
        #expect(blocks.count == Self.data.count / 4096)
        #expect(blocks.filter { !$0.isEmpty } == titles.map { "StreamTitle='\($0)';" })
        #expect(blocks.first == "StreamTitle='First song';")
        let plain = try await RawClient.get(port: server.port, "/stream")
        #expect(plain.headers["icy-metaint"] == nil)
        #expect(plain.body == Self.data)
    }

    @Test("GStreamer's icydemux reads the ICY titles in order")
    func icyWithIcydemux() async throws {
        // 2 s of a tone in MP3 (icydemux needs a payload it can recognise), made once.
        let tone = try await TestMedia.url(
            for: .init(
                fileExtension: "mp3",
                pipeline: """
                    audiotestsrc num-buffers=86 ! audio/x-raw,rate=44100,channels=1 ! audioconvert ! \
                    lamemp3enc bitrate=64 ! filesink location=LOCATION
                    """))
        let server = try FaultInjectingServer(
            serving: tone, contentType: "audio/mpeg", fault: .icy(metaint: 2048, titles: ["First song", "Second song"]))
        let result = try await ProcessRunner.run(
            "gst-launch-1.0",
            ["-t", "souphttpsrc", "location=\(server.url("radio"))", "!", "icydemux", "!", "fakesink"])
        #expect(result.status == 0, "\(result.standardError)")
        let titles = result.standardOutput.split(separator: "\n").compactMap { line in
            line.split(separator: "title: ", maxSplits: 1).dropFirst().first.map(String.init)
        }
        #expect(titles == ["First song", "Second song"])
        #expect(server.requests.first?.value(of: "icy-metadata") == "1")
    }

    @Test("Digest: a challenge, then the file with Range for the right answer only; no secret recorded")
    func digest() async throws {
        let server = try FaultInjectingServer(
            serving: Self.data, digest: .init(user: "viewer", password: "popcorn", realm: "Movies"))
        let (challenge, answers) = try await OwnThread.run {
            let client = try RawClient(port: server.port)
            defer { client.close() }
            try client.send("GET /m.mp4 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let challenge = try client.readResponse()
            let parameters = HTTPDigest.parameters(
                String(challenge.headers["www-authenticate"]?.dropFirst("Digest ".count) ?? ""))
            let answers = try ["popcorn", "butter"].map { password in
                let nonce = parameters["nonce"] ?? ""
                let response = HTTPDigest.response(
                    user: "viewer", password: password, realm: "Movies", method: "GET", uri: "/m.mp4", nonce: nonce)
                try client.send(
                    "GET /m.mp4 HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=0-99\r\nAuthorization: Digest "
                        + "username=\"viewer\", realm=\"Movies\", nonce=\"\(nonce)\", uri=\"/m.mp4\", qop=auth, "
                        + "nc=00000001, cnonce=\"0a4f113b\", response=\"\(response)\", "
                        + "opaque=\"\(parameters["opaque"] ?? "")\", algorithm=MD5\r\n\r\n")
                return try client.readResponse()
            }
            return (challenge, answers)
        }
        #expect(challenge.status == 401)
        let parameters = HTTPDigest.parameters(
            String(try #require(challenge.headers["www-authenticate"]).dropFirst("Digest ".count)))
        #expect(parameters["realm"] == "Movies")
        #expect(parameters["qop"] == "auth")
        #expect(parameters["algorithm"] == "MD5")
        #expect(parameters["nonce"]?.isEmpty == false)
        #expect(answers.map(\.status) == [206, 401])
        #expect(answers[0].body == Self.data.prefix(100))
        #expect(server.requests.map { $0.value(of: "authorization") } == [nil, "Digest", "Digest"])
    }

    @Test("GStreamer's HTTP source gets the file through Digest authentication")
    func digestWithSouphttpsrc() async throws {
        let server = try FaultInjectingServer(serving: Self.data, digest: .init(user: "viewer", password: "popcorn"))
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("copy.bin")
        let fetched = try await ProcessRunner.run(
            "gst-launch-1.0",
            ["-q", "souphttpsrc", "location=\(server.url())", "user-id=viewer", "user-pw=popcorn"]
                + ["!", "filesink", "location=\(copy.path)"])
        #expect(fetched.status == 0, "\(fetched.standardError)")
        #expect(try Data(contentsOf: copy) == Self.data)
        #expect(server.requests.map(\.status).last == 200)
    }

    @Test("nginx's password file: APR1 hashes match what openssl passwd -apr1 wrote")
    func apr1() {
        #expect(APR1.hash("popcorn", salt: "abcdefgh") == "$apr1$abcdefgh$ptBCS4AXdJVjlwgTMerLk.")
        #expect(APR1.hash("s3cret pass", salt: "Zz9.x/") == "$apr1$Zz9.x/$2kfLM3UZzEiK6i5Onn1qg.")
        #expect(
            APR1.hash("a password longer than sixteen bytes", salt: "12345678")
                == "$apr1$12345678$73hG3Nj0llBBNcNjFBzc4/")
    }

    @Test("MD5 and the Digest response match RFC 1321's and RFC 2617's examples")
    func digestVectors() {
        #expect(MD5.hex("") == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MD5.hex("abc") == "900150983cd24fb0d6963f7d28e17f72")
        #expect(MD5.hex("message digest") == "f96b697d7cb7938d525a2f31aaf161d0")
        #expect(MD5.hex(String(repeating: "1234567890", count: 8)) == "57edf4a22be3c955ac49da2e2107b67a")
        #expect(
            HTTPDigest.response(
                user: "Mufasa", password: "Circle Of Life", realm: "testrealm@host.com", method: "GET",
                uri: "/dir/index.html", nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093", qop: "auth", nc: "00000001",
                cnonce: "0a4f113b") == "6629fae49393a05397450978507c4ef1")
    }

    @Test("dropping the server ends idle and busy connections and its threads")
    func deinitStops() async throws {
        let (port, idle, waiting) = try await Self.clientsOfADroppedServer()
        defer {
            idle.close()
            waiting.close()
        }
        for client in [idle, waiting] {
            let ending = try await OwnThread.run { try client.readResponse().ending }
            #expect(ending == .closed)
        }
        #expect(throws: (any Error).self) { try RawClient(port: port) }
    }

    @Test("stop() wakes a thread blocked sending to a client that does not read")
    func stopWhileSending() async throws {
        // More than loopback's socket buffers hold (a few MB each way), so send() blocks.
        let server = try FaultInjectingServer(serving: Data(count: 32 << 20))
        let client = try RawClient(port: server.port)
        defer { client.close() }
        try client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        _ = try await withDeadline(.seconds(5), "the request to arrive") { await server.requests(atLeast: 1) }
        try await withDeadline(.seconds(2), "stop()") { try await OwnThread.run { server.stop() } }
        #expect(server.runningThreads == 0)
        #expect(server.openConnections == 0)
    }

    /// Two connections to a server that never answers, one idle and one waiting for an answer,
    /// made and left open while the server goes away with this function's scope.
    static func clientsOfADroppedServer() async throws -> (Int, RawClient, RawClient) {
        let server = try FaultInjectingServer(serving: Self.data, fault: .neverAnswer)
        let idle = try RawClient(port: server.port)
        let waiting = try RawClient(port: server.port)
        try waiting.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        _ = try await withDeadline(.seconds(5), "the request to arrive") { await server.requests(atLeast: 1) }
        return (server.port, idle, waiting)
    }

    // MARK: Helpers

    static func port(_ baseURL: String) throws -> Int {
        try #require(URL(string: baseURL)?.port)
    }

    /// The path of a `Location` (absolute on this server, or a path).
    static func path(_ location: String, port: Int) throws -> String {
        guard location.hasPrefix("http") else { return location }
        let url = try #require(URL(string: location))
        #expect(url.port == port)
        return url.path
    }

    /// A blocking HTTP/1.1 client on a TCP socket to 127.0.0.1, reading exactly what a response
    /// says it holds, so resets and early closes show. Reads time out after 5 s (scaled).
    struct RawClient: Sendable {
        enum Ending: Equatable, Sendable {
            /// The whole body arrived.
            case complete
            /// The server closed the connection (or never sent a response).
            case closed
            /// `recv` failed with this errno.
            case error(Int32)
        }

        struct Response: Sendable {
            var status: Int?
            /// Names in lower case.
            var headers: [String: String] = [:]
            var body = Data()
            var ending = Ending.complete
        }

        let socket: Int32

        init(port: Int) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            guard connected else {
                let error = errno
                Glibc.close(socket)
                throw TestMediaError(message: "connect to port \(port): errno \(error)")
            }
            setTimeout(.seconds(5).scaled)
        }

        /// One request on a new connection (closed after), its response read on a thread of its own.
        static func get(port: Int, _ path: String, headers: [String] = []) async throws -> Response {
            try await OwnThread.run {
                let client = try RawClient(port: port)
                defer { client.close() }
                try client.send(
                    (["GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"] + headers)
                        .joined(separator: "\r\n") + "\r\n\r\n")
                return try client.readResponse()
            }
        }

        func close() { Glibc.close(socket) }

        func send(_ text: String) throws {
            let bytes = Array(text.utf8)
            guard Glibc.send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
                throw TestMediaError(message: "send failed: errno \(errno)")
            }
        }

        /// Reads a head byte by byte (so nothing of the next response is taken), then the body by
        /// `Content-Length`, or to the end of the stream without one.
        func readResponse(bodyless: Bool = false) throws -> Response {
            var response = Response()
            var head = Data()
            var byte: UInt8 = 0
            while !head.hasSuffix("\r\n\r\n") {
                let count = recv(socket, &byte, 1, 0)
                guard count == 1 else {
                    response.ending = count == 0 ? .closed : .error(errno)
                    return response
                }
                head.append(byte)
            }
            let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n")
            response.status = lines.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                response.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                    .trimmingCharacters(in: .whitespaces)
            }
            if bodyless { return response }
            let length = response.headers["content-length"].flatMap { Int($0) }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while length.map({ response.body.count < $0 }) ?? true {
                let count = recv(socket, &buffer, min(buffer.count, (length ?? .max) - response.body.count), 0)
                if count > 0 {
                    response.body.append(contentsOf: buffer[..<count])
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    response.ending = count == 0 ? (length == nil ? .complete : .closed) : .error(errno)
                    break
                }
            }
            return response
        }

        /// Reads whatever arrives for `duration`: how many bytes, and how long it read.
        func receive(for duration: Duration) -> (bytes: Int, elapsed: Duration) {
            let clock = ContinuousClock()
            let start = clock.now
            var total = 0
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while clock.now - start < duration {
                setTimeout(max(duration - (clock.now - start), .milliseconds(1)))
                let count = recv(socket, &buffer, buffer.count, 0)
                if count > 0 { total += count } else if count == 0 || errno != EAGAIN { break }
            }
            setTimeout(.seconds(5).scaled)
            return (total, clock.now - start)
        }

        private func setTimeout(_ duration: Duration) {
            let microseconds = Int(duration.inSeconds * 1_000_000)
            var timeout = timeval(tv_sec: microseconds / 1_000_000, tv_usec: microseconds % 1_000_000)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
    }
}

extension Data {
    fileprivate func hasSuffix(_ text: String) -> Bool {
        count >= text.utf8.count && suffix(text.utf8.count).elementsEqual(text.utf8)
    }
}
