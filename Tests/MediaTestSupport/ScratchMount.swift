import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Small tmpfs mounts for write-failure tests: read-only, or full. Tests run as root, and root
/// writes through a folder's permission bits (mode 0555 stops no one), so only a read-only file
/// system or a full one makes a write fail.
public enum ScratchMount {
    /// Mounts a 64 KiB tmpfs on `folder` (which must exist).
    /// - Parameters:
    ///   - folder: The mount point.
    ///   - readOnly: Read-only, or writable.
    ///   - full: Fills a writable one, so the next write finds no space.
    /// - Returns: False when this process may not mount (not root, or in a container that
    ///   refuses): the caller skips, saying so.
    public static func tmpfs(at folder: URL, readOnly: Bool = false, full: Bool = false) async -> Bool {
        guard getuid() == 0 else { return false }
        let options = readOnly ? "ro,size=64k" : "size=64k"
        let result = try? await ProcessRunner.run("mount", ["-t", "tmpfs", "-o", options, "tmpfs", folder.path])
        guard result?.status == 0 else { return false }
        if full && !readOnly {
            // Writing more than fits fills it: Data's write fails, the bytes that fit stay.
            let filler = folder.appendingPathComponent("filler")
            _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
            if let handle = try? FileHandle(forWritingTo: filler) {
                try? handle.write(contentsOf: Data(count: 128 << 10))
                try? handle.close()
            }
        }
        return true
    }

    /// Unmounts what ``tmpfs(at:readOnly:full:)`` mounted.
    /// - Parameter folder: The mount point.
    public static func unmount(_ folder: URL) async {
        _ = try? await ProcessRunner.run("umount", [folder.path])
    }
}
