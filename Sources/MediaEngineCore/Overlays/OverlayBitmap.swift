/// An overlay's pixels: RGBA, 8 bits a channel, straight (not premultiplied) alpha, rows
/// top to bottom with no padding. Immutable; the engine uploads each instance to GStreamer
/// once, so keep returning the same instance while the picture is unchanged.
public final class OverlayBitmap: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes of RGBA.
    public let pixels: [UInt8]

    private let uploaded = Locked<Buffer?>(nil)

    /// Creates a bitmap from RGBA bytes.
    /// - Parameters:
    ///   - width: Width in pixels, at least 1.
    ///   - height: Height in pixels, at least 1.
    ///   - rgba: `width * height * 4` bytes, straight alpha.
    /// - Throws: ``MediaError/Code/invalidArgument`` when the sizes do not match.
    public init(width: Int, height: Int, rgba: [UInt8]) throws(MediaError) {
        guard width > 0, height > 0, rgba.count == width * height * 4 else {
            throw MediaError(
                .invalidArgument,
                "an overlay bitmap of \(width)x\(height) needs \(width * height * 4) bytes, not \(rgba.count)")
        }
        self.width = width
        self.height = height
        self.pixels = rgba
    }

    /// A bitmap of one colour.
    /// - Parameters:
    ///   - width: Width in pixels, at least 1.
    ///   - height: Height in pixels, at least 1.
    ///   - color: The colour of every pixel.
    /// - Throws: ``MediaError/Code/invalidArgument`` for an empty size.
    public convenience init(width: Int, height: Int, color: RGBAColor) throws(MediaError) {
        guard width > 0, height > 0 else { throw MediaError(.invalidArgument, "an overlay bitmap cannot be empty") }
        var canvas = OverlayCanvas(width: width, height: height)
        canvas.clear(to: color)
        try self.init(width: width, height: height, rgba: canvas.pixels)
    }

    /// The natural size.
    public var size: VideoSize { VideoSize(width: width, height: height) }

    /// The pixels as a GStreamer buffer in its overlay format, made on first use.
    func buffer() -> Buffer {
        uploaded.withLock { cached in
            if let cached { return cached }
            let buffer = OverlayPixels.makeBuffer(rgba: pixels, width: width, height: height)
            cached = buffer
            return buffer
        }
    }
}
