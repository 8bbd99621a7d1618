/// Where a group's movie is on the group's clock: the frame at ``position`` is on screen at
/// group-clock time ``time``, and the movie moves on from there at ``rate`` (0: it stays paused
/// on that frame). Every member of a playback group that follows the same timeline shows the
/// same frame at the same group time.
///
/// A timeline is a value that travels between the members of a group (the PlaybackSync
/// product's commands carry one); times are the group clock's readings (GStreamer clock time, in
/// nanoseconds since the clock's own epoch), the same on every member.
public struct PlaybackTimeline: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The movie's position shown at ``time``.
    public var position: Duration
    /// The group clock's time at which ``position`` is on screen.
    public var time: Duration
    /// How fast the movie moves from ``position`` (1: normal speed; negative: backwards); 0: paused.
    public var rate: Double

    /// Creates a timeline.
    /// - Parameters:
    ///   - position: The movie's position shown at `time`.
    ///   - time: The group clock's time at which `position` is on screen.
    ///   - rate: How fast the movie moves from there; 0 for paused.
    public init(position: Duration, time: Duration, rate: Double) {
        self.position = position
        self.time = time
        self.rate = rate
    }

    /// Whether the movie stays on the frame at ``position``.
    public var isPaused: Bool { rate == 0 }

    /// The position on screen at group time `groupTime` (before ``time`` too): ``position`` moved
    /// by the time between at ``rate``, never before the movie's start.
    /// - Parameter groupTime: A reading of the group clock.
    /// - Returns: The movie's position then.
    public func position(at groupTime: Duration) -> Duration {
        guard rate != 0 else { return position }
        let moved = position + (groupTime - time) * rate
        return max(moved, .zero)
    }

    /// `paused at 1.5s from 12.000s` or `1.0x from 1.5s at 12.000s`, for logs.
    public var description: String {
        let at = "\(time.formattedSeconds)"
        return rate == 0
            ? "paused at \(position.formattedSeconds) from \(at)"
            : "\(rate)x from \(position.formattedSeconds) at \(at)"
    }

    private enum CodingKeys: String, CodingKey {
        case position, time, rate
    }

    /// Decodes the timeline's three fields: `position` and `time` in whole nanoseconds, `rate`.
    /// - Parameter decoder: The decoder.
    /// - Throws: What the decoder throws for a missing or ill-typed field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        position = .nanoseconds(try container.decode(Int64.self, forKey: .position))
        time = .nanoseconds(try container.decode(Int64.self, forKey: .time))
        rate = try container.decode(Double.self, forKey: .rate)
        guard rate.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .rate, in: container, debugDescription: "rate is not finite")
        }
    }

    /// Encodes `position` and `time` in whole nanoseconds, and `rate`.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(position.wholeNanoseconds, forKey: .position)
        try container.encode(time.wholeNanoseconds, forKey: .time)
        try container.encode(rate, forKey: .rate)
    }
}

extension Duration {
    /// The duration in whole nanoseconds (clamped to `Int64`'s range).
    package var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, overflowSum) = product.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowSum ? (seconds < 0 ? .min : .max) : sum
    }
}
