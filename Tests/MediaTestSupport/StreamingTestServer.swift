import Foundation
import MediaEngine

#if canImport(Glibc)
    import Glibc
#endif

/// nginx on loopback offering, from one folder, everything an HTTP streaming test needs from a
/// real server: plain and HTTPS ports, Range requests, Basic authentication, a throttled path,
/// error statuses, redirects, an HTML page and a check of the request headers. Started by the
/// test and stopped with the value (nginx is killed in `deinit`), pass or fail.
///
/// Paths, the same on ``baseURL`` (HTTP) and ``httpsBaseURL``:
/// - `/NAME`: the file NAME of the folder, with Range support (nginx's own).
/// - `/basic/NAME`: the same behind Basic authentication, realm "Movies", for
///   ``Configuration-swift.struct/user`` and ``Configuration-swift.struct/password``.
/// - `/slow/NAME`: the same at ``Configuration-swift.struct/slowBytesPerSecond`` (nginx's
///   `limit_rate`, which lets the first second's worth go at once), for stalls.
/// - `/status/401` (with `WWW-Authenticate: Basic realm="Movies"`), `/status/403`,
///   `/status/404`, `/status/500`: that status with nginx's small HTML error page.
/// - `/redirect/N/NAME` for N in 1...``maximumRedirects``: a chain of N `302`s (each to
///   `/redirect/N-1/NAME`, the last to `/NAME`); `/loop`: `302` to `/loop/again`, which
///   redirects back to `/loop`, forever.
/// - `/html200`: an HTML page (`text/html`) with status 200, as a captive portal sends.
/// - `/echo-headers`: 200 when the request carries every header value the configuration
///   expects (`X-Test-Token`, the `session` cookie, `User-Agent`; nil ones are not checked),
///   403 otherwise; the body, plain text, lists the values received either way.
///   `/echo-headers/NAME` serves the file under the same check (403 with nginx's error page).
/// - Digest authentication is not here: nginx has no Digest module. ``FaultInjectingServer``
///   serves a file behind Digest.
///
/// ``httpsBaseURL`` uses ``TestCertificates/server`` (trust ``caFile``); ``wrongHostBaseURL``
/// and ``expiredBaseURL`` serve the folder (`/NAME` only) with the wrong-host and the expired
/// certificate of ``TestCertificates``. Every request is logged, see ``accessLog()``.
public final class StreamingTestServer: Sendable {
    /// What the test chooses about the server.
    public struct Configuration: Sendable {
        /// The user name `/basic/` accepts (no `:`).
        public var user: String
        /// Its password.
        public var password: String
        /// The byte rate of `/slow/`.
        public var slowBytesPerSecond: Int
        /// The `X-Test-Token` header value `/echo-headers` wants, or nil for any.
        public var expectedToken: String?
        /// The value of the cookie named `session` it wants, or nil for any.
        public var expectedSessionCookie: String?
        /// The `User-Agent` it wants, or nil for any.
        public var expectedUserAgent: String?

        /// A configuration; the defaults are arbitrary, and the header values must not contain
        /// quotes, backslashes, `$`, `;`, braces or line breaks (they go into nginx's
        /// configuration).
        /// - Parameters:
        ///   - user: The user name `/basic/` accepts.
        ///   - password: Its password.
        ///   - slowBytesPerSecond: The byte rate of `/slow/`.
        ///   - expectedToken: The `X-Test-Token` value `/echo-headers` wants, or nil for any.
        ///   - expectedSessionCookie: The `session` cookie's value it wants, or nil for any.
        ///   - expectedUserAgent: The `User-Agent` it wants, or nil for any.
        public init(
            user: String = "viewer", password: String = "popcorn", slowBytesPerSecond: Int = 50_000,
            expectedToken: String? = "token-1234", expectedSessionCookie: String? = "session-5678",
            expectedUserAgent: String? = nil
        ) {
            self.user = user
            self.password = password
            self.slowBytesPerSecond = slowBytesPerSecond
            self.expectedToken = expectedToken
            self.expectedSessionCookie = expectedSessionCookie
            self.expectedUserAgent = expectedUserAgent
        }
    }

    /// One line of the access log.
    public struct LoggedRequest: Sendable, Decodable, Equatable {
        /// `GET`, `HEAD`, ...
        public let method: String
        /// The request target as sent (path and query).
        public let uri: String
        /// The status nginx answered with.
        public let status: Int
        /// The `Range` header, empty when none.
        public let range: String
        /// The `User-Agent` header, empty when none.
        public let userAgent: String
        /// The `X-Test-Token` header, empty when none.
        public let token: String
        /// The `session` cookie, empty when none.
        public let sessionCookie: String
        /// The Basic user name, empty when none (never a password).
        public let user: String
        /// The body bytes nginx sent.
        public let bytesSent: Int
        /// `http` or `https`.
        public let scheme: String
    }

