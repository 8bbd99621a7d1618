import Foundation

/// Reads just enough of a container's structure to tell a truncated file from a corrupt one.
enum ContainerInspector {
    /// Top-level ISO base media (MP4, MOV, 3GP) boxes a well-formed file may have.
    private static let isoBoxTypes: Set<String> = [
        "ftyp", "styp", "moov", "mdat", "free", "skip", "wide", "uuid", "moof", "mfra", "sidx", "meta", "pdin", "prft",
        "emsg", "ssix", "jP  ",
    ]

    /// Whether the file's container says it should be longer than it is.
    static func isTruncated(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0 else { return false }
        return isoBoxesRunPastEnd(handle, size: size) || matroskaSegmentRunsPastEnd(handle, size: size)
    }

    /// Walks the top-level boxes; true when a recognised box claims more bytes than remain.
    private static func isoBoxesRunPastEnd(_ handle: FileHandle, size: UInt64) -> Bool {
        var offset: UInt64 = 0
        var boxes = 0
        while offset + 8 <= size, boxes < 10_000 {
            guard let header = read(handle, at: offset, count: 16), header.count >= 8 else { return false }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            guard isoBoxTypes.contains(type) else { return false }
            var boxSize = UInt64(bigEndian: header[0..<4])
            if boxSize == 1 {
                guard header.count == 16 else { return false }
                boxSize = UInt64(bigEndian: header[8..<16])
            } else if boxSize == 0 {
                return false  // "to the end of the file": complete by definition
            }
            guard boxSize >= 8 else { return false }
            if offset + boxSize > size { return true }
            offset += boxSize
            boxes += 1
        }
        return false
    }

    /// Reads the EBML header and the Segment's declared size.
    private static func matroskaSegmentRunsPastEnd(_ handle: FileHandle, size: UInt64) -> Bool {
        guard let head = read(handle, at: 0, count: 64), head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) else {
            return false
        }
        var cursor = 4
        guard let (headerSize, headerLength) = variableInteger(head, at: cursor) else { return false }
        cursor += headerLength + Int(headerSize)
        guard let segment = read(handle, at: UInt64(cursor), count: 12),
            segment.starts(with: [0x18, 0x53, 0x80, 0x67]),
            let (segmentSize, sizeLength) = variableInteger(segment, at: 4), segmentSize != .max
        else { return false }
        return UInt64(cursor + 4 + sizeLength) + segmentSize > size
    }

    /// An EBML variable-size integer; `.max` stands for "unknown size".
    private static func variableInteger(_ bytes: [UInt8], at index: Int) -> (UInt64, Int)? {
        guard index < bytes.count, bytes[index] != 0 else { return nil }
        let length = bytes[index].leadingZeroBitCount + 1
        guard index + length <= bytes.count else { return nil }
        var value = UInt64(bytes[index] & (0xFF >> length))
        var allOnes = value == UInt64(0xFF >> length)
        for byte in bytes[(index + 1)..<(index + length)] {
            value = value << 8 | UInt64(byte)
            allOnes = allOnes && byte == 0xFF
        }
        return (allOnes ? .max : value, length)
    }

    private static func read(_ handle: FileHandle, at offset: UInt64, count: Int) -> [UInt8]? {
        guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count) else {
            return nil
        }
        return [UInt8](data)
    }
}

extension UInt64 {
    /// A big-endian integer from up to eight bytes.
    fileprivate init(bigEndian bytes: ArraySlice<UInt8>) {
        self = bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
