/// The largest inputs the engine allocates for. A header can claim any size in a few bytes (a
/// PNG's IHDR, a JPEG's SOF, a video track's frame size); inputs over these limits are refused
/// with ``MediaError/Code/tooLarge`` before anything of that size is allocated.
public enum MediaLimits {
    /// The widest or tallest picture or video frame decoded, in pixels (16384, as the natural
    /// size's clamp).
    public static let maximumFrameSide = 16384
    /// The most pixels in one picture or video frame (2^26: 8K UHD fits four times; 256 MB as RGBA).
    public static let maximumFramePixels = 1 << 26

    /// The debug detail of the error the frame-size check posts (`framelimit.c`).
    static let frameTooLargeDetail = "me-frame-too-large"

    /// Whether a picture or frame of `width` x `height` is within the limits.
    /// - Parameters:
    ///   - width: Pixels across.
    ///   - height: Pixels down.
    /// - Returns: True when both sides and the area are within the limits.
    public static func allows(width: Int, height: Int) -> Bool {
        guard width > 0, height > 0, width <= maximumFrameSide, height <= maximumFrameSide else { return false }
        return width * height <= maximumFramePixels
    }
}
