/// One caption channel a video can carry: the four CEA-608 channels (CC1 and CC2 in the first
/// field of each frame, CC3 and CC4 in the second; CC1 holds a programme's main captions) and
/// the six standard CEA-708 (DTVCC) services (service 1 is the main language, service 2 often a
/// second one).
public enum ClosedCaptionChannel: Int, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// The CEA-608 first field's first data channel: a programme's main captions.
    case cc1 = 1
    /// The CEA-608 first field's second data channel.
    case cc2
    /// The CEA-608 second field's first data channel.
    case cc3
    /// The CEA-608 second field's second data channel.
    case cc4
    /// CEA-708 service 1: the primary caption service.
    case service1 = 101
    /// CEA-708 service 2: the secondary caption service.
    case service2
    /// CEA-708 service 3.
    case service3
    /// CEA-708 service 4.
    case service4
    /// CEA-708 service 5.
    case service5
    /// CEA-708 service 6.
    case service6

    /// The CEA-608 channel of data `channel` (0 or 1) in `field` (1 or 2).
    init(field: Int, dataChannel: Int) {
        self = field == 1 ? (dataChannel == 0 ? .cc1 : .cc2) : (dataChannel == 0 ? .cc3 : .cc4)
    }

    /// The CEA-708 standard service `number` (1 to 6); nil for the extended services (7 to 63).
    init?(service number: Int) {
        guard (1...6).contains(number), let channel = Self(rawValue: 100 + number) else { return nil }
        self = channel
    }

    /// Whether it is a CEA-708 service rather than a CEA-608 channel.
    public var isCEA708: Bool { rawValue > 100 }

    /// The standard: `CEA-608` or `CEA-708` (the codec of its ``MediaTrack``).
    public var standard: String { isCEA708 ? "CEA-708" : "CEA-608" }

    /// `CC1` to `CC4`, `Service 1` to `Service 6`, as captions menus name them.
    public var description: String { isCEA708 ? "Service \(rawValue - 100)" : "CC\(rawValue)" }

    /// CC1 first, the CEA-708 services after the CEA-608 channels.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
