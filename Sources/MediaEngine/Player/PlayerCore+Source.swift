/// Replacing the movie (MPMoviePlayerController's `contentURL` setter).
extension PlayerCore {
    /// Ends the current movie and loads `source` in its place, reusing the pipeline (its
    /// elements, sinks and bus thread) when the sink has not changed. The new movie plays if the
    /// old one was playing or `shouldAutoplay` is on.
    func replaceSource(with source: any MediaSource) {
        enum Step {
            case idle
            case reuse(PipelineSession, epoch: Int, id: Int, hold: Bool)
            case rebuild(play: Bool)
        }
        let step = update { state, events -> Step in
            state.source = source
            state.lastError = nil
            guard state.phase != .idle, let session = state.session else {
                events.append(.nowPlayingMovieChanged)
                return .idle
            }
            let wantsPlay = state.target == .playing || state.shouldAutoplay
            if state.videoSinkChanged { return .rebuild(play: wantsPlay) }
            state.scan?.timer.cancel()
            state.scan = nil
            let finished = state.atEnd
            state.setPlaybackState(.stopped, &events)
            state.setReadyForDisplay(false, &events)
            state.setPrepared(false, &events)
            state.setLoadState(.unknown, &events)
            if !finished { events.append(.playbackDidFinish(.userExited, nil)) }
            state.failWaiters(MediaError(.cancelled, "a new movie replaced this one"))
            events.append(.nowPlayingMovieChanged)
            state.resetMovieInfo()
            state.phase = .preparing
            state.epoch += 1
            state.target = wantsPlay ? .playing : .paused
            state.setSourceType(source.sourceType, &events)
            return .reuse(session, epoch: state.epoch, id: state.sessionID, hold: state.needsPreparationSeek)
        }
        switch step {
        case .idle:
            break
        case .rebuild(let play):
            stop()
            update { _, events in events.append(.nowPlayingMovieChanged) }
            if play { Task { try? await self.play() } }
        case .reuse(let session, let epoch, let id, let hold):
            executor.enqueue { [self] in
                do throws(MediaError) {
                    try source.validate()
                    try session.reload(source, epoch: epoch, holdFirstFrame: hold)
                    scheduleTimeout(for: id)
                } catch {
                    fail(session: id, with: source.interpret(error))
                }
            }
        }
        timeObservers.playbackChanged(self)
    }
}
