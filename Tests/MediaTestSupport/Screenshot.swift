import Foundation
import MediaEngine

/// A picture of an X screen, read from `xwd`'s output (X Window Dump: a big-endian header,
/// a colour map, then ZPixmap rows of 32-bit pixels).
public struct Screenshot: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The dump as `xwd` wrote it; pixels are read from it when asked for, not decoded up
    /// front (a whole screen, pixel by pixel, is seconds of CPU in a debug build: a test that
    /// waits for a change on screen would see the screen that rarely).
    private let bytes: [UInt8]
    private let pixelStart: Int
    private let bytesPerLine: Int
    private let littleEndian: Bool
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
        littleEndian = header(7) == 0
        bytesPerLine = Int(header(12))
        masks = (header(14), header(15), header(16))
        let colors = Int(header(19))
        pixelStart = headerSize + colors * 12
        guard width > 0, height > 0, bytesPerLine >= width * 4, bytes.count >= pixelStart + bytesPerLine * height else {
            throw TestMediaError(message: "short XWD dump")
        }
        self.bytes = bytes
    }

    /// The screen as a PNG file's bytes (a person's look at what a test saw: tests write it to
    /// /tmp). Decodes every pixel: a second or so for a whole screen in a debug build.
    public func pngData() throws -> Data {
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let color = color(atX: x, y: y)
                let index = (y * width + x) * 4
                rgba[index] = color.red
                rgba[index + 1] = color.green
                rgba[index + 2] = color.blue
            }
        }
        return try VideoImage(width: width, height: height, rgba: rgba).pngData()
    }

    /// The colour at (`x`, `y`).
    public func color(atX x: Int, y: Int) -> RGBAColor {
        let offset = pixelStart + y * bytesPerLine + x * 4
        let value = (0..<4).reduce(UInt32(0)) { word, index in
            word << 8 | UInt32(bytes[offset + (littleEndian ? 3 - index : index)])
        }
        func channel(_ mask: UInt32) -> UInt8 {
            guard mask != 0 else { return 0 }
            return UInt8(truncatingIfNeeded: (value & mask) >> UInt32(mask.trailingZeroBitCount))
        }
        return RGBAColor(red: channel(masks.red), green: channel(masks.green), blue: channel(masks.blue))
    }
}
