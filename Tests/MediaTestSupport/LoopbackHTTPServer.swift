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
    ///   - serverDirectives: More nginx directives for the server block (a `location` that demands
    ///     a header, say).
    public init(serving root: URL, bytesPerSecond: Int? = nil, serverDirectives: String = "") async throws {
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
                types {
                    video/mp4 mp4; video/mp2t ts; application/vnd.apple.mpegurl m3u8; application/dash+xml mpd;
                    video/iso.segment m4s;
                }
                server {
                    listen 127.0.0.1:\(port);
                    root \(root.path);
                    \(limit)
                    \(serverDirectives)
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
        // nginx writes its pid file after it has bound its listening socket: waiting for the
        // file (inotify, woken by nginx's exit too) means connections will be accepted.
        let started = PidFileWatch(directory: directory, file: "nginx.pid")
        process.terminationHandler = { _ in started.processExited() }
        try process.run()
        baseURL = "http://127.0.0.1:\(port)"
        do {
            try await withDeadline(.seconds(5), "nginx listening on port \(port)") {
                try await OwnThread.run { try started.wait() }
            }
        } catch {
            let log = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw TestMediaError(message: "nginx did not start (\(error)): \(log)")
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
}

/// Waits for a file to appear in a folder (inotify), or for the process that should write it to
/// exit. Made before the process starts, so the file cannot appear unseen.
final class PidFileWatch: Sendable {
    private let path: String
    private let events: Int32
    private let wake: (read: Int32, write: Int32)

    init(directory: URL, file: String) {
        path = directory.appendingPathComponent(file).path
        events = inotify_init1(Int32(IN_CLOEXEC))
        inotify_add_watch(events, directory.path, UInt32(IN_CREATE | IN_MOVED_TO))
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        wake = (fds[0], fds[1])
    }

    deinit {
        close(events)
        close(wake.read)
        close(wake.write)
    }

    /// Wakes ``wait()``: the process is gone.
    func processExited() {
        _ = write(wake.write, "x", 1)
    }

    /// Blocks until the file exists; throws if the process exits first.
    func wait() throws {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !FileManager.default.fileExists(atPath: path) {
            var fds = [
                pollfd(fd: events, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { throw TestMediaError(message: "poll failed") }
            if fds[1].revents != 0, !FileManager.default.fileExists(atPath: path) {
                throw TestMediaError(message: "the process exited before writing \(path)")
            }
            if fds[0].revents != 0 { _ = read(events, &buffer, buffer.count) }
        }
    }
}
