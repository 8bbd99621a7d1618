extension PlayerMachine {
    /// A reconnection under way, or the last one (its count of tries stays until playback moves on).
    struct Reconnection: Equatable {
        /// Retries since playback last moved past a failure.
        var attempt: Int
        /// Where the last failure stopped playback (nil before the movie was prepared): the count
        /// starts again once playback has moved on from there.
        var failedAt: Duration?
        /// Where the movie starts again: the failure's position, or where a seek asked for
        /// meanwhile; nil for where a first start begins (a live stream's edge).
        var resumeAt: Duration?
        /// The movie was prepared when the load failed: finishing the reload publishes no
        /// preparation events, and playback goes on as it was.
        var wasPrepared: Bool
        /// A seek was asked for while reconnecting: its waiters and its event come when the
        /// movie is back.
        var seekAsked = false
        /// The movie is being loaded again (or waits for it); false once it is back.
        var underWay = true
        /// The wait is over and the movie is being loaded again: the old pipeline's position no
        /// longer means anything.
        var reloading = false
        /// The failure the wait is for: it ends the movie if the deadline passes before the
        /// next try (``PlayerMachine/State/connectionDeadlinePassed(session:epoch:)``).
        var lastError: MediaError?
    }

    /// How far playback has to get past a failure for the next one to count from 1 again.
    static let reconnectionProgress = Duration.seconds(1)

    /// How long the pipeline is given, when a reconnection's wait is over, to bring the frame on
    /// its way to the sink there before its position is read.
    static let reconnectionSettle = Duration.milliseconds(200)
}

/// Network failures that may pass (a broken connection, a server briefly unavailable): the
/// movie is loaded again in the same pipeline after a growing wait (the source's
/// ``RetryPolicy``), at the position playback had reached, with no new preparation events. A
/// refused connection is tried again only when the policy asks for it, and no try starts once
/// the policy's deadline is over (``PlayerMachine/State/connectionDeadlinePassed``).
extension PlayerMachine.State {
    /// Whether a reconnection is under way.
    var isReconnecting: Bool { reconnection?.underWay ?? false }

    /// A pipeline error of a network movie: when the source's policy retries it (it may pass:
    /// ``RetryPolicy/retries(after:)``), has tries left and its deadline is not over, the movie
    /// is loaded again after the policy's wait (``reconnectWaitOver(session:epoch:)``) and
    /// nothing ends. Returns whether it was.
    mutating func reconnect(session: Int, after error: MediaError, position: Duration?) -> Bool {
        let policy = source.retryPolicy
        guard isNetworkSource, phase != .idle, scan == nil, policy.retries(after: error), !connectionDeadlinePassed
        else { return false }
        let again = isReconnecting
        let wasPrepared = phase == .prepared || again && reconnection?.wasPrepared == true
        // Where playback stood: a seek on its way (or waiting its turn) counts as done.
        var failedAt = again ? reconnection?.failedAt : (wasPrepared ? position ?? lastPosition : nil)
        var resumeAt = again ? reconnection?.resumeAt : failedAt
        var seekAsked = again && reconnection?.seekAsked == true
        let askedSeek = queuedSeek?.plan ?? (inFlightSeek?.purpose == .user ? inFlightSeek?.plan : nil)
        if !again, wasPrepared, let askedSeek {
            resumeAt = askedSeek.position
            seekAsked = true
        }
        var attempt = (reconnection?.attempt ?? 0) + 1
        if !again, let previous = reconnection?.failedAt, let here = failedAt,
            here > previous + PlayerMachine.reconnectionProgress
        {
            attempt = 1
        }
        guard attempt <= policy.attempts else { return false }
        let delay = policy.delay(beforeAttempt: attempt)
        // A live stream starts again at its live edge, as it did at first.
        if isStreaming && duration == nil { resumeAt = nil }
        if failedAt == nil { failedAt = reconnection?.failedAt }
        reconnection = PlayerMachine.Reconnection(
            attempt: attempt, failedAt: failedAt, resumeAt: resumeAt.map(clamp), wasPrepared: wasPrepared,
            seekAsked: seekAsked, lastError: error)
        if let resumeAt { shown.lastPosition = clamp(resumeAt) }
        // Messages of the failed load are ignored from now on; the reload's marker starts the next.
        bumpEpoch()
        // A movie that was going has its deadline from this failure on (one that was not has
        // had its own since its load).
        if !again, wasPrepared { startConnectionDeadline() }
        errorContext = PipelineErrorTranslator()
        if let flight = inFlightSeek {
            perform(.cancelTimer(.seekDeadline(session: session, seqnum: flight.seqnum)))
        }
        inFlightSeek = nil
        queuedSeek = nil
        setStage(.preparing)
        publish(.reconnecting(attempt: attempt, delay: delay, error: error))
        // What was buffered before the failure plays on during the wait (so a short outage may
        // go unseen); the movie is loaded again where playback has got to by then.
        if wasPrepared { setLoadState([.playable, .stalled]) }
        perform(.startTimer(.reconnect(session: session, epoch: epoch), after: delay))
        return true
    }

