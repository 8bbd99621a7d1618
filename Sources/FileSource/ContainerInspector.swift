import Foundation
import MediaEngineCore

/// Reads just enough of a container's structure to tell a truncated file from a corrupt one.
///
/// Every size and offset it reads is hostile: sums are checked ( ``ByteSource`` offsets are
/// `UInt64`, a box may claim any 64-bit size, an EBML size may be "unknown"), conversions never
/// trap, and each read is bounded by what the source holds.
package enum ContainerInspector {
    /// Top-level ISO base media (MP4, MOV, 3GP) boxes a well-formed file may have.
    private static let isoBoxTypes: Set<String> = [
        "ftyp", "styp", "moov", "mdat", "free", "skip", "wide", "uuid", "moof", "mfra", "sidx", "meta", "pdin", "prft",
        "emsg", "ssix", "jP  ",
    ]

    /// The most top-level boxes walked before the answer is "not truncated" (a file of millions
    /// of tiny boxes is not worth reading to the end after an error).
    private static let boxLimit = 10_000

    /// Whether the file's container says it should be longer than it is.
    /// - Parameter path: A local file.
    /// - Returns: True when a recognised box or segment runs past the end of the file.
    package static func isTruncated(path: String) -> Bool {
        guard let file = FileByteSource(path: path) else { return false }
        return isTruncated(file)
    }

    /// Whether the bytes' container says it should be longer than they are.
    /// - Parameter bytes: A whole file's bytes.
    /// - Returns: True when a recognised box or segment runs past the end.
    package static func isTruncated(bytes: [UInt8]) -> Bool {
        isTruncated(MemoryByteSource(bytes: bytes))
    }

    static func isTruncated(_ source: some ByteSource) -> Bool {
        guard source.size > 0 else { return false }
        return isoBoxesRunPastEnd(source) || matroskaSegmentRunsPastEnd(source)
    }

    /// How much of the file's movie is present, by its container's own tables: an MP4's sample
    /// offsets and sizes (``MP4SampleExtent``), a Matroska file's clusters (``MatroskaClusterExtent``).
    /// - Parameter path: A local file.
    /// - Returns: The playable time and the header's duration when a stream's data is cut short;
    ///   nil when every frame is present, or the container cannot tell.
    package static func truncation(path: String) -> MovieTruncation? {
        guard let file = FileByteSource(path: path) else { return nil }
        return truncation(file)
    }

    /// ``truncation(path:)`` for a whole file's bytes (tests and the fuzzer).
    /// - Parameter bytes: A whole file's bytes.
    /// - Returns: The playable time and the header's duration, or nil.
    package static func truncation(bytes: [UInt8]) -> MovieTruncation? {
        truncation(MemoryByteSource(bytes: bytes))
    }

    static func truncation(_ source: some ByteSource) -> MovieTruncation? {
        guard source.size > 0,
            let (playable, duration) = MP4SampleExtent.truncation(source) ?? MatroskaClusterExtent.truncation(source)
        else { return nil }
        return MovieTruncation(
            playableDuration: .nanoseconds(Int64(clamping: playable)),
            duration: duration.map { .nanoseconds(Int64(clamping: $0)) })
    }

    /// Walks the top-level boxes; true when a recognised box claims more bytes than remain.
    private static func isoBoxesRunPastEnd(_ source: some ByteSource) -> Bool {
        let size = source.size
        var offset: UInt64 = 0
        for _ in 0..<boxLimit {
            guard size >= 8, offset <= size - 8 else { return false }
            guard let header = source.read(at: offset, count: 16), header.count >= 8 else { return false }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            guard isoBoxTypes.contains(type) else { return false }
            var boxSize = UInt64(bigEndian: header[0..<4])
            if boxSize == 1 {
                guard header.count == 16 else { return false }
                boxSize = UInt64(bigEndian: header[8..<16])
                guard boxSize >= 16 else { return false }
            } else if boxSize == 0 {
                return false  // "to the end of the file": complete by definition
            }
            guard boxSize >= 8 else { return false }
            // A claim past 2^64 bytes is corruption, not a file cut short.
            let (end, overflow) = offset.addingReportingOverflow(boxSize)
            if overflow { return false }
            if end > size { return true }
            offset = end
        }
        return false
    }

    /// Reads the EBML header and the Segment's declared size.
    private static func matroskaSegmentRunsPastEnd(_ source: some ByteSource) -> Bool {
        guard let head = source.read(at: 0, count: 12), head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]),
            let header = EBMLSize(head, at: 4), let headerSize = header.value
        else { return false }
        // The Segment follows the EBML header's payload.
        let (segmentOffset, overflow) = UInt64(4 + header.length).addingReportingOverflow(headerSize)
        guard !overflow, segmentOffset < source.size,
            let segment = source.read(at: segmentOffset, count: 12), segment.starts(with: [0x18, 0x53, 0x80, 0x67]),
            let segmentHeader = EBMLSize(segment, at: 4)
        else { return false }
        // An unknown size ("live" files, or a muxer that never went back) runs to the end of the file.
        guard let segmentSize = segmentHeader.value else { return false }
        let (payloadStart, _) = segmentOffset.addingReportingOverflow(UInt64(4 + segmentHeader.length))
        let (end, endOverflow) = payloadStart.addingReportingOverflow(segmentSize)
        return !endOverflow && end > source.size
    }
}

/// An EBML variable-size integer (Matroska, WebM): 1 to 8 bytes, the first byte's leading zeros
/// giving the length; all value bits set means "unknown".
struct EBMLSize {
    /// The size, or nil for "unknown".
    let value: UInt64?
    /// How many bytes the size took.
    let length: Int

    /// Reads one at `index`; nil when the bytes end first or the first byte is zero (no valid length).
    init?(_ bytes: [UInt8], at index: Int) {
        guard index >= 0, index < bytes.count, bytes[index] != 0 else { return nil }
        let length = bytes[index].leadingZeroBitCount + 1
        guard length <= bytes.count - index else { return nil }
        let mask = UInt8(truncatingIfNeeded: 0xFF >> length)
        var value = UInt64(bytes[index] & mask)
        var allOnes = bytes[index] & mask == mask
        for byte in bytes[(index + 1)..<(index + length)] {
            value = value << 8 | UInt64(byte)
            allOnes = allOnes && byte == 0xFF
        }
        self.value = allOnes ? nil : value
        self.length = length
    }
}

extension UInt64 {
    /// A big-endian integer from up to eight bytes.
    fileprivate init(bigEndian bytes: ArraySlice<UInt8>) {
        self = bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
