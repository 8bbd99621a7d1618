/// Seeking: user seeks that coalesce while one is in flight, the seek that applies the playback
/// range and repeat mode after preparation, gapless loops, and the playback range itself.
extension PlayerCore {
    /// Seeks and returns when the frame at the new position is ready (or, if later seeks
    /// replaced this one, when the last of them is).
    func seek(to position: Duration, exact: Bool) async throws(MediaError) {
        guard position >= .zero else {
            throw MediaError(.invalidArgument, "cannot seek to a negative time (\(position))")
        }
        if state.withLock({ $0.phase == .preparing }) { try await prepare() }
        guard let session = state.withLock({ $0.phase == .prepared ? $0.session : nil }) else {
            throw MediaError(.notPrepared, "seeking needs a prepared player; call prepareToPlay() first")
        }
        let plan = state.withLock { state in
            state.plan(to: state.clamp(position), accuracy: exact ? .exact : .keyFrame)
        }
        try await seek(plan: plan, purpose: .user, session: session)
    }

    /// Starts a seek (or queues it behind the one in flight) and waits until every seek has landed.
    func seek(plan: SeekPlan, purpose: PlayerState.InFlightSeek.Purpose, session: PipelineSession)
        async throws(MediaError)
    {
        try await wait { state in
            // Not into a pipeline that is loading another movie (its segments are not set up yet).
            guard state.session === session, state.phase == .prepared else { return .stopped }
            if let request = state.startSeek(plan, purpose: purpose) {
                executor.enqueue { [self] in send(request, through: session) }
            }
            return .wait(.seeksSettled)
        }
    }

    /// The `currentPlaybackTime` setter: an exact seek that does not wait; invalid times are
    /// ignored. Safe from any thread, a streaming thread's frame callback included: the seek is
    /// only handed to the player's thread.
    func requestSeek(to position: Duration) {
        guard position >= .zero else { return }
        update { state, _ in
            guard state.phase == .prepared, let session = state.session,
                let request = state.startSeek(state.plan(to: state.clamp(position), accuracy: .exact), purpose: .user)
            else { return }
            executor.enqueue { [self] in send(request, through: session) }
        }
    }

    /// Sends a seek, on the player's thread; if the pipeline refuses it, its waiters fail.
    func send(_ request: SeekRequest, through session: PipelineSession) {
        guard !session.send(request) else { return }
        let reverse = (request.plan?.rate ?? 1) < 0
        let error =
            reverse
            ? MediaError(.unsupportedOperation, "this movie's demuxer cannot play backwards")
            : MediaError(.pipelineFailure, "the pipeline refused the seek")
        let preparation = update { state, _ -> Bool in
            guard let flight = state.inFlightSeek, flight.seqnum == request.seqnum else { return false }
            let purpose = flight.purpose
            (state.segmentRate, state.looping) = flight.previousSegment
            state.inFlightSeek = nil
            state.queuedSeek = nil
            state.resolveSeekWaiters(.failure(error))
            return purpose == .preparation
        }
        if preparation { fail(session: session.id, with: error) }
    }

    /// A seek landed (its first frame reached the video output, or the pipeline prerolled
    /// without one): announce it, then send the queued seek or complete the waiters.
    func landSeek(seqnum: UInt32?, at position: Duration?, session: PipelineSession) {
        let step = update { state, events -> (next: SeekRequest?, preparation: Bool) in
            guard state.session === session, let flight = state.inFlightSeek,
                seqnum == nil || flight.seqnum == seqnum
            else { return (nil, false) }
            state.inFlightSeek = nil
            let landed = position ?? flight.plan.position
            state.lastPosition = landed
            if flight.purpose == .preparation { return (nil, true) }
            if flight.purpose == .user { events.append(.seekCompleted(landed)) }
            if let queued = state.queuedSeek {
                state.queuedSeek = nil
                return (state.startSeek(queued.plan, purpose: queued.purpose), false)
            }
            state.resolveSeekWaiters()
            return (nil, false)
        }
        if let next = step.next { send(next, through: session) }
        if step.preparation { completePreparation(session) }
        timeObservers.playbackChanged(self)
    }

    /// Whether the movie needs a seek after its first preroll: a playback range, repeat mode or
    /// a rate other than 1 all live in the pipeline's segment, which only a seek sets.
    func preparationSeek() -> SeekRequest? {
        update { state, _ in
            guard state.needsPreparationSeek else { return nil }
            return state.startSeek(state.plan(to: state.startPosition, accuracy: .exact), purpose: .preparation)
        }
    }

    // MARK: Range and repeat

