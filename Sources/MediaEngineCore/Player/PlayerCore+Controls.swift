import Dispatch

/// The engine's on-screen controls (``PlayerControls``): what they show is read from the
/// machine's state (cheaply, from the video thread, once a frame), and what a click asks for is
/// the matching command, so that it posts the events that command posts.
extension PlayerCore {
    /// Connects the controls to this player; called once, when the player is made.
    func connectControls() {
        controls.connect(
            snapshot: { [weak self] frameTime in self?.controlsSnapshot(at: frameTime) ?? ControlsSnapshot() },
            isPlaying: { [weak self] in self?.state.withLock { $0.machine.playbackState == .playing } ?? false },
            perform: { [weak self] action in self?.performControl(action) })
        overlays.watchInput { [controls] in controls.noteInput() }
        outputChanged()
    }

    /// Shows the controls the app chose (none removes them); they stay whatever the output.
    func chooseControls(_ kind: ControlsKind) {
        controls.choose(kind, in: overlays)
    }

    /// The output changed (the sink, or the app's window): until the app chooses the controls,
    /// they are the new output's default (``PlayerControls/defaultKind(for:windowHandle:)``); a
    /// window has the sound-only indicator among its overlays, other outputs not.
    func outputChanged() {
        let (sink, handle) = read { ($0.videoSink, $0.presentation.windowHandle) }
        controls.setDefault(PlayerControls.defaultKind(for: sink, windowHandle: handle), in: overlays)
        showsSoundOnlyIndicator(sink.capabilities.contains(.window))
    }

    /// What the controls show over a frame at `frameTime` (or now). On the video thread: the
    /// machine's fields are read in place, not the machine copied.
    private func controlsSnapshot(at frameTime: Duration?) -> ControlsSnapshot {
        let (snapshot, network) = state.withLock { owned -> (ControlsSnapshot, Bool) in
            var snapshot = ControlsSnapshot()
            snapshot.isPlaying = owned.machine.playbackState == .playing
            snapshot.position = frameTime ?? owned.machine.lastPosition
            snapshot.duration = owned.machine.playbackEnd ?? owned.machine.duration
            snapshot.isFullscreen = owned.machine.presentation.fullscreenSize != nil
            snapshot.scalingMode = owned.machine.presentation.scalingMode
            snapshot.volume = owned.machine.volume
            snapshot.isMuted = owned.machine.isMuted
            snapshot.audioTracks = owned.machine.audioTracks
            snapshot.subtitleTracks = owned.machine.subtitleTracks
            snapshot.currentAudioTrack = owned.machine.currentAudioTrack
            snapshot.currentSubtitleTrack = owned.machine.currentSubtitleTrack
            return (snapshot, owned.machine.isNetworkSource)
        }
        guard network else { return snapshot }
        var withBuffer = snapshot
        withBuffer.buffered = bufferedForControls()
        return withBuffer
    }

    /// The playable duration the controls show for a stream: measured on the player's thread (a
    /// buffering query does not belong on the video thread that draws them), at most twice a
    /// second.
    private func bufferedForControls() -> Duration? {
        let (value, stale) = controlsBuffered.withLock { kept -> (Duration?, Bool) in
            let now = DispatchTime.now().uptimeNanoseconds
            guard now &- kept.at > 500_000_000 else { return (kept.value, false) }
            kept.at = now
            return (kept.value, true)
        }
        if stale {
            executor.enqueue { [weak self] in
                guard let self else { return }
                let playable = playableDuration
                controlsBuffered.withLock { $0.value = playable }
            }
        }
        return value
    }

    /// How far the movie can play from what has arrived (``MoviePlayer/playableDuration``).
    var playableDuration: Duration {
        let (session, network, duration, complete) = state.withLock { owned in
            let machine = owned.machine
            return (
                machine.phase == .prepared ? owned.session : nil, machine.isNetworkSource,
                machine.truncation?.playableDuration ?? machine.duration,
                machine.wholeMovieArrived
            )
        }
        guard let session else { return .zero }
        guard network, !complete else { return duration ?? .zero }
        let position = session.position ?? .zero
        return PlayableDuration.estimate(
            position: position, duration: duration,
            queuedAhead: session.bufferedAhead(of: position, duration: duration),
            download: session.downloadProgress)
    }

    /// Does what a control asks, as the app's call would; a paused picture is then shown again
    /// so that the controls over it show the change. Called on the thread that reported the click
    /// (a window's, or the app's): the task only awaits the player's own commands, which feed the
    /// machine under its lock and run on the player's thread, as any caller's would; it touches
    /// neither the state nor the pipeline itself.
    private func performControl(_ action: ControlAction) {
        Task { [self] in
            do throws(MediaError) {
                switch action {
                case .play:
                    try await play()
                case .pause:
                    try await pause()
                case .seek(let position):
                    try await seek(to: position, exact: true)
                    return
                case .setFullscreen(let fullscreen):
                    try await setFullscreen(fullscreen, animated: true)
                case .setScalingMode(let mode):
                    changeScalingMode(to: mode, animatedOver: scalingAnimationLength.withLock { $0 })
                case .setVolume(let volume):
                    apply {
                        $0.setVolume(volume)
                        if $0.isMuted { $0.setMuted(false) }
                    }
                case .done:
                    // The machine decides what Done does to playback (doneButtonBehavior); the
                    // window follows: back from fullscreen, or gone with the finished movie.
                    let (position, finishes) = (currentPosition, read { $0.doneButtonBehavior == .finishPlayback })
                    try await wait { $0.doneButtonPressed(position: position) }
                    if finishes {
                        await dismissOwnWindow()
                        return
                    }
                    if isFullscreen { try await setFullscreen(false, animated: true) }
                case .toggleTrackMenu:
                    break
                case .selectAudioTrack(let index):
                    try apply { $0.selectAudioTrack(index) }.get()
                case .selectSubtitleTrack(let index):
                    try apply { $0.selectSubtitleTrack(index) }.get()
                }
                try await repaintIfPaused()
            } catch {
                // The command's own events say what went wrong (a failed preparation, say);
                // a click has no caller to throw to.
            }
        }
    }

    /// Shows the paused frame again (an exact seek to it), so that overlays changed since it was
    /// drawn show; nothing when the movie plays (the next frame shows them) or is not prepared.
    func repaintIfPaused() async throws(MediaError) {
        let paused = state.withLock { owned -> (session: Int, pipeline: PipelineSession)? in
            let machine = owned.machine
            guard machine.phase == .prepared, machine.target != .playing,
                machine.playbackState == .paused || machine.playbackState == .stopped, let session = owned.session
            else { return nil }
            return (owned.machine.sessionID, session)
        }
        guard let paused else { return }
        let position = await executor.perform { () -> Duration? in
            paused.pipeline.videoOutput.deliverRepaintedFrame()
            return paused.pipeline.position
        }
        guard let position else { return }
        try await wait { $0.repaint(session: paused.session, at: position) }
    }
}
