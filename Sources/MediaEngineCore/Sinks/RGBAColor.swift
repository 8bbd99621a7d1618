/// An 8-bit RGBA colour, as read from a frame.
public struct RGBAColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0-255.
    public var red: UInt8
    /// Green, 0-255.
    public var green: UInt8
    /// Blue, 0-255.
    public var blue: UInt8
    /// Alpha, 0-255 (255 is opaque).
    public var alpha: UInt8

    /// Creates a colour.
    /// - Parameters:
    ///   - red: Red, 0-255.
    ///   - green: Green, 0-255.
    ///   - blue: Blue, 0-255.
    ///   - alpha: Alpha, 0-255.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Converts limited-range BT.601 YUV (what SD and test content uses) to RGB.
    init(y: UInt8, u: UInt8, v: UInt8) {
        let c = Double(y) - 16
        let d = Double(u) - 128
        let e = Double(v) - 128
        func clamp(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
        self.init(
            red: clamp(1.164 * c + 1.596 * e),
            green: clamp(1.164 * c - 0.392 * d - 0.813 * e),
            blue: clamp(1.164 * c + 2.017 * d))
    }

    /// Whether every channel is within `tolerance` of `other`'s (alpha included).
    /// - Parameters:
    ///   - other: The colour to compare with.
    ///   - tolerance: The largest difference allowed per channel.
    /// - Returns: True when the colours are that close.
    public func isClose(to other: RGBAColor, tolerance: Int = 16) -> Bool {
        abs(Int(red) - Int(other.red)) <= tolerance && abs(Int(green) - Int(other.green)) <= tolerance
            && abs(Int(blue) - Int(other.blue)) <= tolerance && abs(Int(alpha) - Int(other.alpha)) <= tolerance
    }

    /// `rgba(R, G, B, A)`.
    public var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" }

    /// Opaque white.
    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Opaque red.
    public static let red = RGBAColor(red: 255, green: 0, blue: 0)
    /// Opaque green.
    public static let green = RGBAColor(red: 0, green: 255, blue: 0)
    /// Opaque blue.
    public static let blue = RGBAColor(red: 0, green: 0, blue: 255)
}