    /// Sets where playback starts and ends. Applied at once when prepared (the end by restarting
    /// the segment at the current position), and at the next start otherwise.
    func setPlaybackRange(initial: Duration?, end: Duration?) throws(MediaError) {
        if let initial, initial < .zero {
            throw MediaError(.invalidArgument, "the initial playback time cannot be negative (\(initial))")
        }
        if let end, end <= .zero {
            throw MediaError(.invalidArgument, "the end playback time must be after the start (\(end))")
        }
        if let initial, let end, end <= initial {
            throw MediaError(
                .invalidArgument, "the end playback time (\(end)) must come after the initial one (\(initial))")
        }
        let session = update { state, _ -> PipelineSession? in
            state.initialPlaybackTime = initial
            state.endPlaybackTime = end
            return state.phase == .prepared ? state.session : nil
        }
        if let session { restartSegment(session) }
    }

    /// Sets the repeat mode. While prepared, the segment restarts at the current position in the
    /// new mode: looping segments end with SEGMENT_DONE (and loop without a gap), others with EOS.
    func setRepeatMode(_ mode: RepeatMode) {
        let session = update { state, _ -> PipelineSession? in
            state.repeatMode = mode
            guard (mode == .one) != state.looping, state.phase == .prepared else { return nil }
            return state.session
        }
        if let session { restartSegment(session) }
    }

    /// Re-seeks to the current position so the segment takes the current range and repeat mode.
    /// Decided at once (a later command sees the seek under way); sent by the player's thread.
    private func restartSegment(_ session: PipelineSession) {
        guard let position = session.position else { return }
        update { state, _ in
            guard state.session === session, state.scan == nil else { return }
            let target = max(state.initialPlaybackTime ?? .zero, min(position, state.endPlaybackTime ?? position))
            guard let request = state.startSeek(state.plan(to: target, accuracy: .exact), purpose: .user) else {
                return
            }
            executor.enqueue { [self] in send(request, through: session) }
        }
    }

    /// The end of a looping segment: start the next pass without flushing, so it follows the
    /// last frame without a gap. If the repeat mode was turned off in the meantime, go to the end
    /// in a normal segment instead, which ends with EOS.
    func segmentDone(_ session: PipelineSession) {
        let next = update { state, events -> SeekRequest? in
            guard state.session === session, state.scan == nil else { return nil }
            guard state.repeatMode == .one else {
                let end =
                    state.rate >= 0
                    ? (state.endPlaybackTime ?? state.duration ?? .zero) : state.initialPlaybackTime ?? .zero
                var plan = state.plan(to: end, accuracy: .keyFrame)
                plan.looping = false
                return state.startSeek(plan, purpose: .loop)
            }
            var plan = state.plan(to: state.startPosition, accuracy: .exact)
            plan.flush = false
            state.loops += 1
            events.append(.didLoop(state.loops))
            return SeekRequest(plan)
        }
        if let next { send(next, through: session) }
    }
}

extension PlayerState {
    /// Whether the movie needs a seek after its first preroll: a playback range, repeat mode or
    /// a rate other than 1 all live in the pipeline's segment, which only a seek sets.
    var needsPreparationSeek: Bool {
        initialPlaybackTime != nil || endPlaybackTime != nil || repeatMode == .one || rate != 1
    }

    /// Starts a seek: returns the request to send, or nil when it was queued behind a seek in
    /// flight. One seek is in the pipeline at a time (an ASYNC_DONE carries no sequence number,
    /// so two at once could not be told apart): user seeks coalesce, the newest replacing any
    /// queued one; a rate seek (a rate change, a scan) behind a queued user seek gives it its
    /// rate and keeps its position.
    mutating func startSeek(_ plan: SeekPlan, purpose: InFlightSeek.Purpose) -> SeekRequest? {
        if inFlightSeek != nil && (purpose == .user || purpose == .rate) {
            if purpose == .rate, var queued = queuedSeek {
                queued.plan.rate = plan.rate
                queued.plan.accuracy = plan.accuracy
                queuedSeek = queued
            } else {
                queuedSeek = QueuedSeek(plan: plan, purpose: purpose)
            }
            return nil
        }
        guard let request = SeekRequest(plan) else { return nil }
        inFlightSeek = InFlightSeek(
            seqnum: request.seqnum, plan: plan, purpose: purpose, previousSegment: (segmentRate, looping))
        segmentRate = plan.rate
        looping = plan.looping
        atEnd = false
        return request
    }

    /// A position kept inside the movie and the playback range.
    func clamp(_ position: Duration) -> Duration {
        var clamped = position
        if let end = endPlaybackTime ?? duration { clamped = min(clamped, end) }
        return max(clamped, .zero)
    }
}
