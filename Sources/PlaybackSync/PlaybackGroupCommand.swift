import MediaEngineCore

/// A command for every member of a playback group: what the group does from one time of its
/// clock on. Small and self-contained (each command states the whole timeline, not a change to
/// the previous one), so that every member applying the same commands in the same order is in
/// the same place.
public struct PlaybackGroupCommand: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What the command does.
    public enum Action: String, Sendable, Hashable, Codable {
        /// Play from the timeline's position at its time.
        case play
        /// Pause on the frame at the timeline's position, at its time.
        case pause
        /// Go to the timeline's position at its time, playing on if the group played.
        case seek
        /// Play on at the timeline's rate from its time.
        case rate
        /// Stop at the timeline's time (its position and rate say nothing).
        case stop
    }

    /// What the command does (the timeline says where and when).
    public var action: Action
    /// The group's timeline from the command's time on.
    public var timeline: PlaybackTimeline
    /// How members reach the timeline's position: `.exact` lands all of them on the frame at the
    /// position; `.nearestKeyFrame` on the keyframe before it (the same keyframe everywhere:
    /// same movie, same demuxer), faster.
    public var seekOption: SeekOption

    /// Creates a command.
    /// - Parameters:
    ///   - action: What it does.
    ///   - timeline: The group's timeline from the command's time on.
    ///   - seekOption: How members reach the timeline's position.
    public init(_ action: Action, timeline: PlaybackTimeline, seekOption: SeekOption = .exact) {
        self.action = action
        self.timeline = timeline
        self.seekOption = seekOption
    }

    /// `pause: paused at 1.500 s from 12.000 s`, for logs.
    public var description: String { "\(action.rawValue): \(timeline)" }

    private enum CodingKeys: String, CodingKey {
        case action, position, time, rate, seek
    }

    /// Decodes the command's fields (see ``PlaybackGroupMessage`` for the format).
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a missing or ill-typed field, an unknown action or seek option.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        action = try container.decode(Action.self, forKey: .action)
        timeline = PlaybackTimeline(
            position: .nanoseconds(try container.decode(Int64.self, forKey: .position)),
            time: .nanoseconds(try container.decode(Int64.self, forKey: .time)),
            rate: try container.decode(Double.self, forKey: .rate))
        guard timeline.rate.isFinite, timeline.position >= .zero else {
            throw DecodingError.dataCorruptedError(
                forKey: .rate, in: container, debugDescription: "a rate that is not finite, or a negative position")
        }
        switch try container.decode(String.self, forKey: .seek) {
        case "exact": seekOption = .exact
        case "keyframe": seekOption = .nearestKeyFrame
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .seek, in: container, debugDescription: "no seek option '\(other)'")
        }
    }

    /// Encodes the command's fields (see ``PlaybackGroupMessage`` for the format).
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(action, forKey: .action)
        try container.encode(timeline.position.wholeNanoseconds, forKey: .position)
        try container.encode(timeline.time.wholeNanoseconds, forKey: .time)
        try container.encode(timeline.rate, forKey: .rate)
        try container.encode(seekOption == .exact ? "exact" : "keyframe", forKey: .seek)
    }
}

/// What a member tells the group about itself.
public enum PlaybackGroupReport: Sendable, Hashable, CustomStringConvertible {
    /// It cannot keep up: its video dropped `framesDropped` frames within `within`.
    case tooSlow(framesDropped: Int, within: Duration)
    /// The group's time source stopped answering it; it plays on its own clock meanwhile.
    case timeSourceLost
    /// The time source answers it again.
    case timeSourceRestored

    /// `tooSlow(12 frames in 2.0 s)`, for logs.
    public var description: String {
        switch self {
        case .tooSlow(let dropped, let within): "tooSlow(\(dropped) frames in \(within.inSeconds) s)"
        case .timeSourceLost: "timeSourceLost"
        case .timeSourceRestored: "timeSourceRestored"
        }
    }
}

/// Where a group is: its latest command and that command's number, and the pipeline latency
/// every member uses. The leader sends it to a member that joins, and every few seconds to all.
public struct PlaybackGroupState: Sendable, Hashable {
    /// The number of the latest command (0: none yet).
    public var sequence: Int
    /// The pipeline latency of every member.
    public var latency: Duration
    /// The latest command, if any (none: the group has not started; its members wait paused).
    public var command: PlaybackGroupCommand?

    /// Creates a state.
    /// - Parameters:
    ///   - sequence: The latest command's number.
    ///   - latency: The members' pipeline latency.
    ///   - command: The latest command.
    public init(sequence: Int, latency: Duration, command: PlaybackGroupCommand?) {
        self.sequence = sequence
        self.latency = latency
        self.command = command
    }
}
