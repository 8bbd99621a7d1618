/// Replacing the movie (MPMoviePlayerController's `contentURL` setter).
extension PlayerCore {
    /// Ends the current movie and loads `source` in its place, reusing the pipeline (its
    /// elements, sinks and bus thread) when the sink has not changed. The new movie plays if the
    /// old one was playing or `shouldAutoplay` is on.
    func replaceSource(with source: any MediaSource) {
        enum Step {
            case idle
            case reuse
            case rebuild(play: Bool)
        }
        let step = update { state, events -> Step in
            state.source = source
            state.lastError = nil
            guard state.phase != .idle, let session = state.session else {
                if state.phase == .preparing {
                    // The first pipeline is still being built for the old movie: build the new
                    // one's instead (the old build sees a newer session id and is discarded).
                    state.sessionID += 1
                    state.epoch = 0
                    state.epochSeen = 0
                    state.resetMovieInfo()
                    state.setSourceType(source.sourceType, &events)
                    let (id, sink, audio, presentation, hold) = (
                        state.sessionID, state.videoSink, state.audioOutput, state.presentation,
                        state.needsPreparationSeek
                    )
                    executor.enqueue { [self] in
                        start(id: id, source: source, sink: sink, audio: audio, presentation: presentation, hold: hold)
                    }
                }
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
            // Enqueued under the lock, so two replacements reload in the order they were decided:
            // the last epoch's marker must be the last one on the bus, or its messages are dropped.
            let (epoch, id, hold) = (state.epoch, state.sessionID, state.needsPreparationSeek)
            executor.enqueue { [self] in
                do throws(MediaError) {
                    try source.validate()
                    try session.reload(source, epoch: epoch, holdFirstFrame: hold)
                    scheduleTimeout(for: id)
                } catch {
                    fail(session: id, with: source.interpret(error))
                }
            }
            return .reuse
        }
        switch step {
        case .idle:
            break
        case .rebuild(let play):
            stop()
            update { _, events in events.append(.nowPlayingMovieChanged) }
            if play { Task { try? await self.play() } }
        case .reuse:
            break
        }
        timeObservers.playbackChanged(self)
    }
}
