import MediaEngine

/// How far apart in time the members of a playback group showed the same frames, from what
/// `engine-sync-member --frames` printed: for each frame every member rendered while playing
/// (not a preroll), the group clock's time its sink got it; a frame's spread is the latest of
/// those times minus the earliest.
public struct SyncFrames: Sendable {
    /// One frame every member rendered.
    public struct Frame: Sendable {
        /// Its movie time.
        public let position: Duration
        /// Each member's group clock time when its sink got it, in the members' order.
        public let times: [Duration]
        /// Each member's scheduled time (base time + running time): where GStreamer put it.
        public let scheduled: [Duration]

        /// The latest time minus the earliest.
        public var spread: Duration { (times.max() ?? .zero) - (times.min() ?? .zero) }
        /// The spread of the scheduled times (0 when every member set the same timeline).
        public var scheduledSpread: Duration { (scheduled.max() ?? .zero) - (scheduled.min() ?? .zero) }
    }

    /// The frames every member rendered, by movie time.
    public let frames: [Frame]

    /// Gathers the frames from each member's records (the last rendering of each movie time, so
    /// that a frame shown again after a seek back counts once, as shown last).
    /// - Parameters:
    ///   - members: Each member's records.
    ///   - from: Only frames rendered at or after this group time (nil: all).
    public init(_ members: [[SyncMemberRecord]], from: Duration? = nil) {
        let rendered = members.map { records -> [Int64: (clock: Int64, scheduled: Int64)] in
            var byFrame: [Int64: (clock: Int64, scheduled: Int64)] = [:]
            for record in records {
                guard let frame = record.frame, let clock = record.clock, let running = record.running,
                    let base = record.base, base >= 0, record.playing != false
                else { continue }
                if let from, clock < from.nanosecondsValue { continue }
                byFrame[frame] = (clock, base + running)
            }
            return byFrame
        }
        guard let first = rendered.first else {
            frames = []
            return
        }
        let common = first.keys.filter { key in rendered.allSatisfy { $0[key] != nil } }.sorted()
        frames = common.map { key in
            Frame(
                position: .nanoseconds(key), times: rendered.map { .nanoseconds($0[key]!.clock) },
                scheduled: rendered.map { .nanoseconds($0[key]!.scheduled) })
        }
    }

    /// The spreads, sorted.
    public var spreads: [Duration] { frames.map(\.spread).sorted() }

    /// The spread below which `fraction` of the frames' spreads lie (nearest rank); zero for none.
    public func percentile(_ fraction: Double) -> Duration {
        let sorted = spreads
        guard !sorted.isEmpty else { return .zero }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[max(0, min(sorted.count - 1, rank))]
    }
}

extension Duration {
    /// Whole nanoseconds.
    var nanosecondsValue: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
