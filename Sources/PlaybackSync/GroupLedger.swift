import MediaEngineCore

/// The group's bookkeeping, as a value: which command is the latest and its number, and the
/// commands an app's intent makes from there. The leader numbers commands (its order is the
/// group's); members apply what is newer than what they applied. No I/O, no clock: the group
/// clock's time comes in as an argument. Unit-tested in `GroupLedgerTests`.
struct GroupLedger: Sendable {
    /// What an app asks the group for.
    enum Intent: Sendable, Equatable {
        case play
        case pause
        case seek(Duration, SeekOption)
        case rate(Double)
        case stop
    }

    /// Whether this member numbers the group's commands (the leader).
    let isLeader: Bool
    /// The latest command's number (0: none yet).
    private(set) var sequence = 0
    /// The latest command.
    private(set) var current: PlaybackGroupCommand?
    /// The pipeline latency of every member (the leader's; a follower takes it from the state).
    private(set) var latency: Duration
    /// Whether the member has heard from the leader (a follower, its first state or command).
    private(set) var synchronized: Bool
    /// The rate the group plays at when it plays (the last one asked for, 1 at first).
    private(set) var playRate = 1.0

    init(isLeader: Bool, latency: Duration) {
        self.isLeader = isLeader
        self.latency = latency
        synchronized = isLeader
    }

    /// The group's timeline now: the latest command's, or (none yet) paused at the start.
    func timeline(now: Duration) -> PlaybackTimeline {
        guard let current, current.action != .stop else { return PlaybackTimeline(position: .zero, time: now, rate: 0) }
        return current.timeline
    }

    /// The command `intent` makes, to apply at group time `at` (the clock's time plus the lead);
    /// nil when it changes nothing (play while playing at that rate, pause while paused).
    /// - Throws: `MediaError.Code.invalidArgument` for a negative position or
    ///   a rate outside 0.25...8 (either way).
    func command(for intent: Intent, at time: Duration) throws(MediaError) -> PlaybackGroupCommand? {
        let now = timeline(now: time)
        let position = now.position(at: time)
        switch intent {
        case .play:
            guard now.isPaused else { return nil }
            return PlaybackGroupCommand(
                .play, timeline: PlaybackTimeline(position: position, time: time, rate: playRate))
        case .pause:
            guard !now.isPaused else { return nil }
            return PlaybackGroupCommand(.pause, timeline: PlaybackTimeline(position: position, time: time, rate: 0))
        case .seek(let target, let option):
            guard target >= .zero else {
                throw MediaError(.invalidArgument, "cannot seek to a negative time (\(target))")
            }
            return PlaybackGroupCommand(
                .seek, timeline: PlaybackTimeline(position: target, time: time, rate: now.rate), seekOption: option)
        case .rate(let rate):
            guard rate.isFinite, (0.25...8).contains(abs(rate)) else {
                throw MediaError(
                    .invalidArgument, "a playback rate must be between 0.25 and 8 (or -8 and -0.25), not \(rate)")
            }
            // As AVPlayer's rate: a paused group plays at the rate asked for.
            return PlaybackGroupCommand(.rate, timeline: PlaybackTimeline(position: position, time: time, rate: rate))
        case .stop:
            return PlaybackGroupCommand(.stop, timeline: PlaybackTimeline(position: .zero, time: time, rate: 0))
        }
    }

    /// The leader issues `command`: it is the group's latest, with the next number.
    /// - Returns: The command's number.
    mutating func issue(_ command: PlaybackGroupCommand) -> Int {
        sequence += 1
        adopt(command)
        return sequence
    }

    /// A command of the leader's arrived: true when it is newer than the last applied (apply it).
    mutating func accept(_ command: PlaybackGroupCommand, sequence: Int) -> Bool {
        guard !isLeader, sequence > self.sequence else { return false }
        self.sequence = sequence
        synchronized = true
        adopt(command)
        return true
    }

    /// The leader's state arrived: the command to apply when it is newer than the last applied
    /// (or the first word from the leader); its latency is the group's.
    mutating func accept(_ state: PlaybackGroupState) -> (apply: PlaybackGroupCommand?, first: Bool) {
        guard !isLeader else { return (nil, false) }
        let first = !synchronized
        synchronized = true
        latency = state.latency
        guard state.sequence > sequence || first else { return (nil, first) }
        sequence = state.sequence
        if let command = state.command { adopt(command) }
        return (state.command, first)
    }

    /// The leader's state, for a member that joins (and for all, every few seconds).
    var state: PlaybackGroupState {
        PlaybackGroupState(sequence: sequence, latency: latency, command: current)
    }

    /// A keyframe seek's timeline as the leader's own player landed it (on the keyframe): the
    /// state carries it, so that members joining later start where the group really is.
    mutating func refine(_ timeline: PlaybackTimeline) {
        guard var current, current.action != .stop, current.timeline.time == timeline.time,
            current.timeline.rate == timeline.rate
        else { return }
        current.timeline = timeline
        self.current = current
    }

    /// The latest command; its rate, when it plays, is the one the group plays at from then on.
    private mutating func adopt(_ command: PlaybackGroupCommand) {
        current = command
        if command.timeline.rate != 0 { playRate = command.timeline.rate }
    }
}
