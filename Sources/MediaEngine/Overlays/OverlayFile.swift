import Foundation

/// Reads the files overlays are made from (pictures, subtitles), with the same typed errors a
/// movie file gets: missing, unreadable, a directory, not a regular file, empty.
enum OverlayFile {
    /// The file's bytes.
    static func read(_ url: URL, limit: Int = 64 << 20) throws(MediaError) -> [UInt8] {
        guard url.isFileURL else { throw MediaError(.invalidArgument, "'\(url.absoluteString)' is not a file URL") }
        let path = url.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == EACCES || code == EPERM { throw MediaError(.permissionDenied, "no permission to reach \(path)") }
            throw MediaError(.fileNotFound, "no file at \(path)")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw MediaError(.isDirectory, "\(path) is a directory")
        default: throw MediaError(.notRegularFile, "\(path) is not a regular file")
        }
        guard info.st_size > 0 else { throw MediaError(.emptyFile, "\(path) is empty") }
        guard info.st_size <= limit else {
            throw MediaError(.invalidArgument, "\(path) is larger than \(limit) bytes")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == EACCES || code == EPERM { throw MediaError(.permissionDenied, "no permission to read \(path)") }
            throw MediaError(.fileNotFound, "cannot open \(path): \(String(cString: strerror(code)))")
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress! + total, buffer.count - total)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            total += count
        }
        guard total > 0 else { throw MediaError(.permissionDenied, "cannot read \(path)") }
        return Array(bytes.prefix(total))
    }
}
