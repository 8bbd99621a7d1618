/// Commands that start, pause and change the speed of playback.
extension PlayerMachine.State {
    /// `play()`: prepares first if needed; completes when the movie plays (or when a later
    /// command replaced this one). A movie at its end starts again from the beginning.
    mutating func play() -> Wait {
        if preroll != nil {
            // MPMoviePlayerController: content that starts during the ad stops the ad at once.
            finishPreroll(.contentStarted, at: preroll?.position)
            return .wait(waiter: addWaiter(.playbackState(.playing)))
        }
        pauseWhenPrepared = false
        switch phase {
        case .idle:
            beginPreparation(target: .playing)
            return .wait(waiter: addWaiter(.playbackState(.playing)))
        case .preparing:
            target = .playing
            supersedeStateWaiters()
            return .wait(waiter: addWaiter(.playbackState(.playing)))
        case .prepared:
            guard hasSession, scan == nil else { return .success }
            let pausing = target == .paused
            target = .playing
            supersedeStateWaiters()
            if playbackState == .playing {
                // Still playing, but a pause may be on its way to the pipeline: undo it.
                if pausing { perform(.play(session: sessionID)) }
                return .success
            }
            if atEnd {
                atEnd = false
                shown.lastPosition = startPosition
                startSeek(plan(to: startPosition, accuracy: .exact), purpose: .user)
            }
            if isStarved {
                // Not enough of the network movie yet: it plays once buffering reaches 100 %.
                setPlaybackState(.interrupted)
                return .wait(waiter: addWaiter(.playbackState(.playing)))
            }
            perform(.play(session: sessionID))
            return .wait(waiter: addWaiter(.playbackState(.playing)))
        }
    }

    /// `pause()`: completes when the movie is paused. During preparation, the prepared movie
    /// stays paused on its first frame and reports `.paused`; a scan ends first.
    mutating func pause(position: Duration?) -> Wait {
        if preroll != nil {
            pausePreroll()
            return .success
        }
        if scan != nil { endScan(position: position) }
        switch phase {
        case .idle:
            return .success
        case .preparing:
            target = .paused
            pauseWhenPrepared = true
            supersedeStateWaiters()
            // A prepared movie waiting to be loaded again plays what it had buffered: not any more.
            if pipelineHasPosition { perform(.pause(session: sessionID)) }
            return .wait(waiter: addWaiter(.prepared))
        case .prepared:
            guard hasSession else { return .success }
            target = .paused
            supersedeStateWaiters()
            if playbackState == .stopped && !atEnd {
                // Prepared and not started: the pipeline holds the first frame, paused, unless
                // autoplay's play is on its way; pausing it again costs nothing.
                setPlaybackState(.paused)
                perform(.pause(session: sessionID))
                return .success
            }
            guard playbackState == .playing || playbackState == .interrupted else { return .success }
            perform(.pause(session: sessionID))
            return .wait(waiter: addWaiter(.playbackState(.paused)))
        }
    }

    /// `setRate(_:)` with a valid rate: stored for later when nothing is prepared; applied at once
    /// otherwise: with an instant rate change (no flush, no visible jump) when the direction
    /// stays the same and no seek is under way, with a flushing seek at `position` otherwise.
    mutating func setRate(_ newRate: Double, position: Duration?) -> Wait {
        let previous = rate
        setRateAsked(newRate)
        guard phase == .prepared, hasSession, scan == nil else { return .success }
        // An instant rate change only between seeks: while a flushing seek is under way the
        // sinks have no segment to apply it to (GStreamer asserts), so a seek carries the rate.
        if (segmentRate >= 0) == (newRate >= 0) && inFlightSeek == nil {
            segmentRate = newRate
            let seqnum = makeSeqnum()
            withMovie { $0.pendingInstantRate = seqnum }
            perform(.instantRate(session: sessionID, rate: newRate, seqnum: seqnum))
            requestPositionLook()
            return .success
        }
        // Mid-seek the pipeline knows no position: the seek under way says where it goes.
        let here = position ?? inFlightSeek?.plan.position ?? lastPosition
        startSeek(plan(to: here, accuracy: .exact, rate: newRate), purpose: .rate, revertingRateTo: previous)
        return .wait(waiter: addWaiter(.seeksSettled))
    }

    /// The pipeline refused an instant rate change: the rate goes in with a flushing seek.
    mutating func instantRateRefused(session: Int, rate: Double, position: Duration?) {
        guard isCurrent(session), phase == .prepared, scan == nil, rate == self.rate else { return }
        let here = position ?? inFlightSeek?.plan.position ?? lastPosition
        startSeek(plan(to: here, accuracy: .exact, rate: rate), purpose: .rate)
    }

    /// An instant rate change reached a sink (its copy of the event, taken out on the way so that
    /// no streaming thread posts the sink's request while the player's thread changes the
    /// pipeline's state). Only the first sink's copy of the change sent last is applied, and only
    /// if nothing flushed since: a copy pushed again after a flush (the event is sticky and
    /// outlives FLUSH_STOP) would apply the old multiplier on top of the rate the flushing seek
    /// already set, and would reach sinks that have no segment yet. Every seek and reload carries
    /// the player's rate itself. When a sink has no TIME segment (not expected between seeks), the
    /// rates are left as they were rather than split between the sinks.
    mutating func instantRateReachedSink(
        session: Int, seqnum: UInt32, multiplier: Double, sink: SinkKind, sinksHaveTimeSegments: Bool
    ) {
        guard isCurrent(session), movie.pendingInstantRate == seqnum else { return }
        withMovie { $0.pendingInstantRate = nil }
        guard sinksHaveTimeSegments else { return }
        perform(.requestInstantRate(session: session, sink: sink, multiplier: multiplier, seqnum: seqnum))
    }
}
