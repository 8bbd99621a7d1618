/// How the player reacts to what its pipeline reports (the bus side). Each input names the
/// pipeline it came from; inputs of a pipeline that is no longer the player's, or of the
/// previous movie in a reused pipeline, are ignored.
extension PlayerMachine.State {
    /// Whether a message of `session` is about the movie the player has now (and that movie is
    /// not failing: its failure is with the source, to be made more precise).
    func accepts(_ session: Int) -> Bool {
        isCurrent(session) && epochSeen == epoch && preroll == nil && movie.interpreting == nil
    }

    /// The marker of a reload's epoch passed the bus: what follows is the new movie's.
    mutating func epochMarkerArrived(session: Int, epoch: Int) {
        guard isCurrent(session) else { return }
        pipeline?.epochSeen = epoch
    }

    /// Whether an ASYNC_DONE (or, with `firstFrame`, a first frame) of `session` may need the
    /// pipeline's facts: to end preparation, or to land a seek at the pipeline's position when no
    /// frame came. When not, the owner need not ask the pipeline (three queries, which wait for
    /// the sinks' locks, on the path of every seek). A first frame lands a seek at its own time.
    func needsFacts(session: Int, firstFrame: Bool = false) -> Bool {
        // A pre-roll's first frame reports the item's duration.
        if preroll != nil { return firstFrame && prerollAccepts(session) }
        guard accepts(session) else { return false }
        if phase == .preparing { return true }
        return !firstFrame && (inFlightSeek.map { $0.landing == nil } ?? false)
    }

    /// The pipeline prerolled (ASYNC_DONE): the end of preparation, or the landing of a seek.
    mutating func asyncDone(session: Int, facts: PipelineFacts) {
        if preroll != nil { return prerollPrerolled(session: session) }
        prerolled(session: session, facts: facts)
        guard isCurrent(session) else { return }
        // Prerolled, but the seek's frame has not come: it usually follows at once; if it does not
        // (a damaged stream at the new position, found by make fuzz-engine), the seek lands after
        // a short grace instead of the whole preparation timeout.
        if let flight = inFlightSeek, flight.prerolled, flight.landing == nil {
            perform(
                .startTimer(
                    .seekDeadline(session: session, seqnum: flight.seqnum), after: PlayerMachine.seekFrameGrace))
        }
        // A stream that plays at once lets its demuxer read ahead once it plays, so that the
        // downloads do not slow the move to PLAYING; one that waits (paused, or for more
        // buffered) does now.
        if target != .playing || isStarved || phase != .prepared { perform(.openFragmentGates(session: session)) }
    }

    private mutating func prerolled(session: Int, facts: PipelineFacts) {
        guard accepts(session) else { return }
        if phase == .preparing && inFlightSeek == nil {
            // The first preroll: the playback range, repeat mode or rate may still need a seek.
            if needsPreparationSeek {
                startSeek(plan(to: startPosition, accuracy: preparationAccuracy), purpose: .preparation)
            } else {
                completePreparation(facts)
            }
            return
        }
        // A flushing seek lands at the ASYNC_DONE after its first frame (matched by the seek's
        // sequence number, which GStreamer 1.22 does not put on the ASYNC_DONE itself) reached
        // the video output. With no video, or a seek that ran into the end of the movie, no
        // frame comes, and the ASYNC_DONE alone lands it. Seeks are sent one at a time (later
        // ones wait their turn), so an ASYNC_DONE cannot belong to an earlier seek.
        // An ASYNC_DONE before the seek's marker belongs to an earlier state change (a pause's
        // preroll that completed late): it says nothing about the seek.
        guard let flight = inFlightSeek, flight.markerSeen || !flight.plan.flush else { return }
        let noFrameExpected =
            !mediaTypes.contains(.video) && phase == .prepared || flight.plan.accuracy == .keyFramesOnly
            || lastFramePosition.map {
                flight.plan.position + PlayerMachine.truncationTolerance(for: $0) >= $0
            } ?? false
        if let landing = flight.landing {
            landSeek(seqnum: flight.seqnum, at: landing, facts: facts)
        } else if noFrameExpected {
            landSeek(seqnum: flight.seqnum, at: facts.position, facts: facts)
        } else {
            // The bus can carry the ASYNC_DONE before the first frame's message (a busy machine):
            // remember it (and what the pipeline told then), so the frame lands the seek.
            inFlightSeek?.prerolled = true
            inFlightSeek?.prerolledFacts = facts
        }
    }

