/// Pipelines come and go: a preparation's new pipeline, the movie facts forgotten for the next
/// movie, and the end of a pipeline. And where a movie starts and ends.
extension PlayerMachine.State {
    // MARK: Sessions

    /// Starts a new preparation: a new session number and a pipeline to build, the previous
    /// movie's facts forgotten. Returns the new number.
    mutating func beginSession(target: Target) -> Int {
        let id = makeSessionID()
        resetMovieInfo()
        pipeline = PlayerMachine.Pipeline(session: id, target: target, stage: .preparing(pauseWhenPrepared: false))
        settings.videoSinkChanged = false
        setSourceType(expectedSourceType)
        return id
    }

    /// The pipeline of preparation `session` was built: it becomes the player's, unless a newer
    /// preparation or a stop replaced it meanwhile (then the owner closes it). Returns whether
    /// it was installed.
    mutating func pipelineBuilt(session: Int) -> Bool {
        guard var pipeline, pipeline.session == session, phase == .preparing, !pipeline.installed else {
            return false
        }
        pipeline.installed = true
        self.pipeline = pipeline
        perform(.startTimer(.preparation(session: session, epoch: epoch), after: preparationTimeout))
        perform(.startTimer(.fragmentGates(session: session, epoch: epoch), after: PlayerMachine.fragmentGateLimit))
        startConnectionDeadline()
        if let group { perform(.useGroupClock(session: session, latency: group.latency)) }
        return true
    }

    /// Forgets what was known about the previous movie (another one loads): its facts, and what
    /// the pipeline was doing with it.
    mutating func resetMovieInfo() {
        if facts.currentSubtitleTrack != nil {
            perform(.selectSubtitleTrack(session: sessionID, nil))
        }
        if facts.timedMetadata.reset() { publish(.timedMetadataChanged([])) }
        facts = PlayerMachine.MovieFacts()
        forgetGroupSetup()
        shown.lastError = nil
        shown.lastPosition = .zero
        atEnd = false
        withMovie { $0 = PlayerMachine.LoadedMovie() }
    }

    /// Prepares `source` in the pipeline there is (a new movie, or the content after its
    /// pre-roll): loads it, arms the preparation timeout and the connection deadline, and aims
    /// at playing or paused.
    mutating func prepareInPipeline(_ source: any MediaSource, playing: Bool) {
        setStage(.preparing)
        target = playing ? .playing : .paused
        setSourceType(expectedSourceType)
        load(source, holdFirstFrame: needsPreparationSeek)
        perform(.startTimer(.preparation(session: sessionID, epoch: epoch), after: preparationTimeout))
        startConnectionDeadline()
    }

    /// Loads `source` into the running pipeline in a new epoch: its preparation's timers start
    /// with it. What was queued to follow the movie before is dropped (the pipeline's reload
    /// clears its gapless gate).
    mutating func load(_ source: any MediaSource, holdFirstFrame: Bool) {
        bumpEpoch()
        clearUpNext()
        perform(
            .reload(
                session: sessionID, source: SourceRef(source), epoch: epoch, holdFirstFrame: holdFirstFrame))
        perform(.startTimer(.fragmentGates(session: sessionID, epoch: epoch), after: PlayerMachine.fragmentGateLimit))
    }

    /// Nothing is to follow the movie in the pipeline any more (another one loads).
    mutating func clearUpNext() {
        guard var pipeline, !pipeline.upNext.pending.isEmpty || !pipeline.upNext.handed.isEmpty else { return }
        pipeline.upNext.clear()
        self.pipeline = pipeline
        if pipeline.installed { perform(.setNextQueued(session: pipeline.session, false)) }
    }

