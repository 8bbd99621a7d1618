import Foundation
import MediaEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// nginx on loopback for ad tests: an ad server's VAST documents and a tracking server's
/// beacons, with every request logged for the test to read back. Started by the test and
/// stopped with the value (nginx is killed and its folders removed in `deinit`).
///
/// Paths on ``baseURL``:
/// - `/NAME`: the file NAME of the server's documents folder (``write(_:to:)``), as
///   `application/xml`.
/// - `/beacon/ANYTHING`: `204 No Content`, for tracking URLs; the query is logged as sent.
/// - `/status/404`, `/status/500`: that status with nginx's small HTML error page.
/// - `/redirect/NAME`: `302` to `/NAME`.
///
/// Every request is logged (``accessLog()``); ``settledLog()`` waits until nginx has logged
/// everything answered before it was called.
public final class VASTTestServer: Sendable {
    /// One line of the access log.
    public struct LoggedRequest: Sendable, Decodable, Equatable, CustomStringConvertible {
        /// `GET`, `HEAD`, ...
        public let method: String
        /// The request target as sent: path and query, percent-encoding kept.
        public let uri: String
        /// The status nginx answered with.
        public let status: Int
        /// The `User-Agent` header, empty when none.
        public let userAgent: String

        /// The path, without the query.
        public var path: String { String(uri.prefix { $0 != "?" }) }

        /// The query's items, percent-decoded; an item without `=` has an empty value.
        public var query: [String: String] {
            guard let start = uri.firstIndex(of: "?") else { return [:] }
            var items: [String: String] = [:]
            for item in uri[uri.index(after: start)...].split(separator: "&") {
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let value = parts.count > 1 ? String(parts[1]) : ""
                items[String(parts[0])] = value.removingPercentEncoding ?? value
            }
            return items
        }

        /// `METHOD URI STATUS`.
        public var description: String { "\(method) \(uri) \(status)" }
    }

    /// `http://127.0.0.1:PORT`.
    public let baseURL: String
    /// The folder served at `/`.
    public let documents: URL
    private let nginx: NginxProcess

    /// Starts nginx with an empty documents folder.
    /// - Throws: ``TestMediaError`` when nginx does not start.
    public init() async throws {
        let documents = try TestMedia.scratchDirectory()
        self.documents = documents
        do {
            nginx = try await NginxProcess(portCount: 1) { directory, ports in
                """
                    log_format requests escape=json '{"method":"$request_method","uri":"$request_uri",'
                        '"status":$status,"userAgent":"$http_user_agent"}';
                    access_log \(directory.path)/access.log requests;
                    server {
                        listen 127.0.0.1:\(ports[0]);
                        root \(documents.path);
                        default_type application/xml;
                        location ^~ /beacon/ { return 204; }
                        location = /status/404 { return 404; }
                        location = /status/500 { return 500; }
                        location ~ ^/redirect/(.*)$ { return 302 /$1; }
                    }
                """
            }
        } catch {
            try? FileManager.default.removeItem(at: documents)  // Best effort: the start failure is what matters.
            throw error
        }
        baseURL = "http://127.0.0.1:\(nginx.ports[0])"
    }

    deinit {
        // Best effort: a scratch folder left behind is only litter in the temporary directory.
        try? FileManager.default.removeItem(at: documents)
    }

    /// The URL of a path on the server.
    /// - Parameter path: The path, without the leading slash.
    /// - Returns: `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> URL {
        URL(string: "\(baseURL)/\(path)")!
    }

    /// Writes a document to the folder served.
    /// - Parameters:
    ///   - text: The document.
    ///   - name: Its file name (served at `/name`).
    /// - Returns: Its URL.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> URL {
        try text.write(to: documents.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return url(name)
    }

    /// Every request nginx has logged so far, oldest first. nginx logs a request just after
    /// sending its response: see ``settledLog()``.
    /// - Throws: When the log cannot be read or a line is not what nginx was told to write.
    /// - Returns: The requests.
    public func accessLog() throws -> [LoggedRequest] {
        guard FileManager.default.fileExists(atPath: accessLogFile.path) else { return [] }
        let text = try String(contentsOf: accessLogFile, encoding: .utf8)
        // Only whole lines: nginx may be writing the next one.
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            try JSONDecoder().decode(LoggedRequest.self, from: Data($0.utf8))
        }
    }

    /// The access log once `condition` holds for it; waits on inotify for nginx's writes, on
    /// a thread of its own, for at most 5 s (scaled).
    /// - Parameters:
    ///   - what: What is waited for, for the failure message.
    ///   - condition: The test on the requests logged so far.
    /// - Throws: ``TestMediaError`` when the condition does not hold in time.
    /// - Returns: The requests.
    public func accessLog(
        until what: String, _ condition: @escaping @Sendable ([LoggedRequest]) -> Bool
    ) async throws -> [LoggedRequest] {
        try await OwnThread.run { [self] in
            let watch = inotify_init1(Int32(IN_CLOEXEC))
            defer { close(watch) }
            // The folder, not the file: nginx creates the log at start, but watching the folder
            // also sees a file created later.
            inotify_add_watch(watch, nginx.directory.path, UInt32(IN_MODIFY | IN_CREATE))
            let clock = ContinuousClock()
            let deadline = clock.now + Duration.seconds(5).scaled
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let log = try accessLog()
                if condition(log) { return log }
                let remaining = deadline - clock.now
                guard remaining > .zero else {
                    throw TestMediaError(message: "nginx's log did not show \(what) within 5 s: \(log)")
                }
                var event = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
                if poll(&event, 1, Int32(remaining.inSeconds * 1000) + 1) > 0 { _ = read(watch, &buffer, buffer.count) }
            }
        }
    }

    /// Everything answered before the call, once logged: requests a marker (`/beacon/settle-`
    /// and a UUID) and waits for its line. nginx (one worker) writes a request's line right
    /// after sending its answer, before it reads another request, so every request answered
    /// before the marker was sent is logged above it. Beacons still in flight must be waited
    /// for first (``BeaconSender``'s `flush`).
    /// - Throws: When the marker fails or is not logged in time.
    /// - Returns: The requests logged before the marker, oldest first.
    public func settledLog() async throws -> [LoggedRequest] {
        let marker = "/beacon/settle-\(UUID().uuidString)"
        // A data task with a completion handler, not `data(from:)`: that one can deadlock with the
        // session's queue when its task is cancelled (swift-corelibs-foundation#5412; see the ad
        // source's `cancellableData(for:)`), and a test's deadline cancels it.
        let markerURL = url(String(marker.dropFirst()))
        let response: URLResponse = try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: markerURL) { _, response, error in
                if let response {
                    continuation.resume(returning: response)
                } else {
                    continuation.resume(throwing: error ?? TestMediaError(message: "the settle marker got no answer"))
                }
            }.resume()
        }
        guard (response as? HTTPURLResponse)?.statusCode == 204 else {
            throw TestMediaError(message: "the settle marker was answered with \(response)")
        }
        let log = try await accessLog(until: marker) { $0.contains { $0.uri == marker } }
        return Array(log.prefix { $0.uri != marker }.filter { !$0.uri.hasPrefix("/beacon/settle-") })
    }

    /// The beacons (`/beacon/` requests) of ``settledLog()``, oldest first.
    /// - Throws: What ``settledLog()`` throws.
    /// - Returns: The beacons.
    public func settledBeacons() async throws -> [LoggedRequest] {
        try await settledLog().filter { $0.uri.hasPrefix("/beacon/") }
    }

    private var accessLogFile: URL { nginx.directory.appendingPathComponent("access.log") }
}