    /// The longest redirect chain `/redirect/N/` offers.
    public static let maximumRedirects = 30
    /// `http://127.0.0.1:PORT`.
    public let baseURL: String
    /// `https://127.0.0.1:PORT`, the same paths with a certificate signed by ``caFile``.
    public let httpsBaseURL: String
    /// `https://127.0.0.1:PORT` with a certificate for another host name only.
    public let wrongHostBaseURL: String
    /// `https://127.0.0.1:PORT` with an expired certificate.
    public let expiredBaseURL: String
    /// The CA certificate (PEM) a client must trust for ``httpsBaseURL``.
    ///
    /// For GStreamer's `souphttpsrc`: on libsoup 3 (what GStreamer 1.22 loads first) its
    /// `ssl-ca-file` property is ignored; set `tls-database` to a `GTlsDatabase` made from this
    /// file (`g_tls_file_database_new`) instead.
    public let caFile: URL
    /// What the server was started with.
    public let configuration: Configuration
    private let nginx: NginxProcess
    private static let hashes = Locked<[String: String]>([:])

    /// Starts nginx serving `root` (makes the test certificates first, once per process).
    /// - Parameters:
    ///   - root: The folder to serve.
    ///   - configuration: Credentials, the slow rate and the headers `/echo-headers` wants.
    /// - Throws: ``TestMediaError`` when `openssl` or nginx fail.
    public init(serving root: URL, configuration: Configuration = Configuration()) async throws {
        for value in [
            configuration.expectedToken, configuration.expectedSessionCookie, configuration.expectedUserAgent,
        ] {
            precondition(value.map(Self.isSafeInConfiguration) ?? true, "not for nginx's configuration: \(value!)")
        }
        precondition(!configuration.user.contains(":"), "a user name with a colon")
        let certificates = try await TestCertificates.shared()
        let (user, password) = (configuration.user, configuration.password)
        let writePasswordFile: @Sendable (URL) async throws -> Void = { directory in
            // 1000 rounds of MD5, about 40 ms in a debug build: once per password and process.
            let hash = Self.hashes.withLock { hashes in
                if let hash = hashes[password] { return hash }
                let hash = APR1.hash(password)
                hashes[password] = hash
                return hash
            }
            try "\(user):\(hash)\n".write(
                to: directory.appendingPathComponent("htpasswd"), atomically: true, encoding: .utf8)
        }
        nginx = try await NginxProcess(portCount: 4, prepare: writePasswordFile) { directory, ports in
            Self.http(root: root, directory: directory, ports: ports, configuration: configuration, certificates)
        }
        baseURL = "http://127.0.0.1:\(nginx.ports[0])"
        httpsBaseURL = "https://127.0.0.1:\(nginx.ports[1])"
        wrongHostBaseURL = "https://127.0.0.1:\(nginx.ports[2])"
        expiredBaseURL = "https://127.0.0.1:\(nginx.ports[3])"
        caFile = certificates.caFile
        self.configuration = configuration
    }

    /// An HTTP URL for a path, for example `url("basic/movie.mp4")`.
    public func url(_ path: String) -> String { "\(baseURL)/\(path)" }

    /// The HTTPS URL (trusted with ``caFile``) for a path.
    public func httpsURL(_ path: String) -> String { "\(httpsBaseURL)/\(path)" }

    /// Every request nginx has logged so far, oldest first. nginx logs a request after it has
    /// sent the response, so a client can have the whole response before its line is written:
    /// use ``accessLog(atLeast:)`` to wait for it.
    /// - Throws: When the log cannot be read or a line is not what nginx was told to write.
    /// - Returns: The requests.
    public func accessLog() throws -> [LoggedRequest] {
        try Self.accessLog(in: accessLogFile)
    }

