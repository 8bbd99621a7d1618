/// A size in pixels.
public struct VideoSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size.
    /// - Parameters:
    ///   - width: Width in pixels.
    ///   - height: Height in pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The empty size, used before a movie's size is known.
    public static let zero = VideoSize(width: 0, height: 0)

    /// `WIDTHxHEIGHT`.
    public var description: String { "\(width)x\(height)" }
}
