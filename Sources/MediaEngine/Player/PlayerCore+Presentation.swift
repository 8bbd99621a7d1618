/// Orientation, scaling mode, background and view frame: kept for every pipeline, applied live.
extension PlayerCore {
    /// Changes the presentation and applies it to the pipeline now playing, if any.
    func updatePresentation(_ change: (inout VideoPresentation) -> Void) {
        update { state, events in
            let old = state.presentation
            change(&state.presentation)
            if state.presentation.scalingMode != old.scalingMode {
                events.append(.scalingModeChanged(state.presentation.scalingMode))
            }
            guard let session = state.session else { return }
            let presentation = state.presentation
            executor.enqueue { [self] in apply(presentation, to: session) }
        }
    }

    /// Applies a presentation to a pipeline's video output, on the player's thread. A value the
    /// output cannot take (a scaler property out of its range) fails the session.
    func apply(_ presentation: VideoPresentation, to session: PipelineSession) {
        do throws(MediaError) {
            try session.videoOutput.apply(presentation)
        } catch {
            fail(session: session.id, with: error)
        }
    }
}
