import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// nginx serving a folder on 127.0.0.1, optionally slowed to a byte rate: a real HTTP server
/// for streaming tests, started by the test and stopped with it.
public final class LoopbackHTTPServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let baseURL: String
    private let process: Process
    private let directory: URL

    /// Starts nginx serving `root`.
    /// - Parameters:
    ///   - root: The folder to serve.
    ///   - bytesPerSecond: nginx's `limit_rate` for every response, or nil for full speed.
    public init(serving root: URL, bytesPerSecond: Int? = nil) async throws {
        directory = try TestMedia.scratchDirectory()
        let port = try Self.freePort()
        let limit = bytesPerSecond.map { "limit_rate \($0);" } ?? ""
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            error_log \(directory.path)/error.log warn;
            pid \(directory.path)/nginx.pid;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(directory.path)/body;
                proxy_temp_path \(directory.path)/proxy;
                fastcgi_temp_path \(directory.path)/fastcgi;
                uwsgi_temp_path \(directory.path)/uwsgi;
                scgi_temp_path \(directory.path)/scgi;
                types { video/mp4 mp4; video/mp2t ts; application/vnd.apple.mpegurl m3u8; }
                server {
                    listen 127.0.0.1:\(port);
                    root \(root.path);
                    \(limit)
                }
            }
            """
        let configURL = directory.appendingPathComponent("nginx.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-c", configURL.path, "-p", directory.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        baseURL = "http://127.0.0.1:\(port)"
        try await withDeadline(.seconds(5), "nginx listening on port \(port)") {
            while !Self.accepts(port: port) {
                guard self.process.isRunning else {
                    let log =
                        (try? String(contentsOf: self.directory.appendingPathComponent("error.log"), encoding: .utf8))
                        ?? ""
                    throw TestMediaError(message: "nginx exited: \(log)")
                }
                await pause(milliseconds: 20)
            }
        }
    }

    deinit {
        // SIGKILL: nginx started without a master process ignores SIGTERM from a parent that
        // spawned it with signals blocked, and the test needs it gone now.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A URL for a file in the served folder.
    public func url(_ name: String) -> String { "\(baseURL)/\(name)" }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw TestMediaError(message: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
