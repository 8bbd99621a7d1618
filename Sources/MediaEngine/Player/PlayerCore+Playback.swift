/// Commands that start, pause and change the speed of playback.
extension PlayerCore {
    func play() async throws(MediaError) {
        // Only a movie that had already ended starts again; one that reaches its end while this
        // call prepares it (autoplay, a very short movie) has played, and that is that.
        let endedBefore = update { state, _ -> Bool in
            if state.phase == .preparing { state.target = .playing }
            return state.phase == .prepared && state.atEnd
        }
        try await prepare()
        let step = update { state, _ -> PipelineSession? in
            guard let session = state.session, state.phase == .prepared, state.scan == nil else { return nil }
            if state.atEnd && !endedBefore { return nil }
            state.target = .playing
            state.supersedeStateWaiters()
            if state.playbackState == .playing { return nil }
            if state.atEnd {
                state.atEnd = false
                state.lastPosition = state.startPosition
                if let restart = state.startSeek(state.plan(to: state.startPosition, accuracy: .exact), purpose: .user)
                {
                    executor.enqueue { [self] in send(restart, through: session) }
                }
            }
            return session
        }
        guard let session = step else { return }
        try await wait { state in
            guard state.session === session else { return .stopped }
            // A pause decided since this call's decision above has superseded it.
            guard state.target == .playing else { return .success }
            return state.playbackState == .playing ? .success : .wait(.playbackState(.playing))
        } then: { [self] in
            session.play()
            // Already playing (no state change, so no message): say so now.
            if session.settledState == .playing { pipelineReached(.playing, session: session) }
        }
    }

    func pause() async throws(MediaError) {
        if state.withLock({ $0.phase == .preparing }) {
            update { state, _ in state.target = .paused }
            try await prepare()
        }
        if state.withLock({ $0.scan != nil }) { endScanning() }
        let session = update { state, events -> PipelineSession? in
            guard let session = state.session, state.phase == .prepared else { return nil }
            state.target = .paused
            state.supersedeStateWaiters()
            if state.playbackState == .stopped && !state.atEnd {
                // Prepared and not started: the pipeline holds the first frame, paused, unless
                // autoplay's play is on its way; pausing it again costs nothing.
                state.setPlaybackState(.paused, &events)
                executor.enqueue { session.pause() }
                return nil
            }
            guard state.playbackState == .playing || state.playbackState == .interrupted else { return nil }
            return session
        }
        guard let session else { return }
        try await wait { state in
            guard state.session === session else { return .success }
            // A play decided since this call's decision above has superseded it.
            guard state.target == .paused else { return .success }
            return state.playbackState == .paused ? .success : .wait(.playbackState(.paused))
        } then: { [self] in
            session.pause()
            // Already paused (no state change, so no message): say so now.
            if session.settledState == .paused { pipelineReached(.paused, session: session) }
        }
    }

    /// Validates a rate: any finite value from 0.25 to 8 times normal speed, forward or backward.
    static func validate(rate: Double) throws(MediaError) {
        if rate == 0 {
            throw MediaError(.invalidArgument, "a playback rate of 0 is not a rate; call pause() to pause")
        }
        guard rate.isFinite, (0.25...8).contains(abs(rate)) else {
            throw MediaError(
                .invalidArgument, "a playback rate must be between 0.25 and 8 (or -8 and -0.25), not \(rate)")
        }
    }

    /// Changes the playback rate. Stored for later when nothing is prepared; applied at once
    /// otherwise: with an instant rate change (no flush, no visible jump) when the direction stays
    /// the same, with a flushing seek at the current position when it reverses.
    func setRate(_ rate: Double) async throws(MediaError) {
        try Self.validate(rate: rate)
        let step = update { state, events -> (PipelineSession, Double)? in
            let previous = state.rate
            if state.rate != rate {
                state.rate = rate
                events.append(.playbackRateChanged(rate))
            }
            guard let session = state.session, state.phase == .prepared, state.scan == nil else { return nil }
            return (session, previous)
        }
        guard let (session, previous) = step else { return }
        // Keeping the direction: an instant rate change; otherwise the position to restart from.
        let instantOrPosition = await executor.perform { [self] () -> Duration?? in
            // A movie replaced or stopped since the decision has nothing to change the rate of
            // (and its sinks may have no segment yet: GStreamer asserts on an instant rate then).
            // An instant rate change only between seeks: while a flushing seek is under way the
            // sinks have no segment to apply it to (GStreamer asserts), so a seek carries the rate.
            let (current, instant) = state.withLock {
                (
                    $0.session === session && $0.phase == .prepared,
                    ($0.segmentRate >= 0) == (rate >= 0) && $0.inFlightSeek == nil
                )
            }
            guard current else { return nil }
            if instant, let request = SeekRequest(instantRate: rate), session.send(request) {
                update { state, _ in state.segmentRate = rate }
                timeObservers.playbackChanged(self)
                return nil
            }
            // Mid-seek the pipeline knows no position: the seek under way says where it goes.
            return .some(session.position ?? state.withLock { $0.inFlightSeek?.plan.position ?? $0.lastPosition })
        }
        guard case .some(let knownPosition) = instantOrPosition else { return }
        guard let position = knownPosition else {
            throw MediaError(.pipelineFailure, "the pipeline does not know its position")
        }
        do {
            try await seek(
                plan: state.withLock { $0.plan(to: position, accuracy: .exact, rate: rate) }, purpose: .rate,
                session: session)
        } catch {
            update { state, events in
                state.rate = previous
                events.append(.playbackRateChanged(previous))
            }
            throw error
        }
    }

    /// The `currentPlaybackRate` setter: applies valid rates without waiting, ignores the rest.
    func requestRate(_ rate: Double) {
        if rate == 0 {
            Task { try? await self.pause() }
        } else if (try? Self.validate(rate: rate)) != nil {
            Task { try? await self.setRate(rate) }
        }
    }

    /// Starts playing the pipeline unless it waits for buffering; called on the player's thread
    /// when preparation ends with `target == .playing` (shouldAutoplay, or play() during preparation).
    func startIfWanted(_ session: PipelineSession) {
        let start = state.withLock { state in
            state.session === session && state.target == .playing && state.scan == nil
                && state.playbackState != .interrupted
        }
        if start { session.play() }
    }
}
