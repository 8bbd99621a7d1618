import MediaEngineCore

/// A frame's pixels as the terminal draws them: one 24-bit colour (`0xRRGGBB`) per pixel, row
/// after row, two pixel rows per line of cells. Alpha is dropped: a terminal cell is opaque.
struct CellPixels: Sendable, Equatable {
    /// Width in pixels (one per cell).
    let width: Int
    /// Height in pixels (two per cell).
    let height: Int
    /// `width * height` colours, row after row.
    let colors: [UInt32]

    /// The pixels of an image the engine delivered (RGBA; another format is converted first).
    /// - Parameter image: The frame's copy.
    init(_ image: VideoImage) {
        let rgba = image.format == .rgba ? image : image.convertedToRGBA()
        let stride = rgba.strides[0]
        let bytes = rgba.planes[0]
        var colors = [UInt32](repeating: 0, count: rgba.width * rgba.height)
        for y in 0..<rgba.height {
            let row = y * stride
            for x in 0..<rgba.width {
                let offset = row + x * 4
                colors[y * rgba.width + x] =
                    UInt32(bytes[offset]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2])
            }
        }
        self.init(width: rgba.width, height: rgba.height, colors: colors)
    }

    /// Pixels given as colours.
    /// - Parameters:
    ///   - width: Width in pixels.
    ///   - height: Height in pixels.
    ///   - colors: `width * height` colours, `0xRRGGBB`, row after row.
    init(width: Int, height: Int, colors: [UInt32]) {
        precondition(colors.count == width * height, "\(colors.count) colours for \(width)x\(height) pixels")
        self.width = width
        self.height = height
        self.colors = colors
    }

    /// The colour at (`x`, `y`).
    subscript(x: Int, y: Int) -> UInt32 { colors[y * width + x] }

    /// These pixels scaled to fit inside `width` x `height` with their shape kept, averaging the
    /// pixels each new one covers (or repeating pixels when growing). The height is even, so the
    /// result fills whole cells. Returns `self` when it already has that size.
    ///
    /// The engine delivers frames at the size the sink asked for when the player built its output;
    /// this is for a terminal resized since, until the next output is built.
    /// - Parameters:
    ///   - width: The widest allowed, in pixels.
    ///   - height: The tallest allowed, in pixels (at least 2).
    /// - Returns: The scaled pixels.
    func fitted(width maxWidth: Int, height maxHeight: Int) -> CellPixels {
        if width == maxWidth && height == maxHeight { return self }
        guard width > 0, height > 0, maxWidth > 0, maxHeight >= 2 else {
            return CellPixels(width: 0, height: 0, colors: [])
        }
        let scale = min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height))
        let newWidth = min(maxWidth, max(1, Int((Double(width) * scale).rounded())))
        let newHeight = min(maxHeight - maxHeight % 2, max(2, Int((Double(height) * scale / 2).rounded()) * 2))
        var colors = [UInt32](repeating: 0, count: newWidth * newHeight)
        for newY in 0..<newHeight {
            let top = newY * height / newHeight
            let bottom = max(top + 1, (newY + 1) * height / newHeight)
            for newX in 0..<newWidth {
                let left = newX * width / newWidth
                let right = max(left + 1, (newX + 1) * width / newWidth)
                var red = 0
                var green = 0
                var blue = 0
                for y in top..<bottom {
                    for x in left..<right {
                        let color = self[x, y]
                        red += Int(color >> 16)
                        green += Int(color >> 8 & 0xFF)
                        blue += Int(color & 0xFF)
                    }
                }
                let count = (bottom - top) * (right - left)
                colors[newY * newWidth + newX] =
                    UInt32((red + count / 2) / count) << 16 | UInt32((green + count / 2) / count) << 8
                    | UInt32((blue + count / 2) / count)
            }
        }
        return CellPixels(width: newWidth, height: newHeight, colors: colors)
    }
}
