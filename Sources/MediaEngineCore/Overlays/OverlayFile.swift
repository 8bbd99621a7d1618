import Foundation

/// Reads the files overlays are made from (pictures, subtitles), with the typed errors a movie
/// file gets (``LocalFile``): missing, unreadable, a directory, not a regular file, empty.
enum OverlayFile {
    /// The file's bytes, after ``LocalFile/check(_:kind:)``.
    /// - Throws: The file errors, or ``MediaError/Code/tooLarge`` for a file over `limit` bytes.
    static func read(_ url: URL, kind: String, limit: Int = 64 << 20) throws(MediaError) -> [UInt8] {
        guard url.isFileURL else { throw MediaError(.invalidArgument, "'\(url.absoluteString)' is not a file URL") }
        let path = url.path
        let size = try LocalFile.check(path, kind: kind)
        guard size <= limit else {
            throw MediaError(.tooLarge, "\(path) is larger than \(limit) bytes")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw MediaError(.permissionDenied, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: size)
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
        // Shortened in place (a file that shrank while it was read), not copied: one buffer at a time.
        bytes.removeSubrange(total...)
        return bytes
    }
}
