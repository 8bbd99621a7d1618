/// An owned copy of a frame's pixels, made by ``VideoFrame/makeImage()``.
public struct VideoImage: Sendable, Hashable {
    /// The layout of the pixels.
    public let format: PixelFormat
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The frame's position in the movie, if it had one.
    public let presentationTime: Duration?
    /// Each plane's bytes, rows of ``strides`` bytes.
    public let planes: [[UInt8]]
    /// Each plane's stride in bytes.
    public let strides: [Int]

    /// The colour of the pixel at (`x`, `y`), converted to RGBA (BT.601 for YUV formats).
    /// - Parameters:
    ///   - x: Column, from 0 at the left.
    ///   - y: Row, from 0 at the top.
    /// - Returns: The pixel's colour.
    public func color(atX x: Int, y: Int) -> RGBAColor {
        precondition(
            x >= 0 && x < width && y >= 0 && y < height, "(\(x), \(y)) is outside the \(width)x\(height) image")
        return PixelReader.color(format: format, x: x, y: y, strides: strides) { plane, offset in planes[plane][offset]
        }
    }
}