    /// Ends the current pipeline (if any) and returns the player to idle, publishing what an app
    /// sees change; the pipeline is closed on the player's thread.
    mutating func detachSession(finish reason: FinishReason?, error: MediaError?, position: Duration?) {
        if preroll != nil { finishPreroll(.stopped, at: preroll?.position) }
        if scan != nil { perform(.cancelTimer(.scanStep)) }
        if hasSession { perform(.close(session: sessionID)) }
        if let position { shown.lastPosition = position }
        pipeline = nil
        if let error { shown.lastError = error }
        setPlaybackState(.stopped)
        setReadyForDisplay(false)
        setPrepared(false)
        setLoadState(.unknown)
        if facts.timedMetadata.reset() { publish(.timedMetadataChanged([])) }
        if let reason { publish(.playbackDidFinish(reason, error)) }
        failWaiters(error ?? MediaError(.cancelled, "playback was stopped"))
        requestPositionLook()
    }

    // MARK: Positions

    /// A plan that goes to `position` with the player's current range, rate and repeat mode.
    func plan(to position: Duration, accuracy: SeekPlan.Accuracy, rate: Double? = nil) -> SeekPlan {
        // A looping segment states its end: GStreamer starts the next pass's running time where
        // the segment's position stands, which is the end only when the segment has one
        // (otherwise it is the last frame's start, and the pass would begin a frame early).
        let looping = repeatMode == .one
        return SeekPlan(
            position: position, rate: rate ?? self.rate, accuracy: accuracy, flush: true, looping: looping,
            rangeStart: initialPlaybackTime, rangeEnd: playbackEnd ?? (looping ? duration : nil))
    }

    /// Where a movie starts: its initial playback time, or its end when playing backwards.
    var startPosition: Duration {
        if isReconnecting, let resumeAt = reconnection?.resumeAt { return resumeAt }
        return rate >= 0 ? (initialPlaybackTime ?? .zero) : (playbackEnd ?? duration ?? .zero)
    }

    /// Where a movie ends in the direction it plays: its end (or end playback time) forward, its
    /// initial playback time (or start) backward.
    var endPosition: Duration {
        rate >= 0 ? (playbackEnd ?? duration ?? .zero) : (initialPlaybackTime ?? .zero)
    }

    /// A position kept inside the movie and the playback range.
    func clamp(_ position: Duration) -> Duration {
        var clamped = position
        if let end = playbackEnd ?? duration { clamped = min(clamped, end) }
        return max(clamped, .zero)
    }

    /// Whether the movie needs a seek after its first preroll: a playback range, repeat mode or
    /// a rate other than 1 all live in the pipeline's segment, which only a seek sets.
    var needsPreparationSeek: Bool {
        initialPlaybackTime != nil || playbackEnd != nil || repeatMode == .one || rate != 1
            || isReconnecting && (reconnection?.resumeAt ?? .zero) > .zero
    }

    /// The decision state in one line, for diagnosing a stuck player (the stress check prints it).
    var diagnostics: String {
        "phase \(phase), target \(target), state \(playbackState), session \(sessionID)"
            + "\(hasSession ? "" : " (none)"), epoch \(epochSeen)/\(epoch), atEnd \(atEnd), "
            + "seek in flight \(inFlightSeek.map { "\($0.purpose) #\($0.seqnum) landing \(String(describing: $0.landing))" } ?? "none"), "
            + "queued \(queuedSeek != nil), waiters \(waiters.kinds), "
            + "preroll \(preroll.map { $0.started ? "started" : "loading" } ?? "none"), "
            + "reconnection \(reconnection.map { "\($0.attempt)\($0.underWay ? " under way" : "")" } ?? "none")"
    }
}

extension PlayerMachine {
    /// How far before its announced duration a movie may end and still count as complete:
    /// a frame or two of rounding, audio priming, an estimated duration.
    static func truncationTolerance(for duration: Duration) -> Duration {
        max(.milliseconds(500), duration / 50)
    }

    /// How long an adaptive stream's first fragment may take to preroll before its demuxer is let
    /// read ahead anyway (a first fragment too short to decode a picture from, say).
    static let fragmentGateLimit = Duration.milliseconds(750)
}
