extension PlayerMachine {
    /// A player that plays in a group (the PlaybackSync product's `PlaybackGroup`): its pipelines
    /// run on the group's clock, with their base time and latency fixed by the machine, and it
    /// follows the group's ``PlaybackTimeline`` instead of the app's own play, pause and seek.
    ///
    /// How a timeline is followed (``State/reconcileWithGroup(now:)``):
    /// - **paused at P from T**: a playing member plays on until T (a timer armed from the clock
    ///   read just before), then pauses and seeks exactly to P, so every member shows the frame at
    ///   P whatever the few milliseconds its timer was late; a member not playing does it at once.
    /// - **playing from P at T**: the pipeline pauses, seeks to P (at the timeline's rate), and
    ///   when that seek has landed its base time is set to T minus the group's latency and it
    ///   plays: its sink holds the first frame (running time 0) until T on the group clock. A
    ///   member that cannot be on time (T already passed: a late join, a seek slower than the lead
    ///   time) plans its own start a little later, `joinLead` ahead of the clock, at the position
    ///   the timeline has then; when even that seek lands more than ``lateStartTolerance`` late it
    ///   plans again with twice the lead, up to ``maximumStartAttempts`` times, then plays late
    ///   (its sink drops the late frames until it is on time).
    struct Membership {
        /// The pipeline latency every member of the group uses.
        var latency: Duration
        /// How far ahead of the clock a member plans a start it could not make on time.
        var joinLead: Duration
        /// The group's timeline, as last commanded.
        var timeline: PlaybackTimeline?
        /// How the timeline's position is reached by a seek (a keyframe seek lands on the same
        /// keyframe everywhere: same movie, same demuxer).
        var accuracy: SeekPlan.Accuracy = .exact
        /// The timeline the pipeline is set up for, or being set up for: the same timeline again
        /// needs nothing.
        var applied: PlaybackTimeline?
        /// A start planned and not played yet: where its seek goes and when that position shows.
        var plannedStart: PlannedStart?
        /// When the group stops (a stop command), until it has.
        var stopAt: Duration?
        /// Numbers the group's one-shot timers, so that a timer armed for an older command is
        /// told apart (and its firing ignored).
        var generation = 0
        /// Whether the group's time source answers.
        var timeSourceReachable = true
        /// Frames dropped, as the health checks count them.
        var health = Health()
    }

    /// A start the member planned: the seek to `position`, shown at group time `time`.
    struct PlannedStart: Equatable {
        var position: Duration
        var time: Duration
        var accuracy: SeekPlan.Accuracy
        /// 0 for the timeline's own start, then each later plan of the member's.
        var attempt: Int
        /// The seek has landed: the start waits for a reading of the clock.
        var landed = false
    }

    /// The frames a member dropped, checked every ``healthInterval``.
    struct Health: Equatable {
        /// The total dropped at the last check; nil before the first.
        var lastTotal: Int?
        /// Checks in a row that dropped at least ``slowFrameThreshold`` frames, and what they dropped.
        var slowChecks = 0
        var slowFrames = 0
        /// Checks in a row without a drop since the member was reported too slow.
        var cleanChecks = 0
        /// Reported too slow, and not recovered yet.
        var reported = false
    }

    /// How late a member's planned start may land and still play (its first frames late, the
    /// sink dropping them until it is on time) rather than plan again.
    static let lateStartTolerance: Duration = .milliseconds(250)
    /// How many times a member plans its own start again before it plays late.
    static let maximumStartAttempts = 3
    /// How often a member's dropped frames are counted.
    static let healthInterval: Duration = .seconds(1)
    /// Dropped frames per check that count as not keeping up.
    static let slowFrameThreshold = 3
    /// Checks in a row, each over the threshold, that make a member too slow.
    static let slowChecksToReport = 2
    /// Checks in a row without a drop after which a slow member counts as keeping up again.
    static let cleanChecksToRecover = 5
}

/// Playing in a group: the group's clock and base time on the pipeline, the group's timeline
/// followed at the group's times, the time source's reachability, and a member too slow for the
/// group reported instead of drifting silently.
extension PlayerMachine.State {
    /// Whether the player follows a group (the app's play, pause, seek and rate are refused).
    var isGrouped: Bool { group != nil }

    /// The refusal of a command a grouped player takes from its group only.
    static func refusedInGroup(_ command: String) -> MediaError {
        MediaError(
            .unsupportedOperation,
            "this player follows its playback group: \(command) the group (PlaybackGroup), not the player")
    }

    // MARK: Joining and leaving

    /// The player joins a group: its pipelines use the group's clock (which the owner holds) with
    /// `latency`; the one it has now too.
    mutating func joinGroup(latency: Duration, joinLead: Duration) {
        group = PlayerMachine.Membership(latency: latency, joinLead: joinLead)
        if hasSession { perform(.useGroupClock(session: sessionID, latency: latency)) }
        perform(
            .startTimer(
                .groupHealth, after: PlayerMachine.healthInterval, repeating: PlayerMachine.healthInterval))
        requestGroupClock()
    }

