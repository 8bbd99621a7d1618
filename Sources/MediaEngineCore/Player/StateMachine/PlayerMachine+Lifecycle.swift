extension PlayerMachine {
    /// What a command found: finished already, or the waiter whose resume completes it.
    enum Wait: Equatable {
        case done(Result<Void, MediaError>)
        case wait(waiter: Int)

        static let success = Wait.done(.success(()))
        static let stopped = Wait.done(.failure(MediaError(.cancelled, "playback was stopped")))

        static func == (lhs: Wait, rhs: Wait) -> Bool {
            switch (lhs, rhs) {
            case (.done(.success), .done(.success)): true
            case (.done(.failure(let a)), .done(.failure(let b))): a.code == b.code
            case (.wait(let a), .wait(let b)): a == b
            default: false
            }
        }
    }

    /// What the pipeline could tell when a message came (queried by the owner before the input,
    /// when ``PlayerMachine/needsFacts(session:firstFrame:)`` says it may matter).
    struct PipelineFacts: Sendable, Equatable {
        var position: Duration?
        var duration: Duration?
        var mediaTypes: MovieMediaTypes = []
        /// The source is cut short (asked of it once per movie, while preparing).
        var truncation: MovieTruncation?
        /// The audio and subtitle tracks (read while preparing).
        var audioTracks: [MediaTrack] = []
        var subtitleTracks: [MediaTrack] = []
    }
}

/// Preparing, replacing, failing, stopping and releasing: how a movie comes and goes.
extension PlayerMachine.State {
    // MARK: Commands

    /// `prepareToPlay()`: builds a pipeline unless one is prepared or being prepared; completes
    /// when the movie's first frame is ready.
    mutating func prepare() -> Wait {
        switch phase {
        case .prepared:
            return .success
        case .preparing:
            return .wait(waiter: addWaiter(.prepared))
        case .idle:
            // A grouped player never starts by itself: its group says when.
            beginPreparation(target: settings.shouldAutoplay && !isGrouped ? .playing : .paused)
            return .wait(waiter: addWaiter(.prepared))
        }
    }

    /// Starts a new pipeline for the current source.
    mutating func beginPreparation(target: Target) {
        let id = beginSession(target: target)
        perform(
            .build(
                PipelineBuild(
                    session: id, source: SourceRef(source), videoSink: videoSink, audioOutput: settings.audioOutput,
                    presentation: presentation, buffering: settings.bufferingPolicy,
                    holdFirstFrame: needsPreparationSeek, gain: gain)))
    }

    /// The `contentURL` setter, as MPMoviePlayerController has it: "the movie pauses and the new
    /// movie begins loading". The current movie is paused (if it played) and replaced, with no
    /// playback finish for it; `newSource` loads in its place, in the same pipeline when the sink
    /// has not changed, and plays if the old one was playing or `shouldAutoplay` is on.
    mutating func replaceSource(with newSource: any MediaSource) {
        if preroll != nil { finishPreroll(.stopped, at: preroll?.position) }
        settings.source = newSource
        shown.lastError = nil
        guard phase != .idle, hasSession else {
            if phase == .preparing {
                // The first pipeline is still being built for the old movie: build the new one's
                // instead (the old build finds a newer session number and is closed).
                beginPreparation(target: target)
            }
            publish(.nowPlayingMovieChanged)
            return
        }
        let wantsPlay = (target == .playing || settings.shouldAutoplay) && !isGrouped
        if scan != nil {
            scan = nil
            perform(.cancelTimer(.scanStep))
        }
        // The old movie pauses; nothing finishes.
        if playbackState != .stopped { setPlaybackState(.paused) }
        if settings.videoSinkChanged {
            // Another sink was chosen since this pipeline was built: a new pipeline.
            detachSession(finish: nil, error: MediaError(.cancelled, "a new movie replaced this one"), position: .zero)
            shown.lastError = nil
            publish(.nowPlayingMovieChanged)
            beginPreparation(target: wantsPlay ? .playing : .paused)
            return
        }
        setReadyForDisplay(false)
        setPrepared(false)
        setLoadState(.unknown)
        failWaiters(MediaError(.cancelled, "a new movie replaced this one"))
        publish(.nowPlayingMovieChanged)
        resetMovieInfo()
        prepareInPipeline(newSource, playing: wantsPlay)
    }

