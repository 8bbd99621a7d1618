import Dispatch

/// Scanning through the movie, as MPMediaPlayback's `beginSeekingForward()` does: keyframes
/// only, at a rate that rises while the scan goes on, then back to where the app was.
extension PlayerCore {
    /// The rates a scan goes through, a step every ``scanStep``.
    static let scanRates: [Double] = [2, 4, 8]
    static let scanStep = DispatchTimeInterval.milliseconds(1500)

    func beginScanning(forward: Bool) throws(MediaError) {
        let position = state.withLock { $0.session }?.position
        let step = update { state, events -> Result<Void, MediaError> in
            guard state.phase == .prepared, let session = state.session else {
                return .failure(
                    MediaError(.notPrepared, "scanning needs a prepared player; call prepareToPlay() first"))
            }
            if let scan = state.scan, scan.forward == forward { return .success(()) }
            let previousState = state.scan?.previousState ?? state.playbackState
            let previousRate = state.scan?.previousRate ?? state.rate
            state.scan?.timer.cancel()
            let executor = executor
            let timer = ScanTimer(every: Self.scanStep) { [weak self] in
                guard let core = self else { return }
                executor.enqueue { core.raiseScanRate() }
            }
            state.scan = PlayerState.Scan(
                forward: forward, previousState: previousState == .stopped ? .paused : previousState,
                previousRate: previousRate, timer: timer)
            state.target = .playing
            state.atEnd = false
            state.supersedeStateWaiters()
            state.setPlaybackState(forward ? .seekingForward : .seekingBackward, &events)
            // The first level's seek, then play: enqueued in this decision, in this order.
            state.startScan(atLevel: 0, from: position, session: session, executor: executor, core: self)
            executor.enqueue { session.play() }
            return .success(())
        }
        try step.get()
    }

    /// Starts the keyframes-only seek for a scan level from the current position (on the player's thread).
    private func scan(_ session: PipelineSession, atLevel level: Int) {
        let position = session.position
        update { state, _ in
            guard state.session === session else { return }
            state.startScan(atLevel: level, from: position, session: session, executor: executor, core: self)
        }
    }

    private func raiseScanRate() {
        let step = state.withLock { state -> (PipelineSession, Int)? in
            guard let session = state.session, var scan = state.scan, scan.level + 1 < Self.scanRates.count else {
                return nil
            }
            scan.level += 1
            state.scan = scan
            return (session, scan.level)
        }
        if let (session, level) = step { scan(session, atLevel: level) }
    }

    /// Ends a scan: back to the rate and state from before it, playing on from where the scan got
    /// to. Decided at once, from any thread; the player's thread does the pipeline's part (and
    /// update() re-arms the time observers, the playback state having changed).
    func endScanning() {
        let position = state.withLock { $0.session }?.position
        update { state, events in
            guard let scan = state.scan, let session = state.session else { return }
            scan.timer.cancel()
            state.scan = nil
            state.rate = scan.previousRate
            let resume = scan.previousState == .playing || scan.previousState == .interrupted
            state.target = resume ? .playing : .paused
            let here = state.clamp(position ?? state.lastPosition)
            let request = state.startSeek(state.plan(to: here, accuracy: .exact), purpose: .rate)
            state.setPlaybackState(resume ? .playing : .paused, &events)
            executor.enqueue { [self] in
                // Back to a pause: pause first, so the seek's first frame is the one shown and
                // held. (Seeking first, the still-playing pipeline could show a frame or two past
                // it before the pause took effect; seen on a busy machine.)
                if !resume { session.pause() }
                if let request { send(request, through: session) }
                if resume { session.play() }
            }
        }
    }
}

extension PlayerState {
    /// Starts the keyframes-only seek of a scan level from `position` and has the player's thread
    /// send it.
    mutating func startScan(
        atLevel level: Int, from position: Duration?, session: PipelineSession, executor: PlayerExecutor,
        core: PlayerCore
    ) {
        guard let scan else { return }
        let rate = PlayerCore.scanRates[level] * (scan.forward ? 1 : -1)
        let here = position ?? lastPosition
        guard let request = startSeek(plan(to: clamp(here), accuracy: .keyFramesOnly, rate: rate), purpose: .rate)
        else { return }
        executor.enqueue { core.send(request, through: session) }
    }
}
