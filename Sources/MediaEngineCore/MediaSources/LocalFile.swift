import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The checks every local file the engine reads goes through first (movies in FileSource,
/// pictures and subtitles for overlays), with one typed error each for what GStreamer or a plain
/// read would report alike or not at all.
package enum LocalFile {
    /// Refuses what cannot be read as a regular file.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - kind: What the file should be, for messages ("movie file", "picture").
    /// - Returns: The file's size in bytes (more than 0).
    /// - Throws: ``MediaError`` with code ``MediaError/Code/fileNotFound``, ``MediaError/Code/permissionDenied``,
    ///   ``MediaError/Code/isDirectory``, ``MediaError/Code/notRegularFile`` (a FIFO or device is refused
    ///   before anything opens it: opening a FIFO would block) or ``MediaError/Code/emptyFile``.
    package static func check(_ path: String, kind: String) throws(MediaError) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR:
                throw MediaError(.fileNotFound, "no file at \(path)")
            case EACCES, EPERM:
                throw MediaError(.permissionDenied, "no permission to reach \(path)")
            default:
                throw MediaError(.fileNotFound, "cannot look at \(path): \(String(cString: strerror(code)))")
            }
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR {
            throw MediaError(.isDirectory, "\(path) is a directory, not a \(kind)")
        }
        guard type == S_IFREG else {
            let description =
                switch type {
                case S_IFIFO: "a FIFO"
                case S_IFCHR: "a character device"
                case S_IFBLK: "a block device"
                case S_IFSOCK: "a socket"
                default: "not a regular file"
                }
            throw MediaError(.notRegularFile, "\(path) is \(description), not a regular file")
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == EACCES || code == EPERM {
                throw MediaError(.permissionDenied, "no permission to read \(path)")
            }
            throw MediaError(.fileNotFound, "cannot open \(path): \(String(cString: strerror(code)))")
        }
        close(descriptor)
        if info.st_size == 0 {
            throw MediaError(.emptyFile, "\(path) is empty")
        }
        return Int(info.st_size)
    }
}