    /// The player leaves its group: it keeps what it shows, on its own from now on.
    mutating func leaveGroup() {
        guard let group else { return }
        self.group = nil
        perform(.cancelTimer(.groupHealth))
        perform(.cancelTimer(.groupPause(generation: group.generation)))
        perform(.cancelTimer(.groupStop(generation: group.generation)))
        if hasSession { perform(.leaveGroupClock(session: sessionID)) }
    }

    // MARK: The group's commands

    /// The group's timeline changed (a command, or the group's state for a member that joins):
    /// the clock is read, and the member follows from there (``reconcileWithGroup(now:)``).
    mutating func followGroup(_ timeline: PlaybackTimeline, accuracy: SeekPlan.Accuracy) {
        guard var group else { return }
        group.timeline = timeline
        group.accuracy = accuracy
        group.stopAt = nil
        self.group = group
        requestGroupClock()
    }

    /// The group stops at group time `time`.
    mutating func stopWithGroup(at time: Duration) {
        guard group != nil else { return }
        group?.timeline = nil
        group?.stopAt = time
        requestGroupClock()
    }

    /// The group's time source stopped answering, or answers again. While it is away the
    /// group's clock runs on by itself (GStreamer's network client clock keeps its last
    /// calibration), so the member plays on; when it answers again the clock recalibrates and
    /// the sinks follow it (a member that got ahead waits, one that fell behind drops frames).
    mutating func timeSourceReachabilityChanged(_ reachable: Bool) {
        guard var group, group.timeSourceReachable != reachable else { return }
        group.timeSourceReachable = reachable
        self.group = group
        publish(reachable ? .groupTimeSourceRestored : .groupTimeSourceLost)
    }

    /// Asks the owner for the group clock's time (``PlayerMachine/Action/readGroupClock``).
    mutating func requestGroupClock() {
        guard group != nil else { return }
        perform(.readGroupClock)
    }

    /// The owner read the group's clock: what the group asks is decided from there.
    mutating func groupClockRead(now: Duration?) {
        guard let now else { return }
        reconcileWithGroup(now: now)
    }

    /// Brings the pipeline to the group's timeline, as ``PlayerMachine/Membership`` describes.
    mutating func reconcileWithGroup(now: Duration) {
        guard var group else { return }
        if let stopAt = group.stopAt {
            if stopAt > now, phase != .idle {
                group.generation += 1
                self.group = group
                perform(.startTimer(.groupStop(generation: group.generation), after: stopAt - now))
            } else {
                self.group?.stopAt = nil
                stop()
            }
            return
        }
        guard let timeline = group.timeline else { return }
        switch phase {
        case .idle:
            // A member that has stopped (or never started) loads the movie paused, and follows
            // once it is prepared.
            beginPreparation(target: .paused)
            return
        case .preparing:
            return  // Prepared, it reads the clock again.
        case .prepared:
            guard hasSession, preroll == nil else { return }
        }
        if timeline.isPaused {
            pauseWithGroup(timeline, now: now)
        } else {
            playWithGroup(timeline, now: now)
        }
    }

    /// The group pauses on the frame at the timeline's position, from its time.
    private mutating func pauseWithGroup(_ timeline: PlaybackTimeline, now: Duration) {
        guard var group, group.applied != timeline else { return }
        group.applied = timeline
        group.plannedStart = nil
        perform(.cancelTimer(.groupPause(generation: group.generation)))
        group.generation += 1
        self.group = group
        if target == .playing, timeline.time > now {
            // Playing on until the pause: the timer fires at the group's time.
            perform(.startTimer(.groupPause(generation: group.generation), after: timeline.time - now))
            return
        }
        pauseOnGroupFrame(timeline.position)
    }

    /// Pauses, and shows exactly the frame at `position` (every member then shows the same one).
    private mutating func pauseOnGroupFrame(_ position: Duration) {
        supersedeStateWaiters()
        target = .paused
        // Prepared and never started (or at the end): the pipeline holds a frame, paused, and
        // says so now; a playing one says so when it has paused.
        if playbackState == .stopped { setPlaybackState(.paused) }
        perform(.pause(session: sessionID))
        startSeek(plan(to: groupClamp(position), accuracy: .exact), purpose: .group)
    }

    /// The group plays from the timeline's position at its time (or the member catches up).
    private mutating func playWithGroup(_ timeline: PlaybackTimeline, now: Duration) {
        guard var group else { return }
        if group.applied == timeline {
            // Set up for it already: playing, or a start on its way (its seek in flight, or
            // landed and waiting for this reading of the clock).
            guard var start = group.plannedStart, start.landed else { return }
            let late = now - start.time
            if late <= PlayerMachine.lateStartTolerance || start.attempt >= PlayerMachine.maximumStartAttempts {
                group.plannedStart = nil
                self.group = group
                supersedeStateWaiters()
                target = .playing
                perform(.setBaseTime(session: sessionID, start.time - group.latency))
                perform(.play(session: sessionID))
                return
            }
            start.attempt += 1
            planGroupStart(timeline, now: now, attempt: start.attempt)
            return
        }
        group.applied = timeline
        perform(.cancelTimer(.groupPause(generation: group.generation)))
        group.generation += 1
        self.group = group
        planGroupStart(timeline, now: now, attempt: 0)
    }

