/// Orientation, scaling mode, background and view frame: kept for every pipeline, applied live.
extension PlayerCore {
    /// Changes the presentation and applies it to the pipeline now playing, if any.
    func updatePresentation(_ change: (inout VideoPresentation) -> Void) {
        let (session, presentation) = update { state, events -> (PipelineSession?, VideoPresentation) in
            let old = state.presentation
            change(&state.presentation)
            if state.presentation.scalingMode != old.scalingMode {
                events.append(.scalingModeChanged(state.presentation.scalingMode))
            }
            return (state.session, state.presentation)
        }
        try? session?.videoOutput.apply(presentation)
    }
}
