/// A pre-roll: another movie (an ad) played before the content, in the same pipeline and through
/// the same output. While it plays, nothing about it is the content's: the pipeline's messages
/// go to the inputs here, never to the content's (``accepts(_:)`` is false), the content's
/// position stays at its start, and its duration and size are unknown until the content loads.
/// When the pre-roll ends, the content is loaded into the pipeline, playing or paused.
extension PlayerMachine {
    /// The pre-roll under way.
    struct Preroll {
        /// Hears how the pre-roll goes (``PrerollReport``), on the player's thread.
        let observer: @Sendable (PrerollReport) -> Void
        /// The content plays at once when the pre-roll completes or is skipped; otherwise it
        /// waits, prepared, for `play()`.
        let playsContentAfter: Bool
        /// Its first frame has shown.
        var started = false
        /// Its pipeline was asked to play (after its first preroll).
        var playing = false
        /// `pause()` paused it.
        var userPaused = false
        /// The network buffer ran low: paused until it refills.
        var starved = false
        /// Where it had got to, at the last tick.
        var position: Duration?
        /// The content is queued in the pipeline to follow without a gap (playbin's
        /// about-to-finish): the pre-roll ends at the content's stream start, not at an EOS.
        var handoverQueued = false
        /// The pre-roll's stream group (its STREAM_START); another group is the content's.
        var group: UInt32?
        /// The size of a frame that followed the pre-roll's own first one: the content's, after a
        /// gapless hand-over whose stream start the bus carried later.
        var contentFrameSize: VideoSize?
    }

    /// Whether a message of `session` is about the pre-roll now playing.
    func prerollAccepts(_ session: Int) -> Bool {
        preroll != nil && isCurrent(session) && epochSeen == epoch
    }

    // MARK: Commands

    /// Starts playing `media` before the content, through the player's output; completes when
    /// it ends (``lastPrerollEnd`` says how: a failure to play it completes with success too).
    /// Refused (``MediaError/Code/unsupportedOperation``) while the content plays or is about to,
    /// and while another pre-roll plays.
    mutating func beginPreroll(
        _ media: any MediaSource, playsContentAfter: Bool, timeout: Duration,
        observer: @escaping @Sendable (PrerollReport) -> Void
    ) -> Wait {
        guard preroll == nil else {
            return .done(.failure(MediaError(.unsupportedOperation, "a pre-roll is already playing")))
        }
        let busy: Bool =
            switch playbackState {
            case .playing, .interrupted, .seekingForward, .seekingBackward: true
            case .stopped, .paused: target == .playing && phase != .idle && !atEnd
            }
        guard !busy else {
            return .done(
                .failure(MediaError(.unsupportedOperation, "the content is playing (or about to): no pre-roll now")))
        }
        lastPrerollEnd = nil
        // The content is unloaded for the pre-roll, and loaded again after it.
        if phase != .idle {
            supersedeStateWaiters()
            setPlaybackState(.stopped)
            setReadyForDisplay(false)
            setPrepared(false)
            setLoadState(.unknown)
        }
        resetMovieInfo()
        lastPosition = initialPlaybackTime ?? .zero
        target = .paused
        pauseWhenPrepared = false
        // The content follows without a gap unless it starts with a seek (a playback range, a
        // rate, repeat mode), which only a load of its own applies before its first frame.
        let handsOver = playsContentAfter && !needsPreparationSeek
        preroll = Preroll(observer: observer, playsContentAfter: playsContentAfter, handoverQueued: handsOver)
        if hasSession {
            phase = .preparing
            epoch += 1
            perform(.reload(session: sessionID, source: media, epoch: epoch, holdFirstFrame: false))
            perform(.queueNext(session: sessionID, source: handsOver ? source : nil))
        } else {
            let id = beginSession()
            perform(
                .build(
                    PipelineBuild(
                        session: id, source: media, videoSink: videoSink, audioOutput: audioOutput,
                        presentation: presentation, buffering: bufferingPolicy, holdFirstFrame: false,
                        next: handsOver ? source : nil)))
        }
        perform(.schedulePrerollTimeout(session: sessionID, epoch: epoch, after: timeout))
        return .wait(waiter: addWaiter(.prerollEnded))
    }

    /// `skipPreroll()`: ends the pre-roll now; the content follows as after its end. Returns
    /// whether one was playing.
    mutating func skipPreroll(position: Duration?) -> Bool {
        guard preroll != nil else { return false }
        finishPreroll(.skipped, at: position ?? preroll?.position)
        return true
    }

    /// `pause()` during a pre-roll: it pauses where it is.
    mutating func pausePreroll() {
        guard var current = preroll, !current.userPaused else { return }
        current.userPaused = true
        preroll = current
        if current.playing { perform(.pause(session: sessionID)) }
        report(.paused)
    }

    /// `resumePreroll()`: a paused pre-roll plays on.
    mutating func resumePreroll() {
        guard var current = preroll, current.userPaused else { return }
        current.userPaused = false
        preroll = current
        if current.playing && !current.starved { perform(.play(session: sessionID)) }
        report(.resumed)
    }

    // MARK: Pipeline inputs

    /// The pre-roll's pipeline prerolled: it plays (unless paused meanwhile).
    mutating func prerollPrerolled(session: Int) {
        guard prerollAccepts(session), var current = preroll, !current.playing else { return }
        current.playing = true
        preroll = current
        if !current.userPaused && !current.starved { perform(.play(session: session)) }
    }

