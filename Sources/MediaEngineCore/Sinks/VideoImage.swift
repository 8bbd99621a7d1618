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
    /// The YUV-to-RGB matrix of the movie the frame came from, for ``convertedToRGBA()``.
    let matrix: PackedConversion.Matrix

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

    /// The image converted to RGBA (one plane, rows of `width * 4` bytes), as
    /// ``VideoFrame/makeRGBAImage()`` converts a frame: YUV with libyuv and the movie's matrix,
    /// BGRA with its channels swapped. An RGBA image is returned as it is.
    /// - Returns: The RGBA image.
    public func convertedToRGBA() -> VideoImage {
        if format == .rgba { return self }
        // Each plane's bytes, pinned for the conversion (at most three planes).
        func pinned(_ index: Int, _ done: [FramePlane]) -> VideoImage {
            guard index < planes.count else {
                return PackedConversion.rgbaImage(
                    of: done, format: format, width: width, height: height, matrix: matrix,
                    presentationTime: presentationTime)
            }
            return planes[index].withUnsafeBytes { bytes in
                let rows = strides[index] > 0 ? bytes.count / strides[index] : 0
                return pinned(index + 1, done + [FramePlane(buffer: bytes, stride: strides[index], rows: rows)])
            }
        }
        return pinned(0, [])
    }
}

extension VideoImage {
    /// An RGBA picture made from its pixels (row after row, 4 bytes a pixel: red, green, blue,
    /// alpha), for a sink or an app that draws its own pictures and encodes them with
    /// ``pngData()`` or ``write(to:format:)``.
    /// - Parameters:
    ///   - width: Width in pixels, from 1.
    ///   - height: Height in pixels, from 1.
    ///   - pixels: `width * height * 4` bytes.
    /// - Throws: ``MediaError/Code/invalidArgument`` when the byte count does not match the size;
    ///   ``MediaError/Code/tooLarge`` for a size over ``MediaLimits``.
    public init(rgbaWidth width: Int, height: Int, pixels: [UInt8]) throws(MediaError) {
        guard width > 0, height > 0 else {
            throw MediaError(.invalidArgument, "a picture of \(width)x\(height) pixels has no pixels")
        }
        guard MediaLimits.allows(width: width, height: height) else {
            throw MediaError(.tooLarge, "a picture of \(width)x\(height) pixels is over the engine's limits")
        }
        guard pixels.count == width * height * 4 else {
            throw MediaError(
                .invalidArgument,
                "\(pixels.count) bytes for a \(width)x\(height) RGBA picture (\(width * height * 4) wanted)")
        }
        self.init(
            format: .rgba, width: width, height: height, presentationTime: nil, planes: [pixels], strides: [width * 4],
            matrix: .bt601)
    }
}
