/// How a fullscreen transition moves the window; UIViewAnimationCurve's equivalent, with its
/// numbers as raw values (what a will-enter or will-exit fullscreen notification carries under
/// ``MoviePlayer/fullscreenAnimationCurveUserInfoKey``).
public enum FullscreenAnimationCurve: Int, Sendable, Hashable, CustomStringConvertible {
    /// Slow at the start and the end; 0, as UIViewAnimationCurveEaseInOut.
    case easeInOut = 0
    /// Slow at the start; 1, as UIViewAnimationCurveEaseIn.
    case easeIn = 1
    /// Slow at the end; 2, as UIViewAnimationCurveEaseOut.
    case easeOut = 2
    /// At an even pace; 3, as UIViewAnimationCurveLinear. The player's own window moves so
    /// (``MoviePlayer/setFullscreen(_:animated:)``).
    case linear = 3

    /// The curve's name.
    public var description: String {
        switch self {
        case .easeInOut: "easeInOut"
        case .easeIn: "easeIn"
        case .easeOut: "easeOut"
        case .linear: "linear"
        }
    }
}
