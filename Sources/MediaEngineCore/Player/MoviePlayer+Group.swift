/// The player's side of a playback group (PlaybackSync's `PlaybackGroup`, the one caller): the
/// group's clock, its timeline and its time source's reachability go in as the machine's inputs
/// (``PlayerMachine/Membership``). Not public: an app plays a player in a group through the
/// group, which keeps the clock alive and talks to the other members.
extension MoviePlayer {
    /// The player joins a group: its pipelines (the current one included) run on `clock` with
    /// `latency`, and from now on it follows the group's timeline; the app's own play, pause,
    /// seek and rate are refused with ``MediaError/Code/unsupportedOperation``.
    /// - Parameters:
    ///   - clock: The group's clock.
    ///   - latency: The pipeline latency every member of the group uses.
    ///   - joinLead: How far ahead of the clock the player plans a start it cannot make on time.
    package func joinGroup(clock: PlaybackClock, latency: Duration, joinLead: Duration) {
        core.applyOwned { owned in
            owned.groupClock = clock
            owned.machine.joinGroup(latency: latency, joinLead: joinLead)
        }
    }

    /// The player leaves its group and keeps what it shows; the app commands it again.
    package func leaveGroup() {
        core.applyOwned { owned in
            owned.machine.leaveGroup()
            owned.groupClock = nil
        }
    }

    /// Whether the player follows a group.
    package var isGrouped: Bool { core.read { $0.isGrouped } }

    /// The group's timeline changed: the player follows it, reaching a new position with a seek
    /// of `option`.
    /// - Parameters:
    ///   - timeline: Where the group's movie is, from which group time.
    ///   - option: How the timeline's position is reached.
    package func followGroup(_ timeline: PlaybackTimeline, option: SeekOption) {
        core.apply { $0.followGroup(timeline, accuracy: option == .exact ? .exact : .keyFrame) }
    }

    /// The group stops at group time `time`: the player stops then.
    /// - Parameter time: A time of the group's clock.
    package func stopWithGroup(at time: Duration) {
        core.apply { $0.stopWithGroup(at: time) }
    }

    /// The group's time source stopped answering (false) or answers again (true).
    /// - Parameter reachable: Whether the source answers.
    package func groupTimeSourceChanged(reachable: Bool) {
        core.apply { $0.timeSourceReachabilityChanged(reachable) }
    }

    /// The group's timeline as this player follows it: a keyframe seek's timeline has the
    /// position of the keyframe the player landed on.
    package var groupTimeline: PlaybackTimeline? { core.read { $0.group?.timeline } }

    /// The base time of the player's pipeline (a time of its clock), if it has a pipeline.
    package var pipelineBaseTime: Duration? {
        core.state.withLock { $0.session }?.baseTime
    }
}
