import MediaEngine

/// Reads which frame of ``TestMedia/numbered`` a picture is, from its pixels: the clip's SMPTE
/// bars scroll left by ``step`` pixels a frame, so the place where the last (blue) bar meets the
/// first (white) one moves from the right edge leftwards, and says the frame's number.
public enum FrameNumber {
    /// Pixels the bars move per frame.
    public static let step = 4

    /// The frame number, or nil when the picture is not a frame of the clip.
    /// - Parameters:
    ///   - width: The frame's width (320 for the clip).
    ///   - color: Reads a pixel.
    public static func read(width: Int, color: (_ x: Int, _ y: Int) -> RGBAColor) -> Int? {
        let row = 20
        func isBlue(_ c: RGBAColor) -> Bool { c.blue > 180 && c.red < 90 && c.green < 90 }
        func isWhite(_ c: RGBAColor) -> Bool { c.red > 180 && c.green > 180 && c.blue > 180 }
        var previous = color(0, row)
        for x in 1..<width {
            let current = color(x, row)
            if isBlue(previous) && isWhite(current) {
                return Int((Double(width - x) / Double(step)).rounded())
            }
            previous = current
        }
        // Frame 0: white at the left edge, blue at the right, and no seam between.
        return isWhite(color(0, row)) && isBlue(color(width - 1, row)) ? 0 : nil
    }

    /// The frame number of a frame, read from its pixels.
    public static func read(_ frame: borrowing VideoFrame) -> Int? {
        read(width: frame.width) { frame.color(atX: $0, y: $1) }
    }

    /// The frame number of an image.
    public static func read(_ image: VideoImage) -> Int? {
        read(width: image.width) { image.color(atX: $0, y: $1) }
    }
}