    /// Plans the start of `timeline`: its own position and time when the seek can be done
    /// before then, otherwise the member's own, `joinLead` (doubled with each attempt) ahead of
    /// the clock, at the position the timeline has then. The pipeline pauses and seeks there.
    private mutating func planGroupStart(_ timeline: PlaybackTimeline, now: Duration, attempt: Int) {
        guard var group else { return }
        var start: PlayerMachine.PlannedStart
        if attempt == 0, timeline.time > now {
            start = PlayerMachine.PlannedStart(
                position: timeline.position, time: timeline.time, accuracy: group.accuracy, attempt: 0)
        } else {
            let lead = group.joinLead * (1 << min(attempt, 4))
            let time = now + lead
            start = PlayerMachine.PlannedStart(
                position: timeline.position(at: time), time: time, accuracy: .exact, attempt: max(attempt, 1))
        }
        start.position = groupClamp(start.position)
        group.plannedStart = start
        self.group = group
        if target == .playing { perform(.pause(session: sessionID)) }
        target = .paused
        setRateAsked(timeline.rate)
        startSeek(plan(to: start.position, accuracy: start.accuracy, rate: timeline.rate), purpose: .group)
    }

    /// A group seek landed at `landing` (after the queued ones): a planned start reads the
    /// clock, to play on time or plan again. A keyframe seek has found its keyframe: the
    /// timeline's position is that keyframe's (every member lands on the same one), so a member
    /// that joins later computes its position from where the group really is.
    mutating func groupSeekLanded(at landing: Duration) {
        guard var group, var start = group.plannedStart, !start.landed else { return }
        if start.accuracy == .keyFrame, start.attempt == 0, var timeline = group.timeline,
            group.applied == timeline, timeline.position != landing
        {
            timeline.position = landing
            group.timeline = timeline
            group.applied = timeline
            start.position = landing
        }
        start.landed = true
        group.plannedStart = start
        self.group = group
        requestGroupClock()
    }

    /// A position kept inside the movie, and, in repeat mode, brought into the range the movie
    /// loops over (a member that joins a looping group several passes in starts in the pass the
    /// group is in: its running time then matches the others' from the next loop on).
    private func groupClamp(_ position: Duration) -> Duration {
        if repeatMode == .one, let end = playbackEnd ?? duration {
            let start = initialPlaybackTime ?? .zero
            let length = end - start
            if length > .zero, position >= end {
                let into = (position - start).wholeNanoseconds % length.wholeNanoseconds
                return start + .nanoseconds(into)
            }
        }
        return clamp(position)
    }

    // MARK: Timers

    /// The group's pause time came: the member pauses on the timeline's frame.
    mutating func groupPauseTimeCame(generation: Int) {
        guard let group, group.generation == generation, let timeline = group.applied, timeline.isPaused,
            phase == .prepared, hasSession
        else { return }
        pauseOnGroupFrame(timeline.position)
    }

    /// The group's stop time came.
    mutating func groupStopTimeCame(generation: Int) {
        guard let group, group.generation == generation, group.stopAt != nil else { return }
        self.group?.stopAt = nil
        stop()
    }

    /// A health check: `dropped` is the total of frames the pipeline's video elements have
    /// dropped so far (their QoS reports). Dropping frames check after check while playing is a
    /// member too slow for the group (its decoding or its sink cannot keep up): reported once,
    /// until it keeps up again, rather than letting it fall behind without a word.
    mutating func groupHealthChecked(framesDropped dropped: Int?) {
        guard var group else { return }
        defer { self.group = group }
        guard let dropped else { return }
        let last = group.health.lastTotal
        group.health.lastTotal = dropped
        guard let last, playbackState == .playing else { return }
        let delta = dropped >= last ? dropped - last : dropped
        if delta >= PlayerMachine.slowFrameThreshold {
            group.health.slowChecks += 1
            group.health.slowFrames += delta
            group.health.cleanChecks = 0
            if group.health.slowChecks >= PlayerMachine.slowChecksToReport, !group.health.reported {
                group.health.reported = true
                publish(
                    .groupMemberTooSlow(
                        framesDropped: group.health.slowFrames,
                        within: PlayerMachine.healthInterval * group.health.slowChecks))
            }
        } else {
            group.health.slowChecks = 0
            group.health.slowFrames = 0
            if delta == 0 { group.health.cleanChecks += 1 }
            if group.health.cleanChecks >= PlayerMachine.cleanChecksToRecover { group.health.reported = false }
        }
    }

    /// A new movie or pipeline: nothing of the group's timeline is set up in it yet.
    mutating func forgetGroupSetup() {
        group?.applied = nil
        group?.plannedStart = nil
        group?.health.lastTotal = nil
    }
}
