import Foundation

/// nginx serving a folder on 127.0.0.1, optionally slowed to a byte rate: a real HTTP server
/// for streaming tests, started by the test and stopped with it. ``StreamingTestServer`` adds
/// authentication, error statuses, redirects and HTTPS to the same.
public final class LoopbackHTTPServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let baseURL: String
    private let nginx: NginxProcess

    /// Starts nginx serving `root`.
    /// - Parameters:
    ///   - root: The folder to serve.
    ///   - bytesPerSecond: nginx's `limit_rate` for every response, or nil for full speed.
    ///   - serverDirectives: More nginx directives for the server block (a `location` that demands
    ///     a header, say).
    public init(serving root: URL, bytesPerSecond: Int? = nil, serverDirectives: String = "") async throws {
        let limit = bytesPerSecond.map { "limit_rate \($0);" } ?? ""
        nginx = try await NginxProcess(portCount: 1) { _, ports in
            """
                access_log off;
                server {
                    listen 127.0.0.1:\(ports[0]);
                    root \(root.path);
                    \(limit)
                    \(serverDirectives)
                }
            """
        }
        baseURL = "http://127.0.0.1:\(nginx.ports[0])"
    }

    /// A URL for a file in the served folder.
    public func url(_ name: String) -> String { "\(baseURL)/\(name)" }
}