    /// The first frame after a start or a flush reached the video output.
    mutating func firstFrameArrived(
        session: Int, seqnum: UInt32, streamTime: Duration?, displaySize: VideoSize, facts: PipelineFacts
    ) {
        if preroll != nil {
            return prerollFirstFrame(session: session, duration: facts.duration, displaySize: displaySize)
        }
        guard accepts(session) else { return }
        setNaturalSize(displaySize)
        setReadyForDisplay(true)
        // The seek's frame has entered the video output; the seek lands when the pipeline has
        // prerolled it (ASYNC_DONE), that is once the sink (a frames callback included) has it.
        // If the ASYNC_DONE came first, it lands now.
        guard var flight = inFlightSeek, flight.seqnum == seqnum else { return }
        let landing = streamTime ?? flight.plan.position
        flight.landing = landing
        if flight.prerolled && flight.followsPause {
            // That ASYNC_DONE was the pause's preroll: the seek lands at its own, next.
            flight.prerolled = false
        }
        inFlightSeek = flight
        if flight.prerolled { landSeek(seqnum: flight.seqnum, at: landing, facts: facts) }
    }

    /// The first frame was held back until the seek that applies the playback range: the
    /// movie is streaming and nothing has been shown, so now is the time for that seek.
    mutating func firstFrameHeld(session: Int) {
        if isCurrent(session) { perform(.openFragmentGates(session: session)) }
        guard accepts(session), phase == .preparing, inFlightSeek == nil else { return }
        startSeek(plan(to: startPosition, accuracy: preparationAccuracy), purpose: .preparation)
    }

    /// The pipeline settled in PLAYING (`playing`) or PAUSED: the playback state follows when
    /// that is what the app asked for.
    mutating func pipelineReached(session: Int, playing: Bool) {
        if playing, isCurrent(session) { perform(.openFragmentGates(session: session)) }
        guard accepts(session), phase == .prepared, scan == nil else { return }
        if playing && target == .playing {
            // Buffering fell below 100 % while the play after the last 100 % was on its way (a
            // busy machine): that stall stands. The movie pauses and stays interrupted, and the
            // next 100 % plays it, instead of playing on from an empty buffer unreported. So does
            // a stall whose pause is sent (the report is of a play before it), even when the
            // download had ended: the pipeline is on its way to PAUSED.
            if playbackState == .interrupted, isStarved || pausedForBuffering {
                perform(.pause(session: session))
                return
            }
            setPlaybackState(.playing)
        } else if !playing && target == .paused && playbackState != .stopped {
            setPlaybackState(.paused)
        }
    }

    /// The pipeline reported an error: translated with what the bus said before it, then
    /// interpreted by the source (which may reconnect).
    mutating func pipelineError(session: Int, _ failure: PipelineFailure, position: Duration?) {
        if preroll != nil { return prerollError(session: session, failure) }
        guard accepts(session) else { return }
        let error = errorContext.translate(failure)
        if error.code == .unauthorized, answerChallenge(session: session) { return }
        fail(session: session, interpreting: error, position: position, mayReconnect: true)
    }

    /// A state change of the pipeline failed (after GStreamer's own error, if any).
    mutating func stateChangeFailed(session: Int, position: Duration?) {
        if preroll != nil {
            return prerollFailed(
                session: session, error: MediaError(.pipelineFailure, "the pipeline refused to play the pre-roll"))
        }
        guard accepts(session) else { return }
        let error = shown.lastError ?? MediaError(.pipelineFailure, "the pipeline refused to change state")
        pipelineFailed(session: session, error: error, position: position)
    }

