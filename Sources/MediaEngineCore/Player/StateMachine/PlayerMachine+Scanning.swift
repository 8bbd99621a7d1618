extension PlayerMachine {
    /// The rates a scan goes through, a step every ``scanStep``.
    static let scanRates: [Double] = [2, 4, 8]
    static let scanStep = Duration.milliseconds(1500)

    /// An ongoing scan and what to return to.
    struct Scan {
        let forward: Bool
        let previousState: PlaybackState
        let previousRate: Double
        /// Index into ``PlayerMachine/scanRates``.
        var level = 0
    }
}

/// Scanning through the movie, as MPMediaPlayback's `beginSeekingForward()` does: keyframes
/// only, at a rate that rises while the scan goes on, then back to where the app was.
extension PlayerMachine.State {
    /// `beginSeekingForward()`/`beginSeekingBackward()` from `position` (the current one).
    mutating func beginScan(forward: Bool, position: Duration?) -> Result<Void, MediaError> {
        guard phase == .prepared, hasSession else {
            return .failure(MediaError(.notPrepared, "scanning needs a prepared player; call prepareToPlay() first"))
        }
        if let scan, scan.forward == forward { return .success(()) }
        let previousState = scan?.previousState ?? playbackState
        let previousRate = scan?.previousRate ?? rate
        scan = PlayerMachine.Scan(
            forward: forward, previousState: previousState == .stopped ? .paused : previousState,
            previousRate: previousRate)
        perform(.startTimer(.scanStep, after: PlayerMachine.scanStep, repeating: PlayerMachine.scanStep))
        target = .playing
        atEnd = false
        supersedeStateWaiters()
        setPlaybackState(forward ? .seekingForward : .seekingBackward)
        // The first level's seek, then play.
        startScanSeek(from: position)
        perform(.play(session: sessionID))
        return .success(())
    }

    /// The scan timer fired: the next rate, from `position` (the current one).
    mutating func scanTimerFired(position: Duration?) {
        guard hasSession, var scan, scan.level + 1 < PlayerMachine.scanRates.count else { return }
        scan.level += 1
        self.scan = scan
        startScanSeek(from: position)
    }

    /// `endSeeking()`: back to the rate and state from before the scan, playing on from where the
    /// scan got to (`position`).
    mutating func endScan(position: Duration?) {
        guard let scan, hasSession else { return }
        perform(.cancelTimer(.scanStep))
        self.scan = nil
        settings.rate = scan.previousRate
        let resume = scan.previousState == .playing || scan.previousState == .interrupted
        target = resume ? .playing : .paused
        setPlaybackState(resume ? .playing : .paused)
        // Back to a pause: pause first, so the seek's first frame is the one shown and held.
        // (Seeking first, the still-playing pipeline could show a frame or two past it before
        // the pause took effect; seen on a busy machine.)
        if !resume { perform(.pause(session: sessionID)) }
        startSeek(plan(to: clamp(position ?? lastPosition), accuracy: .exact), purpose: .rate)
        if resume { perform(.play(session: sessionID)) }
    }

    /// The keyframes-only seek of the scan's current level from `position`.
    private mutating func startScanSeek(from position: Duration?) {
        guard let scan else { return }
        let rate = PlayerMachine.scanRates[scan.level] * (scan.forward ? 1 : -1)
        startSeek(plan(to: clamp(position ?? lastPosition), accuracy: .keyFramesOnly, rate: rate), purpose: .rate)
    }
}
