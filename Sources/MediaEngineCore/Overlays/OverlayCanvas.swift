/// RGBA pixels to draw into (straight alpha): what a ``DrawingOverlay``'s closure gets, cleared
/// to transparent, and a way to compose a picture for an ``ImageOverlay``.
public struct OverlayCanvas: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes, rows top to bottom.
    public var pixels: [UInt8]

    /// A transparent canvas.
    /// - Parameters:
    ///   - width: Width in pixels, at least 1.
    ///   - height: Height in pixels, at least 1.
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
    }

    /// The pixels as an ``OverlayBitmap``.
    public func makeBitmap() -> OverlayBitmap {
        // The sizes match by construction.
        try! OverlayBitmap(width: width, height: height, rgba: pixels)
    }

    /// The canvas's size.
    public var size: VideoSize { VideoSize(width: width, height: height) }

    /// Paints every pixel.
    public mutating func clear(to color: RGBAColor = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)) {
        fill(ViewRect(x: 0, y: 0, width: width, height: height), with: color)
    }

    /// Paints a rectangle (clipped to the canvas), replacing what was there.
    public mutating func fill(_ rect: ViewRect, with color: RGBAColor) {
        let left = max(0, rect.x)
        let right = min(width, rect.x + rect.width)
        let top = max(0, rect.y)
        let bottom = min(height, rect.y + rect.height)
        guard left < right, top < bottom else { return }
        // One 32-bit word per pixel, a row at a time: the canvas is redrawn for every frame by
        // every-frame drawings, so this loop is on the video thread's budget.
        let word = UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16 | UInt32(color.alpha) << 24
        let pattern = UInt32(littleEndian: word)
        let width = self.width
        pixels.withUnsafeMutableBytes { bytes in
            bytes.withMemoryRebound(to: UInt32.self) { words in
                for row in top..<bottom {
                    let start = row * width
                    UnsafeMutableBufferPointer(rebasing: words[(start + left)..<(start + right)]).update(
                        repeating: pattern)
                }
            }
        }
    }

    /// Paints the outline of a rectangle, `thickness` pixels wide, inside it.
    public mutating func stroke(_ rect: ViewRect, with color: RGBAColor, thickness: Int = 1) {
        let t = max(1, thickness)
        fill(ViewRect(x: rect.x, y: rect.y, width: rect.width, height: t), with: color)
        fill(ViewRect(x: rect.x, y: rect.y + rect.height - t, width: rect.width, height: t), with: color)
        fill(ViewRect(x: rect.x, y: rect.y, width: t, height: rect.height), with: color)
        fill(ViewRect(x: rect.x + rect.width - t, y: rect.y, width: t, height: rect.height), with: color)
    }

    /// The pixel at (`x`, `y`); nil outside the canvas.
    public subscript(x: Int, y: Int) -> RGBAColor? {
        get {
            guard x >= 0, x < width, y >= 0, y < height else { return nil }
            let index = (y * width + x) * 4
            return RGBAColor(
                red: pixels[index], green: pixels[index + 1], blue: pixels[index + 2], alpha: pixels[index + 3])
        }
        set {
            guard let newValue, x >= 0, x < width, y >= 0, y < height else { return }
            let index = (y * width + x) * 4
            pixels[index] = newValue.red
            pixels[index + 1] = newValue.green
            pixels[index + 2] = newValue.blue
            pixels[index + 3] = newValue.alpha
        }
    }

    /// Draws another bitmap (text from ``TextOverlay``'s renderer, a decoded picture) at
    /// (`x`, `y`), blending it over what is there.
    public mutating func draw(_ bitmap: OverlayBitmap, atX x: Int, y: Int) {
        let source = bitmap.pixels
        for row in 0..<bitmap.height where y + row >= 0 && y + row < height {
            for column in 0..<bitmap.width where x + column >= 0 && x + column < width {
                let from = (row * bitmap.width + column) * 4
                let to = ((y + row) * width + x + column) * 4
                let alpha = Int(source[from + 3])
                guard alpha > 0 else { continue }
                let below = Int(pixels[to + 3])
                let outAlpha = alpha + below * (255 - alpha) / 255
                for channel in 0..<3 {
                    let top = Int(source[from + channel]) * alpha
                    let under = Int(pixels[to + channel]) * below * (255 - alpha) / 255
                    pixels[to + channel] = UInt8(outAlpha > 0 ? min(255, (top + under) / outAlpha) : 0)
                }
                pixels[to + 3] = UInt8(outAlpha)
            }
        }
    }
}
