import Foundation

/// Random access to a file's bytes for the container inspector: a file on disk, or bytes in
/// memory (tests and the fuzzer).
protocol ByteSource {
    /// How many bytes there are.
    var size: UInt64 { get }
    /// Up to `count` bytes from `offset`; fewer at the end, nil when `offset` is past the end or
    /// the read failed.
    func read(at offset: UInt64, count: Int) -> [UInt8]?
}

/// A local file's bytes, read on demand.
final class FileByteSource: ByteSource {
    private let handle: FileHandle
    let size: UInt64

    init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        do {
            self.size = try handle.seekToEnd()
        } catch {
            try? handle.close()  // Nothing to report: the caller is told there is no source.
            return nil
        }
        self.handle = handle
    }

    deinit { try? handle.close() }  // A close error on a read-only handle loses nothing.

    func read(at offset: UInt64, count: Int) -> [UInt8]? {
        guard offset < size, count > 0 else { return nil }
        do {
            try handle.seek(toOffset: offset)
            return try handle.read(upToCount: count).map { [UInt8]($0) }
        } catch {
            return nil
        }
    }
}

/// Bytes in memory.
struct MemoryByteSource: ByteSource {
    let bytes: [UInt8]
    var size: UInt64 { UInt64(bytes.count) }

    func read(at offset: UInt64, count: Int) -> [UInt8]? {
        guard offset < size, count > 0 else { return nil }
        let start = Int(offset)
        return Array(bytes[start..<(start + min(count, bytes.count - start))])
    }
}