    /// Whether the pipeline's position is the movie's: when prepared, and while a prepared
    /// movie waits to be loaded again (what was buffered plays on).
    var pipelineHasPosition: Bool {
        phase == .prepared
            || isReconnecting && reconnection?.wasPrepared == true && reconnection?.reloading == false
    }

    /// The wait before a reconnection's try is over. What was buffered played on during the
    /// wait: the movie comes back where it got to, after the last frame shown. The pipeline is
    /// paused first, and the frame on its way to the sink let arrive (it is the one on screen
    /// then; the clock's position can be a frame or two behind it): ``pipelineSettled(session:epoch:position:)``.
    mutating func reconnectWaitOver(session: Int, epoch: Int) {
        guard isCurrent(session), epoch == self.epoch, isReconnecting, phase == .preparing else { return }
        if pipelineHasPosition {
            perform(.settle(session: session, epoch: epoch, within: PlayerMachine.reconnectionSettle))
        } else {
            reconnectDue(session: session, epoch: epoch, position: nil)
        }
    }

    /// The pipeline settled after a reconnection's wait (``PlayerMachine/Action/settle(session:epoch:within:)``):
    /// playback got to `position`.
    mutating func pipelineSettled(session: Int, epoch: Int, position: Duration?) {
        reconnectDue(session: session, epoch: epoch, position: position)
    }

    /// The movie is loaded again (unless a stop, a new movie or another failure came meanwhile).
    /// `position` is where the old pipeline's playback has got to (what was buffered played on
    /// during the wait); the movie comes back there, unless a seek asked for another place.
    mutating func reconnectDue(session: Int, epoch: Int, position: Duration?) {
        guard isCurrent(session), epoch == self.epoch, isReconnecting, phase == .preparing,
            var reconnection
        else { return }
        reconnection.reloading = true
        if reconnection.wasPrepared, !reconnection.seekAsked, reconnection.resumeAt != nil, let position {
            reconnection.resumeAt = clamp(position)
            shown.lastPosition = clamp(position)
        }
        self.reconnection = reconnection
        if playbackState == .playing { setPlaybackState(.interrupted) }
        withMovie { movie in
            movie.buffering = nil
            movie.downloadComplete = false
            movie.pausedForBuffering = false
        }
        // The same movie in the epoch the failure began (its failed load's messages are behind).
        clearUpNext()
        perform(
            .reload(
                session: session, source: SourceRef(source), epoch: epoch, holdFirstFrame: needsPreparationSeek))
        perform(.startTimer(.fragmentGates(session: session, epoch: epoch), after: PlayerMachine.fragmentGateLimit))
        perform(.startTimer(.preparation(session: session, epoch: epoch), after: preparationTimeout))
    }

    /// A seek asked for while reconnecting moves where the movie starts again; it completes
    /// when the movie is back (a waiter, when `waiting`). Returns nil when no reconnection is
    /// under way.
    mutating func seekWhileReconnecting(to position: Duration, accuracy: SeekPlan.Accuracy, waiting: Bool) -> Wait? {
        guard isReconnecting, reconnection?.wasPrepared == true else { return nil }
        if inFlightSeek != nil {
            // The seek to the old position is on its way: this one follows it.
            queuedSeek = PlayerMachine.QueuedSeek(plan: plan(to: clamp(position), accuracy: accuracy), purpose: .user)
        } else {
            let target = clamp(position)
            reconnection?.resumeAt = target
            reconnection?.seekAsked = true
            shown.lastPosition = target
        }
        return waiting ? .wait(waiter: addWaiter(.seeksSettled)) : .success
    }

    /// The movie that was prepared is back after a reconnection: playback goes on as the app
    /// last asked (playing, or paused), and seeks asked for meanwhile complete.
    mutating func finishReconnection(_ facts: PipelineFacts) {
        setStage(.prepared)
        reconnection?.underWay = false
        setLoadState(loadStateWhenPrepared)
        resolveWaiters(.prepared)
        requeueNext()  // the reload cleared what was queued behind the movie
        if reconnection?.seekAsked == true {
            reconnection?.seekAsked = false
            publish(.seekCompleted(lastPosition))
        }
        if let queued = queuedSeek {
            queuedSeek = nil
            startSeek(queued.plan, purpose: queued.purpose)
        } else {
            resolveSeekWaiters()
        }
        if target == .playing {
            if isStarved {
                setPlaybackState(.interrupted)
            } else {
                perform(.play(session: sessionID))
            }
        } else {
            if playbackState == .playing || playbackState == .interrupted { setPlaybackState(.paused) }
        }
    }
}
