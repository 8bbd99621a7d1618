/// The machine's clock: timers it arms (``PlayerMachine/Action/startTimer(_:after:repeating:)``),
/// run by the player's own thread, come back here with what the owner read from the pipeline when
/// they fired; and the time observers, whose firings are decided here from the position.
extension PlayerMachine.State {
    /// Whether a firing of `timer` still matters, so the owner reads the pipeline for it (a
    /// position, or the facts a seek's deadline needs, or a stalled demuxer's name).
    func needsFacts(for timer: Timer) -> Bool {
        switch timer {
        case .seekDeadline(let session, let seqnum):
            seekDeadlineMatters(session: session, seqnum: seqnum)
        case .stalledDemuxer(let session, let epoch, _):
            isCurrent(session) && epoch == self.epoch && phase == .preparing
        case .scanStep:
            scan != nil
        case .timedMetadata(let session), .prerollTick(let session):
            isCurrent(session)
        case .timeObserver(let id):
            observers.armed(id) != nil && hasSession && playbackState == .playing
        case .groupHealth:
            isGrouped && hasSession
        case .preparation, .reconnect, .connectionDeadline, .prerollTimeout, .fragmentGates, .groupPause, .groupStop:
            false
        }
    }

    /// A timer fired; `facts` holds what the owner read when ``needsFacts(for:)`` said so.
    mutating func timerFired(_ timer: Timer, facts: TimerFacts) {
        switch timer {
        case .preparation(let session, let epoch):
            preparationTimedOut(session: session, epoch: epoch)
        case .reconnect(let session, let epoch):
            reconnectWaitOver(session: session, epoch: epoch)
        case .connectionDeadline(let session, let epoch):
            connectionDeadlinePassed(session: session, epoch: epoch)
        case .seekDeadline(let session, let seqnum):
            seekDeadlinePassed(
                session: session, seqnum: seqnum,
                facts: PipelineFacts(position: facts.position, duration: facts.duration, mediaTypes: facts.mediaTypes))
        case .scanStep:
            scanTimerFired(position: facts.position)
        case .timedMetadata(let session):
            guard accepts(session) else { return }
            timedMetadataArmed = false
            deliverTimedMetadata(position: facts.position)
        case .prerollTick(let session):
            prerollTick(session: session, position: facts.position)
        case .prerollTimeout(let session, let epoch, let item):
            prerollTimedOut(session: session, epoch: epoch, item: item)
        case .fragmentGates(let session, let epoch):
            guard isCurrent(session), epoch == self.epoch else { return }
            perform(.openFragmentGates(session: session))
        case .stalledDemuxer(let session, let epoch, _):
            stalledDemuxerLooked(session: session, epoch: epoch, demuxer: facts.stalledDemuxer)
        case .timeObserver(let id):
            timeObserverFired(id, position: facts.position)
        case .groupPause(let generation):
            groupPauseTimeCame(generation: generation)
        case .groupStop(let generation):
            groupStopTimeCame(generation: generation)
        case .groupHealth:
            groupHealthChecked(framesDropped: facts.framesDropped)
        }
    }

    // MARK: Time observers

    /// Registers an observer; its timer is armed at the next look at the position.
    mutating func addTimeObserver(_ kind: TimeObserverTable.Kind) -> TimeObserver {
        let id = observers.add(kind)
        requestPositionLook()
        return TimeObserver(id: id)
    }

    /// Removes an observer and its timer.
    mutating func removeTimeObserver(_ observer: TimeObserver) {
        if observers.remove(observer.id) { perform(.cancelTimer(.timeObserver(id: observer.id))) }
    }

    /// The owner read the position (``PlayerMachine/Action/readPosition(session:)``): timed metadata
    /// due by then is handed out, and every time observer is armed again from there (while the
    /// movie plays).
    mutating func positionRead(session: Int, position: Duration?) {
        guard isCurrent(session) else { return }
        if accepts(session) { deliverTimedMetadata(position: position) }
        guard playbackState == .playing, let position else {
            disarmTimeObservers()
            return
        }
        for id in observers.ids {
            armTimeObserver(id, from: position)
        }
    }

    /// Cancels every armed observer timer.
    mutating func disarmTimeObservers() {
        for id in observers.disarmAll() {
            perform(.cancelTimer(.timeObserver(id: id)))
        }
    }

    /// Arms observer `id` for its next firing from `position`: a periodic one every interval of
    /// movie time (in wall time at the segment's rate); a boundary one for the next boundary in
    /// the direction playback goes, beyond `fired` (the boundary it has just fired for, which a
    /// position read a little short of it must not pick again), or for `owed` (a boundary its
    /// timer came early for: the wall clock and the pipeline's drift apart, and a busy machine
    /// delays the position). In repeat one, with nothing ahead in this pass, it is the first
    /// boundary of the next pass, counted through the loop: the position read just after a loop
    /// is still the ending pass's (the loop does not flush what the sinks have yet to play).
    private mutating func armTimeObserver(
        _ id: Int, from position: Duration, fired: Duration? = nil, owed: Duration? = nil
    ) {
        guard let kind = observers.kind(of: id) else { return }
        let rate = segmentRate
        switch kind {
        case .periodic(let interval):
            let wall = interval / abs(rate)
            observers.arm(id, .periodic)
            perform(.startTimer(.timeObserver(id: id), after: wall, repeating: wall))
        case .boundary(let times):
            let forward = rate > 0
            var from = position
            if let fired { from = forward ? max(position, fired) : min(position, fired) }
            let ahead = owed ?? (forward ? times.first { $0 > from } : times.last { $0 < from })
            if ahead == nil, forward, looping, let passEnd = playbackEnd ?? duration, passEnd > position {
                // The next pass: from its start, after what remains of this one.
                let passStart = initialPlaybackTime ?? .zero
                if let next = times.first(where: { $0 >= passStart && $0 < passEnd }) {
                    observers.arm(id, .boundary(next, forward: true, nextPassFrom: position))
                    let wall = (passEnd - position + (next - passStart)) / abs(rate)
                    perform(.startTimer(.timeObserver(id: id), after: max(wall, .milliseconds(1))))
                    return
                }
            }
            guard let boundary = ahead else {
                if observers.armed(id) != nil {
                    observers.disarm(id)
                    perform(.cancelTimer(.timeObserver(id: id)))
                }
                return
            }
            let remaining = forward ? boundary - position : position - boundary
            observers.arm(id, .boundary(boundary, forward: forward))
            perform(.startTimer(.timeObserver(id: id), after: max(remaining, .milliseconds(1)) / abs(rate)))
        }
    }

    /// An observer's timer fired at `position`: a periodic observer reports it; a boundary
    /// observer reports its boundary once the position has reached it, and waits for the rest
    /// otherwise.
    private mutating func timeObserverFired(_ id: Int, position: Duration?) {
        guard let armed = observers.armed(id), hasSession, playbackState == .playing, let position else { return }
        let observer = TimeObserver(id: id)
        switch armed {
        case .periodic:
            publish(.periodicTime(observer, position))
        case .boundary(_, _, let from?) where position >= from:
            // Early: the pass that holds the boundary has not begun (its positions start again).
            armTimeObserver(id, from: position)
        case .boundary(let boundary, let forward, _):
            if forward ? position < boundary : position > boundary {
                armTimeObserver(id, from: position, owed: boundary)
            } else {
                publish(.boundaryTimeReached(observer, boundary))
                armTimeObserver(id, from: position, fired: boundary)
            }
        }
    }
}
