/// The app's commands: each is one input to the machine (after validation), and the async ones
/// wait for the outcome the machine names.
extension PlayerCore {
    func prepare() async throws(MediaError) {
        try await wait { $0.prepare() }
        // The first frame was drawn before the duration was known: the controls over it show
        // the movie's times once it is shown again. The preparation succeeded; a repaint that
        // fails (a stop or another movie meanwhile) only leaves the first drawing, and whatever
        // ended it is announced by its own command.
        if controls.style != .none { try? await repaintIfPaused() }
    }

    func play() async throws(MediaError) {
        try await wait { $0.play() }
    }

    func pause() async throws(MediaError) {
        let position = currentPosition
        try await wait { $0.pause(position: position) }
    }

    func stop() {
        apply { $0.stop() }
    }

    /// Waits for a preparation under way to end, for commands that act on a prepared movie.
    private func preparedIfPreparing() async throws(MediaError) {
        if read({ $0.phase == .preparing }) { try await prepare() }
    }

    /// Seeks and returns when the frame at the new position is ready (or, if later seeks
    /// replaced this one, when the last of them is).
    func seek(to position: Duration, exact: Bool) async throws(MediaError) {
        guard position >= .zero else {
            throw MediaError(.invalidArgument, "cannot seek to a negative time (\(position))")
        }
        try await preparedIfPreparing()
        try await wait { $0.seek(to: position, exact: exact) }
    }

    /// The `currentPlaybackTime` setter: an exact seek that does not wait; invalid times are
    /// ignored. Safe from any thread, a streaming thread's frame callback included: the seek is
    /// only decided, and handed to the player's thread.
    func requestSeek(to position: Duration) {
        apply { $0.requestSeek(to: position) }
    }

    /// Changes the playback rate (see ``PlayerMachine/setRate(_:position:)``).
    func setRate(_ rate: Double) async throws(MediaError) {
        try PlayerMachine.validate(rate: rate)
        let position = currentPosition
        try await wait { $0.setRate(rate, position: position) }
    }

    /// The `currentPlaybackRate` setter: 0 pauses, valid rates apply; nothing waits, the rest is
    /// ignored.
    func requestRate(_ rate: Double) {
        let position = currentPosition
        if rate == 0 {
            apply { _ = $0.pause(position: position) }
        } else if (try? PlayerMachine.validate(rate: rate)) != nil {
            apply { _ = $0.setRate(rate, position: position) }
        }
    }

    /// Sets where playback starts and ends. Applied at once when prepared (the end by restarting
    /// the segment at the current position), and at the next start otherwise.
    func setPlaybackRange(initial: Duration?, end: Duration?) throws(MediaError) {
        try PlayerMachine.validateRange(initial: initial, end: end)
        let position = currentPosition
        apply { $0.setPlaybackRange(initial: initial, end: end, position: position) }
    }

    func setRepeatMode(_ mode: RepeatMode) {
        let position = currentPosition
        apply { $0.setRepeatMode(mode, position: position) }
    }

    func beginScanning(forward: Bool) throws(MediaError) {
        let position = currentPosition
        try apply { $0.beginScan(forward: forward, position: position) }.get()
    }

    func endScanning() {
        let position = currentPosition
        apply { $0.endScan(position: position) }
    }

    /// Ends the current movie and loads `source` in its place (MPMoviePlayerController's
    /// `contentURL` setter), reusing the pipeline when the sink has not changed.
    func replaceSource(with source: any MediaSource) {
        apply { $0.replaceSource(with: source) }
    }

    /// Changes the presentation and applies it to the pipeline now playing, if any.
    func updatePresentation(_ change: (inout VideoPresentation) -> Void) {
        apply { $0.updatePresentation(change) }
    }
}
