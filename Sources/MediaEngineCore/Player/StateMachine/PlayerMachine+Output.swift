extension PlayerMachine {
    /// What a sink change swaps: the prepared pipeline, the presentation to give the new output,
    /// and whether the movie was not playing (the new output then shows the held frame again).
    struct OutputSwap: Equatable {
        let session: Int
        let presentation: VideoPresentation
        let paused: Bool
    }
}

/// The video sink and the presentation: kept for every pipeline, applied to the current one live.
extension PlayerMachine.State {
    /// `setVideoSink(_:)`: takes `sink` for this and later movies. Returns the swap to perform
    /// when a movie is prepared, nil when the next pipeline simply uses the sink.
    mutating func chooseVideoSink(_ sink: any VideoSink) -> Result<OutputSwap?, MediaError> {
        let external = sink.capabilities.contains(.external)
        if external && !settings.allowsExternalPlayback {
            return .failure(
                MediaError(.unsupportedOperation, "external playback is not allowed (allowsExternalPlayback is false)"))
        }
        let wasExternal = videoSink.capabilities.contains(.external)
        settings.videoSink = sink
        if wasExternal != external { publish(.externalPlaybackActiveChanged(external)) }
        guard phase == .prepared, hasSession else { return .success(nil) }
        settings.videoSinkChanged = false
        return .success(OutputSwap(session: sessionID, presentation: presentation, paused: playbackState != .playing))
    }

    /// Waits for the swap of `session`'s output to finish (``outputSwapped(session:)``).
    mutating func awaitOutputSwap(session: Int) -> Wait {
        isCurrent(session) ? .wait(waiter: addWaiter(.outputSwapped)) : .stopped
    }

    /// Changes the presentation and applies it to the current pipeline, if any.
    mutating func updatePresentation(_ change: (inout VideoPresentation) -> Void) {
        let old = presentation
        change(&settings.presentation)
        if presentation.scalingMode != old.scalingMode { publish(.scalingModeChanged(presentation.scalingMode)) }
        if hasSession { perform(.applyPresentation(session: sessionID, presentation)) }
    }
}