    /// Every request logged so far in a server's access log (``accessLogFile``), read by another
    /// process than the test's (a child that must count requests at a moment of its own).
    /// - Parameter file: The log.
    /// - Throws: When the log cannot be read or a line is not what nginx was told to write.
    /// - Returns: The requests, oldest first.
    public static func accessLog(in file: URL) throws -> [LoggedRequest] {
        let text = try String(contentsOf: file, encoding: .utf8)
        // Only whole lines: nginx may be writing the next one.
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            try JSONDecoder().decode(LoggedRequest.self, from: Data($0.utf8))
        }
    }

    /// The access log once it holds at least `count` requests; waits on inotify for nginx's
    /// writes, on a thread of its own, for at most 5 s (scaled).
    /// - Parameter count: How many requests to wait for.
    /// - Throws: ``TestMediaError`` when fewer are logged in time; what ``accessLog()`` throws.
    /// - Returns: The requests.
    public func accessLog(atLeast count: Int) async throws -> [LoggedRequest] {
        try await OwnThread.run { [self] in
            let watch = inotify_init1(Int32(IN_CLOEXEC))
            defer { close(watch) }
            inotify_add_watch(watch, accessLogFile.path, UInt32(IN_MODIFY))
            let clock = ContinuousClock()
            let deadline = clock.now + Duration.seconds(5).scaled
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let log = try accessLog()
                if log.count >= count { return log }
                let remaining = deadline - clock.now
                guard remaining > .zero else {
                    throw TestMediaError(message: "\(log.count) requests logged, not \(count), within 5 s: \(log)")
                }
                var event = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
                if poll(&event, 1, Int32(remaining.inSeconds * 1000) + 1) > 0 { _ = read(watch, &buffer, buffer.count) }
            }
        }
    }

    /// The file nginx logs each request to, a JSON object a line (``LoggedRequest``).
    public var accessLogFile: URL { nginx.directory.appendingPathComponent("access.log") }

    private static func isSafeInConfiguration(_ value: String) -> Bool {
        !value.contains { "\"'\\$;{}\r\n".contains($0) }
    }

    private static func http(
        root: URL, directory: URL, ports: [Int], configuration: Configuration, _ certificates: TestCertificates
    ) -> String {
        let folder = root.path
        var checks = ""
        for (variable, value) in [
            ("$http_x_test_token", configuration.expectedToken),
            ("$cookie_session", configuration.expectedSessionCookie),
            ("$http_user_agent", configuration.expectedUserAgent),
        ] {
            if let value { checks += "if (\(variable) != \"\(value)\") { set $headers_ok no; }\n" }
        }
        let received = "token=$http_x_test_token\\ncookie=$cookie_session\\nuser-agent=$http_user_agent\\n"
        let redirects = (1...maximumRedirects).map { count in
            let next = count == 1 ? "" : "/redirect/\(count - 1)"
            return "location ~ ^/redirect/\(count)/(.*)$ { return 302 \(next)/$1; }"
        }.joined(separator: "\n")
        let locations = """
            location ^~ /basic/ {
                alias \(folder)/;
                auth_basic "Movies";
                auth_basic_user_file \(directory.path)/htpasswd;
            }
            location ^~ /slow/ {
                alias \(folder)/;
                limit_rate \(configuration.slowBytesPerSecond);
            }
            location = /status/401 {
                add_header WWW-Authenticate 'Basic realm="Movies"' always;
                return 401;
            }
            location = /status/403 { return 403; }
            location = /status/404 { return 404; }
            location = /status/500 { return 500; }
            \(redirects)
            location = /loop { return 302 /loop/again; }
            location = /loop/again { return 302 /loop; }
            location = /html200 {
                default_type text/html;
                return 200 '<!DOCTYPE html><html><head><title>Sign in</title></head><body><p>Please sign in \
            to use this network.</p></body></html>\\n';
            }
            location = /echo-headers {
                default_type text/plain;
                set $headers_ok yes;
                \(checks)
                if ($headers_ok = no) { return 403 "\(received)"; }
                return 200 "\(received)";
            }
            location ^~ /echo-headers/ {
                alias \(folder)/;
                set $headers_ok yes;
                \(checks)
                if ($headers_ok = no) { return 403; }
            }
            """
        func tls(_ identity: TestCertificates.Identity) -> String {
            "ssl_certificate \(identity.certificate.path); ssl_certificate_key \(identity.key.path);"
        }
        return """
            log_format requests escape=json '{"method":"$request_method","uri":"$request_uri","status":$status,'
                '"range":"$http_range","userAgent":"$http_user_agent","token":"$http_x_test_token",'
                '"sessionCookie":"$cookie_session","user":"$remote_user","bytesSent":$body_bytes_sent,'
                '"scheme":"$scheme"}';
            access_log \(directory.path)/access.log requests;
            server {
                listen 127.0.0.1:\(ports[0]);
                root \(folder);
                \(locations)
            }
            server {
                listen 127.0.0.1:\(ports[1]) ssl;
                \(tls(certificates.server))
                root \(folder);
                \(locations)
            }
            server {
                listen 127.0.0.1:\(ports[2]) ssl;
                \(tls(certificates.wrongHost))
                root \(folder);
            }
            server {
                listen 127.0.0.1:\(ports[3]) ssl;
                \(tls(certificates.expired))
                root \(folder);
            }
            """
    }
}