    /// typefind found the stream's type: a movie goes on (watched for a demuxer that stalls),
    /// anything else ends preparation with ``MediaError/Code/notAMovie``.
    mutating func streamTypeFound(session: Int, caps: String) {
        if preroll != nil { return prerollStreamTypeFound(session: session, caps: caps) }
        guard accepts(session) else { return }
        errorContext.streamCaps = caps
        if caps.hasPrefix("application/x-icy") { facts.isICYStream = true }
        guard StreamTypePolicy.isPlayable(caps) else {
            let type = StreamTypePolicy.mediaType(of: caps)
            fail(
                session: session,
                interpreting: MediaError(.notAMovie, "the content is \(type), not a movie", debugDetail: caps),
                position: nil)
            return
        }
        // The stream's type settles a source type the source could not tell: a manifest is a
        // stream (MPMovieSourceTypeStreaming), anything else a file, local or on a server.
        let type = StreamTypePolicy.mediaType(of: caps)
        if StreamTypePolicy.manifestTypes.contains(type) {
            downloadComplete = false  // the manifest's end, seen before its type
            // The app's hint stands: it said what this movie is.
            if settings.sourceTypeHint == .unknown { setSourceType(.streaming) }
        } else if sourceType == .unknown {
            setSourceType(.file)
        }
        watchForStalledDemuxer(session: session)
    }

    mutating func missingPlugin(session: Int, description: String, caps: String?) {
        // The content's or a pre-roll's: the error context is whichever movie's is loaded.
        guard isCurrent(session), epochSeen == epoch else { return }
        errorContext.missingPlugin = (description, caps)
    }

    mutating func videoDecoderChosen(session: Int, factory: String) {
        guard accepts(session) else { return }
        facts.videoDecoder = factory
    }

    /// The duration changed. During preparation it is read once, when preparation ends, so the
    /// order of the preparation's events does not depend on when demuxers revise it. A change
    /// from another stream `group` than the movie's at the output (nil: the element that posted
    /// it carried none) is not this movie's: a queue's next movie, whose parser posts while the
    /// last frames of the one before are still on their way (and a busy player's thread handles
    /// it after playbin has gone on to that movie), or the one before. A next movie's duration is
    /// read from its own stream when it starts. A stream start of group 0 (the sinks' streams
    /// carried different groups, or none) tells nothing.
    mutating func durationChanged(session: Int, group: UInt32? = nil, duration: Duration?) {
        guard accepts(session), phase == .prepared else { return }
        if let group, let contentGroup, contentGroup != 0, group != contentGroup { return }
        setDuration(duration)
    }

    mutating func tagsArrived(session: Int, _ tags: [String: String], position: Duration? = nil) {
        guard accepts(session) else { return }
        let previous = facts.metadata
        mergeMetadata(tags)
        timedTagsArrived(tags, previous: previous, position: position)
    }

    /// Buffering (network streams): below 100 % a playing movie pauses, is `interrupted` and
    /// its load state `stalled` (a stall); at 100 % (the policy's threshold) it plays on, at the
    /// same position. The first 100 % switches the threshold from start to resume.
    mutating func buffering(session: Int, percent: Int, stats: BufferingStats) {
        if preroll != nil { return prerollBuffering(session: session, percent: percent) }
        guard accepts(session) else { return }
        buffering = (percent, stats)
        if percent < 100 {
            if phase == .prepared { setLoadState([.playable, .stalled]) }
            guard playbackState == .playing else { return }
            setPlaybackState(.interrupted)
            perform(.pause(session: session))
            pausedForBuffering = true
            return
        }
        if !movie.bufferedOnce {
            withMovie { $0.bufferedOnce = true }
            perform(.useResumeThreshold(session: session))
        }
        if phase == .prepared { setLoadState(loadStateWhenBuffered(stats)) }
        guard target == .playing, phase == .prepared, playbackState == .interrupted || playbackState == .stopped
        else { return }
        perform(.play(session: session))
    }

    /// The pipeline lost its clock. The standard recovery: pausing and playing again selects a
    /// new clock; until the pipeline plays again the player is interrupted.
    mutating func clockLost(session: Int) {
        guard accepts(session), playbackState == .playing else { return }
        setPlaybackState(.interrupted)
        perform(.restartClock(session: session))
    }

    /// The video output moved to another sink.
    mutating func outputSwapped(session: Int) {
        // The output is the pre-roll's as much as the content's.
        guard isCurrent(session), epochSeen == epoch else { return }
        publish(.videoSinkChanged)
        resolveWaiters(.outputSwapped)
    }

