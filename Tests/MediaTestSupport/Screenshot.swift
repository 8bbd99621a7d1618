import Foundation
import MediaEngine

/// A picture of an X screen, read from `xwd`'s output (X Window Dump: a big-endian header,
/// a colour map, then ZPixmap rows of 32-bit pixels).
public struct Screenshot: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    private let pixels: [UInt32]
    private let masks: (red: UInt32, green: UInt32, blue: UInt32)

    /// Parses an XWD dump of a 24- or 32-bit TrueColor screen.
    public init(xwd data: Data) throws {
        let bytes = [UInt8](data)
        func header(_ index: Int) -> UInt32 {
            bytes[(index * 4)..<(index * 4 + 4)].reduce(0) { $0 << 8 | UInt32($1) }
        }
        guard bytes.count >= 100, header(1) == 7, header(2) == 2, header(11) == 32 else {
            throw TestMediaError(message: "not a 32-bit ZPixmap XWD dump")
        }
        let headerSize = Int(header(0))
        width = Int(header(4))
        height = Int(header(5))
        let littleEndian = header(7) == 0
        let bytesPerLine = Int(header(12))
        masks = (header(14), header(15), header(16))
        let colors = Int(header(19))
        let start = headerSize + colors * 12
        guard bytes.count >= start + bytesPerLine * height else { throw TestMediaError(message: "short XWD dump") }
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let offset = start + y * bytesPerLine + x * 4
                let word = bytes[offset..<(offset + 4)]
                pixels[y * width + x] =
                    littleEndian
                    ? word.reversed().reduce(0) { $0 << 8 | UInt32($1) } : word.reduce(0) { $0 << 8 | UInt32($1) }
            }
        }
        self.pixels = pixels
    }

    /// The colour at (`x`, `y`).
    public func color(atX x: Int, y: Int) -> RGBAColor {
        let value = pixels[y * width + x]
        func channel(_ mask: UInt32) -> UInt8 {
            guard mask != 0 else { return 0 }
            return UInt8(truncatingIfNeeded: (value & mask) >> UInt32(mask.trailingZeroBitCount))
        }
        return RGBAColor(red: channel(masks.red), green: channel(masks.green), blue: channel(masks.blue))
    }
}
