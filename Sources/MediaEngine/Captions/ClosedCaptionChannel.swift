/// One of the four CEA-608 caption channels: CC1 and CC2 in the first field of each frame,
/// CC3 and CC4 in the second. CC1 holds a programme's main captions; the others often carry
/// a second language.
public enum ClosedCaptionChannel: Int, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// The first field's first data channel: a programme's main captions.
    case cc1 = 1
    /// The first field's second data channel.
    case cc2
    /// The second field's first data channel.
    case cc3
    /// The second field's second data channel.
    case cc4

    /// The channel of data `channel` (0 or 1) in `field` (1 or 2).
    init(field: Int, dataChannel: Int) {
        self = field == 1 ? (dataChannel == 0 ? .cc1 : .cc2) : (dataChannel == 0 ? .cc3 : .cc4)
    }

    /// `CC1` to `CC4`, as captions menus name them.
    public var description: String { "CC\(rawValue)" }

    /// CC1 first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
