/// Moving the video to another sink while it plays.
extension PlayerCore {
    /// Sets the sink; with a prepared movie, swaps the running output for it (between two frames
    /// when playing, re-showing the current frame when paused) and returns once it is linked.
    func setVideoSink(_ sink: any VideoSink) async throws(MediaError) {
        if read({ $0.phase == .preparing }) { try await prepare() }
        // The output's elements are made, and an app's window that is not there is refused,
        // on the player's thread, before anything changes.
        let chain = try await executor.perform { [self] () throws(MediaError) -> VideoOutputBin.OutputChain in
            let chain = try VideoOutputBin.makeChain(for: try sink.makeOutput())
            if chain.isWindow, let handle = read({ $0.presentation.windowHandle }) {
                _ = try WindowErrorWatch.checkedSize(ofWindow: handle, display: (sink as? WindowSink)?.display)
            }
            return chain
        }
        let chosen = try apply({ $0.chooseVideoSink(sink) }).get()
        outputChanged()
        guard let swap = chosen,
            let session = state.withLock({ $0.session?.id == swap.session ? $0.session : nil })
        else { return }
        let position = try await executor.perform { [self] () throws(MediaError) -> Duration? in
            // Asked before the swap: afterwards no sink can answer until the new one has a frame.
            let position = swap.paused ? session.position : nil
            try attachWindow(to: session.videoOutput, chain: chain)
            return position
        }
        try await wait {
            $0.awaitOutputSwap(session: swap.session)
        } then: {
            session.videoOutput.swap(to: chain, presentation: swap.presentation, paused: swap.paused)
        }
        // The view frame, for a window output, only applies once the window sink is in.
        await executor.perform { [self] in apply(read { $0.presentation }, to: session) }
        if swap.paused, let position {
            // The old output was shut down holding the paused frame: show it again in the new one.
            try await wait { $0.repaint(session: swap.session, at: position) }
        }
    }

    /// Refuses or accepts external sinks from now on; turning it off while an external sink is in
    /// use does not move the video (the next `setVideoSink(_:)` must pick another sink).
    func setAllowsExternalPlayback(_ allowed: Bool) {
        apply { $0.setAllowsExternalPlayback(allowed) }
    }
}
