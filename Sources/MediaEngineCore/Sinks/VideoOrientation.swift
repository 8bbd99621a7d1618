/// How the picture is turned before it is shown.
public enum VideoOrientation: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// As the movie's orientation tag says (a portrait phone video plays upright).
    case automatic
    /// As stored, ignoring any orientation tag.
    case identity
    /// Turned a quarter clockwise.
    case rotate90
    /// Turned upside down.
    case rotate180
    /// Turned a quarter counter-clockwise.
    case rotate270
    /// Mirrored left to right.
    case flipHorizontal
    /// Mirrored top to bottom.
    case flipVertical

    /// The orientation's name.
    public var description: String { rawValue }

    /// videoflip's `video-direction` (GstVideoOrientationMethod) for a fixed orientation.
    var videoDirection: Int32 {
        switch self {
        case .automatic: 8
        case .identity: 0
        case .rotate90: 1
        case .rotate180: 2
        case .rotate270: 3
        case .flipHorizontal: 4
        case .flipVertical: 5
        }
    }
}
