/// The `event` of a linear creative's `<Tracking>`: when the player calls its URIs.
///
/// VAST 4 adds events this engine never fires (`loaded`, `otherAdInteraction`, ...): they are
/// kept as ``other(_:)`` so a document that has them still reads.
public enum VASTEvent: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    /// The creative was shown (fired with the impression).
    case creativeView
    /// The ad's first frame played (fired with the impression).
    case start
    /// A quarter of the ad played.
    case firstQuartile
    /// Half of the ad played.
    case midpoint
    /// Three quarters of the ad played.
    case thirdQuartile
    /// The ad played to its end.
    case complete
    /// The user muted the ad.
    case mute
    /// The user unmuted it.
    case unmute
    /// The user paused it.
    case pause
    /// The user resumed it.
    case resume
    /// The user went back in it.
    case rewind
    /// The user skipped it.
    case skip
    /// The user closed the player (VAST 2's name).
    case close
    /// The user closed the ad (VAST 3 and later).
    case closeLinear
    /// Playback reached the tracking element's `offset`.
    case progress
    /// Any other event name, as written.
    case other(String)

    private static let known: [VASTEvent] = [
        .creativeView, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete, .mute, .unmute, .pause,
        .resume, .rewind, .skip, .close, .closeLinear, .progress,
    ]

    /// The event of an `event` attribute (always succeeds: unknown names are ``other(_:)``).
    /// - Parameter rawValue: The attribute's value; surrounding whitespace is not part of it.
    public init(rawValue: String) {
        self = Self.known.first { $0.rawValue == rawValue } ?? .other(rawValue)
    }

    /// The name VAST writes in the `event` attribute.
    public var rawValue: String {
        switch self {
        case .creativeView: "creativeView"
        case .start: "start"
        case .firstQuartile: "firstQuartile"
        case .midpoint: "midpoint"
        case .thirdQuartile: "thirdQuartile"
        case .complete: "complete"
        case .mute: "mute"
        case .unmute: "unmute"
        case .pause: "pause"
        case .resume: "resume"
        case .rewind: "rewind"
        case .skip: "skip"
        case .close: "close"
        case .closeLinear: "closeLinear"
        case .progress: "progress"
        case .other(let name): name
        }
    }

    /// The name as VAST writes it.
    public var description: String { rawValue }
}