    /// `stop()`: the state says stopped at once, at the start of the movie (MPMoviePlayerController:
    /// "playback will commence from the beginning"); the pipeline is torn down.
    mutating func stop() {
        guard phase != .idle else {
            shown.lastPosition = .zero
            return
        }
        // A stop during a pre-roll ends the pre-roll; the content had not started.
        detachSession(finish: atEnd || preroll != nil ? nil : .userExited, error: nil, position: .zero)
    }

    /// The owner let go: everything ends, with no finish event.
    mutating func release() {
        detachSession(finish: nil, error: nil, position: nil)
    }

    // MARK: Pipeline inputs

    /// Building or loading the pipeline of `session` failed, or the pipeline failed later (an
    /// error, a refused state change, a bad window): the session ends with `error`.
    mutating func pipelineFailed(session: Int, error: MediaError, position: Duration? = nil) {
        guard session == sessionID, phase != .idle else { return }
        if preroll != nil { return finishPreroll(.failed(error), at: preroll?.position) }
        detachSession(finish: .playbackError, error: error, position: position)
    }

    /// A failure that the source may make more precise first (it may read its file, which the
    /// machine never does): the source is asked on the player's thread
    /// (``PlayerMachine/Action/interpret(session:epoch:source:error:position:)``), and the movie
    /// ends (or, with `mayReconnect`, reconnects when the failure may pass) when the answer comes
    /// (``failureInterpreted(session:epoch:error:position:)``). Nothing else ends the movie meanwhile.
    mutating func fail(session: Int, interpreting error: MediaError, position: Duration?, mayReconnect: Bool = false) {
        guard isCurrent(session), movie.interpreting == nil else { return }
        withMovie { $0.interpreting = PlayerMachine.InterpretedFailure(mayReconnect: mayReconnect) }
        perform(
            .interpret(session: session, epoch: epoch, source: SourceRef(source), error: error, position: position))
    }

    /// The source's answer about a failure (``fail(session:interpreting:position:mayReconnect:)``):
    /// a network failure that may pass reconnects; anything else ends the movie with it.
    mutating func failureInterpreted(session: Int, epoch: Int, error: MediaError, position: Duration?) {
        guard isCurrent(session), epoch == self.epoch, let failure = movie.interpreting else { return }
        withMovie { $0.interpreting = nil }
        if failure.mayReconnect, reconnect(session: session, after: error, position: position) { return }
        pipelineFailed(session: session, error: error, position: position)
    }

    /// The preparation timeout of `session` (and `epoch`, when the pipeline was reused) ran out.
    mutating func preparationTimedOut(session: Int, epoch: Int) {
        guard session == sessionID, epoch == self.epoch, phase == .preparing, preroll == nil else { return }
        pipelineFailed(
            session: session,
            error: MediaError(.timedOut, "the movie did not become ready within \(preparationTimeout)"))
    }

    /// Preparation is over: the movie's facts are published, waiters resume, and playback starts
    /// if the app wants it (shouldAutoplay, or play() during preparation).
    mutating func completePreparation(_ facts: PipelineFacts) {
        guard hasSession, phase == .preparing else { return }
        connectionDeadlineMet()
        if isReconnecting {
            if reconnection?.wasPrepared == true { return finishReconnection(facts) }
            reconnection?.underWay = false
        }
        let pauseRequested = pauseWhenPrepared
        setStage(.prepared)
        setDuration(facts.duration)
        setMediaTypes(facts.mediaTypes)
        setTracks(audio: facts.audioTracks, subtitles: facts.subtitleTracks)
        noteTruncation(facts.truncation)
        // A local file can always play through; a movie read over a network has to earn it
        // (buffering reaches 100 %, and the download keeps up).
        setLoadState(loadStateWhenPrepared)
        if !self.facts.metadata.isEmpty { publish(.metadataAvailable(self.facts.metadata)) }
        setPrepared(true)
        if target == .paused && pauseRequested {
            // pause() during preparation: prepared and paused.
            setPlaybackState(.paused)
        }
        resolveWaiters(.prepared)
        requeueNext()
        if isGrouped {
            // The group says what the prepared movie does, from the group clock's time.
            requestGroupClock()
            return
        }
        if target == .playing && scan == nil && playbackState != .interrupted {
            if isStarved {
                // shouldAutoplay on a network movie: it starts once enough is buffered.
                setPlaybackState(.interrupted)
            } else {
                perform(.play(session: sessionID))
            }
        }
    }
}
