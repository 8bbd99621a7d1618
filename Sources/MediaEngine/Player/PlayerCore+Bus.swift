import Dispatch

/// How the player reacts to its pipeline: the state machine's bus side. Runs on the bus thread.
extension PlayerCore {
    /// Handles one message of session `id`; returns `.exit` when the session is over.
    func handle(_ message: BusMessage, session id: Int) -> BusThread.Verdict {
        guard let session = state.withLock({ $0.session(id) }) else { return .exit }
        switch message {
        case .asyncDone(let seqnum):
            asyncDone(session, seqnum: seqnum)
        case .pipelineStateChanged(_, let new, let pending):
            guard pending == .voidPending else { break }
            pipelineReached(new, session: session)
        case .firstFrame(let frame):
            update { state, events in
                guard state.session === session else { return }
                state.setNaturalSize(frame.displaySize, &events)
                state.setReadyForDisplay(true, &events)
                if let pending = state.pendingSeek, pending.seqnum == frame.seqnum {
                    state.completeSeeks(at: frame.streamTime ?? pending.position, &events)
                }
            }
        case .endOfStream:
            return endOfStream(session)
        case .error(let failure):
            let error = state.withLock { state in state.source.interpret(state.errorContext.translate(failure)) }
            fail(session: id, with: error)
            return .exit
        case .warning:
            break
        case .streamTypeFound(let caps):
            state.withLock { $0.errorContext.streamCaps = caps }
            if !StreamTypePolicy.isPlayable(caps) {
                let type = StreamTypePolicy.mediaType(of: caps)
                fail(
                    session: id, with: MediaError(.notAMovie, "the content is \(type), not a movie", debugDetail: caps))
                return .exit
            }
            watchForStalledDemuxer(session)
        case .missingPlugin(let description, let caps):
            state.withLock { $0.errorContext.missingPlugin = (description, caps) }
        case .durationChanged:
            let duration = session.duration
            update { state, events in
                guard state.session === session else { return }
                state.setDuration(duration, &events)
            }
        case .tags(let tags):
            update { state, events in
                guard state.session === session else { return }
                state.mergeMetadata(tags, &events)
            }
        case .buffering:
            break
        case .clockLost:
            // The standard recovery: pausing and playing again selects a new clock.
            if state.withLock({ $0.playbackState == .playing }) {
                session.pause()
                session.play()
            }
        case .latencyChanged:
            session.recalculateLatency()
        case .application(let name):
            if name == PlayerCore.stateChangeFailedMessage {
                let error = state.withLock { $0.lastError }
                fail(session: id, with: error ?? MediaError(.pipelineFailure, "the pipeline refused to change state"))
                return .exit
            }
            if name == SourceSetup.failedMessage, let error = session.sourceSetup.failure.withLock({ $0 }) {
                fail(session: id, with: error)
                return .exit
            }
        }
        return .carryOn
    }

    /// decodebin drops the error a demuxer posts while decodebin is still setting it up, which
    /// leaves preparation waiting forever (seen with damaged MP4 files). While preparing, look a
    /// few times for a demuxer that gave up without exposing a stream, and fail as it would have.
    private func watchForStalledDemuxer(_ session: PipelineSession) {
        for delay in [0.2, 0.6, 1.2] {
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self, weak session] in
                guard let self, let session,
                    self.state.withLock({ $0.session === session && $0.phase == .preparing }),
                    let demuxer = session.stalledDemuxer
                else { return }
                let error = state.withLock { state in
                    state.source.interpret(
                        MediaError(
                            .corruptContainer, "the container holds no stream that can be played",
                            debugDetail: "\(demuxer) stopped without exposing a stream", element: demuxer))
                }
                fail(session: session.id, with: error)
            }
        }
    }

    private func asyncDone(_ session: PipelineSession, seqnum: UInt32) {
        let preparing = state.withLock { $0.session === session && $0.phase == .preparing }
        if preparing {
            finishPreparation(session)
            return
        }
        // A seek normally completes when its first frame reaches the video output (matched by
        // the seek's sequence number, above). With no video, or a seek that ran into the end of
        // the movie, no frame comes: the pipeline's ASYNC_DONE (whose own sequence number
        // GStreamer 1.22 does not tie to the seek) completes it instead.
        let position = session.position
        update { state, events in
            guard state.session === session, let pending = state.pendingSeek else { return }
            let noFrameExpected =
                !state.mediaTypes.contains(.video)
                || state.duration.map { pending.position + Self.truncationTolerance(for: $0) >= $0 } ?? false
            if noFrameExpected {
                state.completeSeeks(at: position ?? pending.position, &events)
            }
        }
    }

    private func finishPreparation(_ session: PipelineSession) {
        let duration = session.duration
        let mediaTypes = session.mediaTypes
        let startPlaying = update { state, events -> Bool in
            guard state.session === session, state.phase == .preparing else { return false }
            state.phase = .prepared
            state.setDuration(duration, &events)
            state.setMediaTypes(mediaTypes, &events)
            state.setLoadState(state.sourceType == .file ? [.playable, .playthroughOK] : .playable, &events)
            state.setPrepared(true, &events)
            state.waiters.resolve(.prepared)
            return state.target == .playing
        }
        if startPlaying { session.play() }
    }

    private func pipelineReached(_ gstState: GstStateValue, session: PipelineSession) {
        update { state, events in
            guard state.session === session, state.phase == .prepared else { return }
            switch gstState {
            case .playing where state.target == .playing:
                state.setPlaybackState(.playing, &events)
            case .paused where state.target == .paused && state.playbackState != .stopped:
                state.setPlaybackState(.paused, &events)
            default:
                break
            }
        }
    }

    private func endOfStream(_ session: PipelineSession) -> BusThread.Verdict {
        let position = session.position
        let verdict = update { state, events -> (truncated: MediaError?, pause: Bool) in
            guard state.session === session, !state.atEnd else { return (nil, false) }
            if let duration = state.duration, let position, state.rate > 0,
                position + Self.truncationTolerance(for: duration) < duration
            {
                let error = state.source.interpret(
                    MediaError(
                        .truncatedMovie,
                        "the movie ends at \(position.formattedSeconds) but its header says \(duration.formattedSeconds)"
                    ))
                return (error, false)
            }
            state.atEnd = true
            state.target = .paused
            state.lastPosition = position ?? state.duration ?? state.lastPosition
            state.supersedeStateWaiters()
            state.setPlaybackState(.stopped, &events)
            events.append(.playbackDidFinish(.playbackEnded, nil))
            return (nil, true)
        }
        if let error = verdict.truncated {
            fail(session: session.id, with: error)
            return .exit
        }
        // Keep the pipeline, paused on the last frame, so play() can start again at once.
        if verdict.pause { session.pause() }
        return .carryOn
    }

    /// How far before its announced duration a movie may end and still count as complete:
    /// a frame or two of rounding, audio priming, an estimated duration.
    static func truncationTolerance(for duration: Duration) -> Duration {
        max(.milliseconds(500), duration / 50)
    }
}

extension Duration {
    /// Seconds with three decimals, for messages: `1.234 s`.
    var formattedSeconds: String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        let sign = milliseconds < 0 ? "-" : ""
        let magnitude = abs(milliseconds)
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
    }
}
