/// A rectangle in an output's pixels: the player's "view frame".
public struct ViewRect: Sendable, Hashable, CustomStringConvertible {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width, at least 1.
    public var width: Int
    /// Height, at least 1.
    public var height: Int

    /// Creates a rectangle.
    /// - Parameters:
    ///   - x: Left edge.
    ///   - y: Top edge.
    ///   - width: Width.
    ///   - height: Height.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle's size.
    public var size: VideoSize { VideoSize(width: width, height: height) }

    /// `WxH+X+Y`, as X11 geometry is written.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
