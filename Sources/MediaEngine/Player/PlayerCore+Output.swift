/// Choosing the video sink, and moving the video to another one while it plays.
extension PlayerCore {
    /// Sets the sink; with a prepared movie, swaps the running output for it (between two frames
    /// when playing, re-showing the current frame when paused) and returns once it is linked.
    func setVideoSink(_ sink: any VideoSink) async throws(MediaError) {
        if state.withLock({ $0.phase == .preparing }) { try await prepare() }
        let external = sink.capabilities.contains(.external)
        // The output's elements are made, and an app's window that is not there is refused,
        // on the player's thread, before anything changes.
        let chain = try await executor.perform { [self] () throws(MediaError) -> VideoOutputBin.OutputChain in
            let chain = try VideoOutputBin.makeChain(for: try sink.makeOutput())
            if chain.isWindow, let handle = state.withLock({ $0.presentation.windowHandle }) {
                _ = try WindowErrorWatch.checkedSize(ofWindow: handle, display: (sink as? WindowSink)?.display)
            }
            return chain
        }
        let step = update { state, events -> Result<(PipelineSession, VideoPresentation, paused: Bool)?, MediaError> in
            if external && !state.allowsExternalPlayback {
                return .failure(
                    MediaError(
                        .unsupportedOperation, "external playback is not allowed (allowsExternalPlayback is false)"))
            }
            let wasExternal = state.videoSink.capabilities.contains(.external)
            state.videoSink = sink
            if wasExternal != external { events.append(.externalPlaybackActiveChanged(external)) }
            guard state.phase == .prepared, let session = state.session else { return .success(nil) }
            state.videoSinkChanged = false
            return .success((session, state.presentation, state.playbackState != .playing))
        }
        guard let (session, presentation, paused) = try step.get() else { return }
        let position = try await executor.perform { [self] () throws(MediaError) -> Duration? in
            // Asked before the swap: afterwards no sink can answer until the new one has a frame.
            let position = paused ? session.position : nil
            try attachWindow(to: session.videoOutput, chain: chain)
            return position
        }
        try await wait { state in
            state.session === session ? .wait(.outputSwapped) : .stopped
        } then: {
            session.videoOutput.swap(to: chain, presentation: presentation, paused: paused)
        }
        // The view frame, for a window output, only applies once the window sink is in.
        await executor.perform { [self] in apply(state.withLock { $0.presentation }, to: session) }
        if paused, let position {
            // The old output was shut down holding the paused frame: show it again in the new one.
            let plan = state.withLock { $0.plan(to: position, accuracy: .exact) }
            try await seek(plan: plan, purpose: .rate, session: session)
        }
    }

    /// Refuses or accepts external sinks from now on; turning it off while an external sink is in
    /// use does not move the video (the next `setVideoSink(_:)` must pick another sink).
    func setAllowsExternalPlayback(_ allowed: Bool) {
        state.withLock { $0.allowsExternalPlayback = allowed }
    }
}
