/// The pixel size a picture file's header states, read before anything is decoded: PNG (`IHDR`),
/// JPEG (the first start-of-frame marker), GIF (the logical screen) and BMP (`BITMAPINFOHEADER`).
///
/// Every byte is hostile: each read is bounded by the bytes there are, segment lengths are
/// checked before they are skipped, and the walk through JPEG markers is bounded.
enum ImageHeader {
    /// The most JPEG segments skipped looking for the frame header.
    static let segmentLimit = 10_000

    /// The stated size, or nil when the bytes are none of these formats or their header is cut.
    static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // Signature, then the IHDR chunk: length, "IHDR", width, height (big-endian).
            guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
            return (Int(bigEndian32(bytes, 16)), Int(bigEndian32(bytes, 20)))
        }
        if bytes.starts(with: [0xFF, 0xD8]) { return jpegSize(bytes) }
        if bytes.starts(with: Array("GIF8".utf8)), bytes.count >= 10 {
            return (Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8)
        }
        if bytes.starts(with: Array("BM".utf8)), bytes.count >= 26 {
            // A negative height is a top-down bitmap; the size is its magnitude.
            let width = Int32(bitPattern: littleEndian32(bytes, 18))
            let height = Int32(bitPattern: littleEndian32(bytes, 22))
            return (Int(width.magnitude), Int(height.magnitude))
        }
        return nil
    }

    /// The size in a JPEG's first SOFn segment (not DHT, JPG or DAC, which share the range).
    private static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var at = 2
        for _ in 0..<segmentLimit {
            // Markers may be padded with 0xFF bytes.
            while at < bytes.count, bytes[at] == 0xFF, at + 1 < bytes.count, bytes[at + 1] == 0xFF { at += 1 }
            guard at + 4 <= bytes.count, bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard at + 9 <= bytes.count else { return nil }
                let height = Int(bytes[at + 5]) << 8 | Int(bytes[at + 6])
                let width = Int(bytes[at + 7]) << 8 | Int(bytes[at + 8])
                return (width, height)
            }
            if marker == 0xD9 || marker == 0xDA { return nil }  // end, or scan data before any frame header
            at += 2 + length
        }
        return nil
    }

    private static func bigEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func littleEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        bytes[at..<at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}
