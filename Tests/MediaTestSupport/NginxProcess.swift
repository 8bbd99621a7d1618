import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One nginx (`/usr/sbin/nginx`, no daemon, no master process) on loopback ports of its own,
/// run from a configuration its owner writes, in a scratch folder of its own; killed, and the
/// folder removed, with the value. The engine of ``LoopbackHTTPServer`` and
/// ``StreamingTestServer``.
final class NginxProcess: Sendable {
    /// The scratch folder: configuration, pid file, logs, and whatever the owner put there.
    let directory: URL
    /// The ports the configuration was written for, as many as asked.
    let ports: [Int]
    private let process: Process

    /// Writes the configuration `http` makes, starts nginx and returns once it listens.
    ///
    /// The ports are found free by binding port 0 and closing again, so another program can take
    /// one before nginx binds it: when nginx exits saying so, this tries again with new ports
    /// (three times in all).
    /// - Parameters:
    ///   - portCount: How many loopback ports the configuration listens on.
    ///   - prepare: Puts files in the scratch folder before nginx starts (a password file, say);
    ///     called for each attempt's fresh folder.
    ///   - http: The inside of the `http { }` block, from the scratch folder and the ports.
    /// - Throws: ``TestMediaError`` with nginx's error log when it does not start.
    init(
        portCount: Int, prepare: @Sendable (URL) async throws -> Void = { _ in },
        http: (_ directory: URL, _ ports: [Int]) -> String
    ) async throws {
        (directory, ports, process) = try await Self.launch(portCount: portCount, prepare: prepare, http: http)
    }

    deinit {
        // SIGKILL: nginx started without a master process ignores SIGTERM from a parent that
        // spawned it with signals blocked, and the test needs it gone now.
        process.killAndReap()
        try? FileManager.default.removeItem(at: directory)
    }

    private static func launch(
        portCount: Int, prepare: @Sendable (URL) async throws -> Void,
        http: (_ directory: URL, _ ports: [Int]) -> String
    ) async throws -> (URL, [Int], Process) {
        var attempt = 1
        while true {
            let directory = try TestMedia.scratchDirectory()
            do {
                try await prepare(directory)
                let ports = try LoopbackPorts.freeTCP(portCount)
                let process = try await start(in: directory, configuration: main(directory, http(directory, ports)))
                return (directory, ports, process)
            } catch let error as NginxStartFailure where error.portTaken && attempt < 3 {
                try? FileManager.default.removeItem(at: directory)
                attempt += 1
            } catch {
                try? FileManager.default.removeItem(at: directory)
                throw error
            }
        }
    }

    private static func main(_ directory: URL, _ http: String) -> String {
        """
        daemon off;
        master_process off;
        worker_processes 1;
        error_log \(directory.path)/error.log warn;
        pid \(directory.path)/nginx.pid;
        events { worker_connections 64; }
        http {
            client_body_temp_path \(directory.path)/body;
            proxy_temp_path \(directory.path)/proxy;
            fastcgi_temp_path \(directory.path)/fastcgi;
            uwsgi_temp_path \(directory.path)/uwsgi;
            scgi_temp_path \(directory.path)/scgi;
            types {
                video/mp4 mp4; video/webm webm; video/mp2t ts; audio/mpeg mp3; audio/aac aac; text/html html;
                application/vnd.apple.mpegurl m3u8; application/dash+xml mpd; video/iso.segment m4s;
            }
            default_type application/octet-stream;
        \(http)
        }
        """
    }

    private static func start(in directory: URL, configuration: String) async throws -> Process {
        let configURL = directory.appendingPathComponent("nginx.conf")
        try configuration.write(to: configURL, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-c", configURL.path, "-p", directory.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // nginx writes its pid file after it has bound its listening sockets: waiting for the
        // file (inotify, woken by nginx's exit too) means connections will be accepted.
        let started = PidFileWatch(directory: directory, file: "nginx.pid")
        process.terminationHandler = { _ in started.processExited() }
        try process.run()
        do {
            try await withDeadline(.seconds(5), "nginx to listen") {
                try await OwnThread.run { try started.wait() }
            }
            return process
        } catch {
            let log = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            process.killAndReap()
            throw NginxStartFailure(
                portTaken: log.contains("Address already in use"), message: "nginx did not start (\(error)): \(log)")
        }
    }
}

/// nginx exited or hung before listening; `portTaken` when its log says a port was taken.
private struct NginxStartFailure: Error, CustomStringConvertible {
    let portTaken: Bool
    let message: String
    var description: String { message }
}
