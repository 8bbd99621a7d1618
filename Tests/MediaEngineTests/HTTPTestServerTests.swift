import Foundation
import MediaTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The test servers themselves (``StreamingTestServer``), checked
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