    /// The end of the stream: the end of the movie, the next item of a queue (when it could not
    /// follow without a gap), a loop in repeat mode, the end of a scan, or
    /// a movie shorter than its header says (truncated).
    mutating func endOfStream(session: Int, position: Duration?) {
        if preroll != nil { return prerollReachedEnd(session: session, position: position) }
        guard accepts(session), !atEnd, phase == .prepared else { return }
        if let scan {
            // A scan ran into an end of the movie: back to the old rate, paused there.
            self.scan = nil
            perform(.cancelTimer(.scanStep))
            settings.rate = scan.previousRate
            target = .paused
            let edge = scan.forward ? clamp(playbackEnd ?? duration ?? .zero) : initialPlaybackTime ?? .zero
            setPlaybackState(.paused)
            startSeek(plan(to: edge, accuracy: .exact), purpose: .rate)
            perform(.pause(session: session))
            requestPositionLook()
            return
        }
        if let (error, interpret) = truncatedEnd(at: position) {
            if interpret {
                fail(session: session, interpreting: error, position: position)
            } else {
                pipelineFailed(session: session, error: error, position: position)
            }
            return
        }
        let expectedEnd = rate > 0 ? (playbackEnd ?? duration) : nil
        if repeatMode != .one, advanceAfterEnd() { return }
        if repeatMode == .one {
            // Not in looping mode (repeat was turned on at the very end): start again with a flush.
            withMovie { $0.loops += 1 }
            publish(.didLoop(movie.loops))
            startSeek(plan(to: startPosition, accuracy: .exact), purpose: .loop)
            return
        }
        atEnd = true
        target = .paused
        shown.lastPosition = position ?? expectedEnd ?? lastPosition
        supersedeStateWaiters()
        // A seek that ran past the end lands here.
        if let flight = inFlightSeek {
            inFlightSeek = nil
            queuedSeek = nil
            perform(.cancelTimer(.seekDeadline(session: session, seqnum: flight.seqnum)))
            resolveSeekWaiters()
        }
        setPlaybackState(.stopped)
        publish(.playbackDidFinish(.playbackEnded, nil))
        // Keep the pipeline, paused on the last frame, so play() can start again at once.
        perform(.pause(session: session))
    }

    // MARK: Stalled demuxers

    /// The looks for a demuxer that gave up without exposing a stream, after the stream's type
    /// was found (``PlayerMachine/stalledDemuxerLooks``).
    private mutating func watchForStalledDemuxer(session: Int) {
        withMovie { $0.stalledDemuxerSeen = nil }
        for (look, delay) in PlayerMachine.stalledDemuxerLooks.enumerated() {
            perform(.startTimer(.stalledDemuxer(session: session, epoch: epoch, look: look), after: delay))
        }
    }

    /// A look for a stalled demuxer (``TimerFacts/stalledDemuxer``): decodebin drops the error a
    /// demuxer posts while decodebin is still setting it up, which leaves preparation waiting
    /// forever (seen with damaged MP4 files). A demuxer counts as stalled only when two looks in a
    /// row find it so: a healthy one's task can be paused for a moment (a busy machine), never
    /// for the time between two looks.
    mutating func stalledDemuxerLooked(session: Int, epoch: Int, demuxer: String?) {
        guard isCurrent(session), epoch == self.epoch, phase == .preparing else { return }
        let seenBefore = movie.stalledDemuxerSeen
        withMovie { $0.stalledDemuxerSeen = demuxer }
        guard let demuxer, demuxer == seenBefore else { return }
        stalledDemuxerFound(session: session, demuxer: demuxer)
    }

    /// A demuxer of `session` stopped without exposing a stream while the movie was preparing
    /// (decodebin drops its error then, which would leave preparation waiting for ever).
    mutating func stalledDemuxerFound(session: Int, demuxer: String) {
        guard isCurrent(session), phase == .preparing else { return }
        let error = MediaError(
            .corruptContainer, "the container holds no stream that can be played",
            debugDetail: "\(demuxer) stopped without exposing a stream", element: demuxer)
        fail(session: session, interpreting: error, position: nil)
    }
}

extension PlayerMachine {
    /// When to look for a stalled demuxer after the stream's type was found.
    static let stalledDemuxerLooks: [Duration] = [
        .milliseconds(300), .milliseconds(800), .milliseconds(1500), .milliseconds(2500),
    ]
}
