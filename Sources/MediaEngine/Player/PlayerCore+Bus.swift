import Dispatch

/// How the player reacts to its pipeline: the state machine's bus side. Runs on the player's
/// thread, which the bus thread hands each message to, in order.
extension PlayerCore {
    /// Handles one message of session `id`; returns `.exit` when the session is over.
    @discardableResult
    func handle(_ message: BusMessage, session id: Int) -> BusThread.Verdict {
        guard let session = state.withLock({ $0.session(id) }) else { return .exit }
        // After the pipeline was reused for another movie, what the bus still holds of the
        // previous one comes before the new epoch's marker and is dropped.
        if case .newEpoch(let epoch) = message {
            state.withLock { $0.epochSeen = epoch }
            return .carryOn
        }
        guard state.withLock({ $0.epochSeen == $0.epoch }) else { return .carryOn }
        switch message {
        case .asyncDone(let seqnum):
            asyncDone(session, seqnum: seqnum)
        case .pipelineStateChanged(_, let new, let pending):
            guard pending == .voidPending else { break }
            pipelineReached(new, session: session)
        case .firstFrame(let frame):
            fitOwnWindow(to: frame.displaySize, session: session)
            let landNow = update { state, events -> InFlightSeekLanding? in
                guard state.session === session else { return nil }
                state.setNaturalSize(frame.displaySize, &events)
                state.setReadyForDisplay(true, &events)
                // The seek's frame has entered the video output; the seek lands when the pipeline
                // has prerolled it (ASYNC_DONE, below), that is once the sink (a frames callback
                // included) has it. If the ASYNC_DONE came first, it lands now.
                guard var flight = state.inFlightSeek, flight.seqnum == frame.seqnum else { return nil }
                let landing = frame.streamTime ?? flight.plan.position
                flight.landing = landing
                state.inFlightSeek = flight
                return flight.prerolled ? InFlightSeekLanding(seqnum: flight.seqnum, position: landing) : nil
            }
            if let landNow { landSeek(seqnum: landNow.seqnum, at: landNow.position, session: session) }
        case .firstFrameHeld:
            // The movie is streaming and nothing has been shown: now is the time for the seek
            // that applies the playback range (it also releases the held frames).
            let request = update { state, _ -> SeekRequest? in
                guard state.session === session, state.phase == .preparing, state.inFlightSeek == nil else {
                    return nil
                }
                return state.startSeek(state.plan(to: state.startPosition, accuracy: .exact), purpose: .preparation)
            }
            if let request { send(request, through: session) }
        case .segmentDone:
            segmentDone(session)
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
        case .videoDecoderChosen(let factory):
            update { state, _ in
                guard state.session === session else { return }
                state.videoDecoder = factory
            }
        case .missingPlugin(let description, let caps):
            state.withLock { $0.errorContext.missingPlugin = (description, caps) }
        case .durationChanged:
            // During preparation the duration is read once, when it ends, so the order of the
            // preparation's events does not depend on when demuxers revise it.
            guard state.withLock({ $0.phase == .prepared }) else { break }
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
        case .buffering(let percent):
            buffering(percent, session: session)
        case .clockLost:
            // The standard recovery: pausing and playing again selects a new clock. Until the
            // pipeline plays again the player is interrupted.
            let playing = update { state, events -> Bool in
                guard state.session === session, state.playbackState == .playing else { return false }
                state.setPlaybackState(.interrupted, &events)
                return true
            }
            if playing {
                session.pause()
                session.play()
            }
        case .latencyChanged:
            session.recalculateLatency()
        case .stateChangeFailed:
            let error = state.withLock { $0.lastError }
            fail(session: id, with: error ?? MediaError(.pipelineFailure, "the pipeline refused to change state"))
            return .exit
        case .outputSwapped:
            update { state, events in
                guard state.session === session else { return }
                events.append(.videoSinkChanged)
                state.waiters.resolve(.outputSwapped)
            }
        case .sourceSettingsFailed:
            guard let error = session.sourceSetup.failure.withLock({ $0 }) else { break }
            fail(session: id, with: error)
            return .exit
        case .newEpoch, .stopBusThread:
            break  // Handled above, and by the bus thread itself.
        }
        return .carryOn
    }

