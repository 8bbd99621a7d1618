import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