    /// The pre-roll's first frame reached the output.
    mutating func prerollFirstFrame(session: Int, duration: Duration?, displaySize: VideoSize) {
        guard prerollAccepts(session), var current = preroll else { return }
        if current.started {
            // The content's first frame, ahead of its stream start on the bus.
            if current.handoverQueued { preroll?.contentFrameSize = displaySize }
            return
        }
        current.started = true
        preroll = current
        report(.started(duration: duration))
        perform(.startPrerollTicks(session: session))
    }

    /// A tick while the pre-roll plays: where it is.
    mutating func prerollTick(session: Int, position: Duration?) {
        guard prerollAccepts(session), let position, preroll?.started == true, preroll?.position != position
        else { return }
        preroll?.position = position
        report(.position(position))
    }

    /// Every sink started a stream: the pre-roll's own first (its group is noted), or, after a
    /// gapless hand-over, the content's. Then the pre-roll has completed and the content is
    /// playing already: it is prepared with the pipeline's facts, and plays on.
    mutating func prerollStreamStarted(session: Int, group: UInt32, facts: PipelineFacts) {
        guard prerollAccepts(session), var current = preroll else { return }
        guard let first = current.group else {
            current.group = group
            preroll = current
            return
        }
        guard group != first, current.handoverQueued else { return }
        preroll = nil
        lastPrerollEnd = .completed
        perform(.stopPrerollTicks)
        perform(.reportPreroll(current.observer, .ended(.completed, at: current.position)))
        resolveWaiters(.prerollEnded)
        resetMovieInfo()
        epoch += 1
        epochSeen = epoch
        phase = .preparing
        pauseWhenPrepared = false
        target = .playing
        setSourceType(source.sourceType)
        if let size = current.contentFrameSize {
            setNaturalSize(size)
            setReadyForDisplay(true)
        }
        completePreparation(facts)
    }

    /// The pre-roll's network buffer: below 100 % it pauses, at 100 % it plays on.
    mutating func prerollBuffering(session: Int, percent: Int) {
        guard prerollAccepts(session), var current = preroll else { return }
        let starved = percent < 100
        guard starved != current.starved else { return }
        current.starved = starved
        preroll = current
        guard current.playing, !current.userPaused else { return }
        perform(starved ? .pause(session: session) : .play(session: session))
    }

    /// The pre-roll played to its end.
    mutating func prerollReachedEnd(session: Int, position: Duration?) {
        guard prerollAccepts(session) else { return }
        finishPreroll(.completed, at: position ?? preroll?.position)
    }

    /// The pre-roll failed (its source, its stream, a state change).
    mutating func prerollFailed(session: Int, error: MediaError) {
        guard prerollAccepts(session) || preroll != nil && session == sessionID else { return }
        finishPreroll(.failed(error), at: preroll?.position)
    }

    /// The pre-roll's first frame did not come in time.
    mutating func prerollTimedOut(session: Int, epoch: Int) {
        guard preroll != nil, isCurrent(session), epoch == self.epoch, preroll?.started == false else { return }
        finishPreroll(.timedOut, at: nil)
    }

    /// The pre-roll's pipeline reported an error.
    mutating func prerollError(session: Int, _ failure: PipelineFailure) {
        guard prerollAccepts(session) else { return }
        finishPreroll(.failed(errorContext.translate(failure)), at: preroll?.position)
    }

    /// typefind found the pre-roll's stream type: anything but a movie fails it.
    mutating func prerollStreamTypeFound(session: Int, caps: String) {
        guard prerollAccepts(session) else { return }
        errorContext.streamCaps = caps
        guard StreamTypePolicy.isPlayable(caps) else {
            let type = StreamTypePolicy.mediaType(of: caps)
            finishPreroll(
                .failed(MediaError(.notAMovie, "the ad's media is \(type), not a movie", debugDetail: caps)), at: nil)
            return
        }
    }

    /// Tells the pre-roll's observer, in order, on the player's thread.
    private mutating func report(_ report: PrerollReport) {
        guard let preroll else { return }
        perform(.reportPreroll(preroll.observer, report))
    }

    // MARK: The end

    /// Ends the pre-roll: its observer and waiter hear how, and the content is loaded into the
    /// pipeline: playing after a completed, skipped or interrupted pre-roll (as the request
    /// said), paused after a failed one. After ``Action/close(session:)`` nothing is loaded.
    mutating func finishPreroll(_ end: PrerollEnd, at position: Duration?) {
        guard let current = preroll else { return }
        preroll = nil
        lastPrerollEnd = end
        perform(.stopPrerollTicks)
        perform(.reportPreroll(current.observer, .ended(end, at: position)))
        resolveWaiters(.prerollEnded)
        // The content comes by a load of its own now, not after the pre-roll's last byte.
        if current.handoverQueued && hasSession { perform(.queueNext(session: sessionID, source: nil)) }
        let plays: Bool
        switch end {
        case .completed, .skipped: plays = current.playsContentAfter
        case .contentStarted: plays = true
        case .stopped: return
        case .timedOut, .failed: plays = false
        }
        guard hasSession else {
            // The pre-roll's pipeline was never built: the content is prepared as usual.
            phase = .idle
            if plays { beginPreparation(target: .playing) }
            return
        }
        loadContent(playing: plays)
    }

    /// Loads the content into the pipeline the pre-roll played in.
    private mutating func loadContent(playing: Bool) {
        resetMovieInfo()
        phase = .preparing
        pauseWhenPrepared = false
        target = playing ? .playing : .paused
        epoch += 1
        setSourceType(source.sourceType)
        perform(.reload(session: sessionID, source: source, epoch: epoch, holdFirstFrame: needsPreparationSeek))
        perform(.scheduleTimeout(session: sessionID, epoch: epoch))
    }
}