    /// decodebin drops the error a demuxer posts while decodebin is still setting it up, which
    /// leaves preparation waiting forever (seen with damaged MP4 files). While preparing, look a
    /// few times for a demuxer that gave up without exposing a stream, and fail as it would have.
    private func watchForStalledDemuxer(_ session: PipelineSession) {
        for delay in [Duration.milliseconds(200), .milliseconds(600), .milliseconds(1200)] {
            executor.enqueue(after: delay) { [weak self, weak session] in
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
        let (preparing, seekInFlight) = state.withLock { state in
            (state.session === session && state.phase == .preparing, state.inFlightSeek)
        }
        if preparing && seekInFlight == nil {
            // The first preroll: the playback range, repeat mode or rate may still need a seek.
            if let request = preparationSeek() {
                send(request, through: session)
            } else {
                completePreparation(session)
            }
            return
        }
        // A flushing seek lands at the ASYNC_DONE after its first frame (matched by the seek's
        // sequence number, which GStreamer 1.22 does not put on the ASYNC_DONE itself) reached
        // the video output. With no video, or a seek that ran into the end of the movie, no
        // frame comes, and the ASYNC_DONE alone lands it. Seeks are sent one at a time (later
        // ones wait their turn), so an ASYNC_DONE cannot belong to an earlier seek.
        guard let flight = seekInFlight else { return }
        let noFrameExpected = state.withLock { state in
            !state.mediaTypes.contains(.video) && state.phase == .prepared || flight.plan.accuracy == .keyFramesOnly
                || state.duration.map { flight.plan.position + Self.truncationTolerance(for: $0) >= $0 } ?? false
        }
        if let landing = flight.landing {
            landSeek(seqnum: flight.seqnum, at: landing, session: session)
        } else if noFrameExpected {
            landSeek(seqnum: flight.seqnum, at: session.position, session: session)
        } else {
            // The bus can carry the ASYNC_DONE before the first frame's message (a busy machine):
            // remember it, so the frame lands the seek.
            update { state, _ in
                guard state.session === session, state.inFlightSeek?.seqnum == flight.seqnum else { return }
                state.inFlightSeek?.prerolled = true
            }
        }
    }

    /// Where a seek whose frame came after its preroll lands.
    struct InFlightSeekLanding {
        let seqnum: UInt32
        let position: Duration
    }

    /// Preparation is over: the movie's facts are published, waiters resume, and playback
    /// starts if the app wants it (shouldAutoplay, or play() during preparation).
    func completePreparation(_ session: PipelineSession) {
        let duration = session.duration
        let mediaTypes = session.mediaTypes
        let prepared = update { state, events -> Bool in
            guard state.session === session, state.phase == .preparing else { return false }
            state.phase = .prepared
            state.setDuration(duration, &events)
            state.setMediaTypes(mediaTypes, &events)
            state.setLoadState(state.sourceType == .file ? [.playable, .playthroughOK] : .playable, &events)
            if !state.metadata.isEmpty { events.append(.metadataAvailable(state.metadata)) }
            state.setPrepared(true, &events)
            state.waiters.resolve(.prepared)
            return true
        }
        if prepared { startIfWanted(session) }
    }

    /// Buffering (network streams): below 100 % a playing movie pauses and is `interrupted`;
    /// at 100 % it plays on.
    private func buffering(_ percent: Int, session: PipelineSession) {
        enum Action { case none, pause, play }
        let action = update { state, events -> Action in
            guard state.session === session else { return .none }
            if percent < 100 {
                if state.phase == .prepared { state.setLoadState([.playable, .stalled], &events) }
                guard state.playbackState == .playing else { return .none }
                state.setPlaybackState(.interrupted, &events)
                return .pause
            }
            if state.phase == .prepared { state.setLoadState([.playable, .playthroughOK], &events) }
            guard state.target == .playing, state.phase == .prepared,
                state.playbackState == .interrupted || state.playbackState == .stopped
            else { return .none }
            return .play
        }
        switch action {
        case .pause: session.pause()
        case .play: session.play()
        case .none: break
        }
    }

    func pipelineReached(_ gstState: GstStateValue, session: PipelineSession) {
        update { state, events in
            guard state.session === session, state.phase == .prepared, state.scan == nil else { return }
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
        enum Outcome {
            case ignore
            case truncated(MediaError)
            case finished
            case loop(SeekRequest?)
            case scanEnded(SeekRequest?)
        }
        let outcome = update { state, events -> Outcome in
            guard state.session === session, !state.atEnd, state.phase == .prepared else { return .ignore }
            if let scan = state.scan {
                // A scan ran into an end of the movie: back to the old rate, paused there.
                scan.timer.cancel()
                state.scan = nil
                state.rate = scan.previousRate
                state.target = .paused
                let edge =
                    scan.forward
                    ? state.clamp(state.endPlaybackTime ?? state.duration ?? .zero) : state.initialPlaybackTime ?? .zero
                state.setPlaybackState(.paused, &events)
                return .scanEnded(state.startSeek(state.plan(to: edge, accuracy: .exact), purpose: .rate))
            }
            let expectedEnd = state.rate > 0 ? (state.endPlaybackTime ?? state.duration) : nil
            if let expectedEnd, let position, position + Self.truncationTolerance(for: expectedEnd) < expectedEnd {
                let error = state.source.interpret(
                    MediaError(
                        .truncatedMovie,
                        "the movie ends at \(position.formattedSeconds) but its header says \(expectedEnd.formattedSeconds)"
                    ))
                return .truncated(error)
            }
            if state.repeatMode == .one {
                // Not in looping mode (repeat was turned on at the very end): start again with a flush.
                state.loops += 1
                events.append(.didLoop(state.loops))
                return .loop(state.startSeek(state.plan(to: state.startPosition, accuracy: .exact), purpose: .loop))
            }
            state.atEnd = true
            state.target = .paused
            state.lastPosition = position ?? expectedEnd ?? state.lastPosition
            state.supersedeStateWaiters()
            // A seek that ran past the end lands here.
            if state.inFlightSeek != nil {
                state.inFlightSeek = nil
                state.queuedSeek = nil
                state.resolveSeekWaiters()
            }
            state.setPlaybackState(.stopped, &events)
            events.append(.playbackDidFinish(.playbackEnded, nil))
            return .finished
        }
        switch outcome {
        case .ignore:
            break
        case .truncated(let error):
            fail(session: session.id, with: error)
            return .exit
        case .finished:
            // Keep the pipeline, paused on the last frame, so play() can start again at once.
            session.pause()
        case .loop(let request), .scanEnded(let request):
            if let request { send(request, through: session) }
            if case .scanEnded = outcome { session.pause() }
        }
        timeObservers.playbackChanged(self)
        return .carryOn
    }

    /// How far before its announced duration a movie may end and still count as complete:
    /// a frame or two of rounding, audio priming, an estimated duration.
    static func truncationTolerance(for duration: Duration) -> Duration {
        max(.milliseconds(500), duration / 50)
    }
}
