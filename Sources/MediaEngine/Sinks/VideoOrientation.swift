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

    /// videoflip's `video-direction` nick.
    var videoDirection: String {
        switch self {
        case .automatic: "auto"
        case .identity: "identity"
        case .rotate90: "90r"
        case .rotate180: "180"
        case .rotate270: "90l"
        case .flipHorizontal: "horiz"
        case .flipVertical: "vert"
        }
    }
}
