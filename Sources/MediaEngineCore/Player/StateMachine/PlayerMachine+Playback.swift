/// Commands that start, pause and change the speed of playback.
extension PlayerMachine {
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
                lastPosition = startPosition
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

    /// Validates a rate: any finite value from 0.25 to 8 times normal speed, forward or backward.
    static func validate(rate: Double) throws(MediaError) {
        if rate == 0 {
            throw MediaError(.invalidArgument, "a playback rate of 0 is not a rate; call pause() to pause")
        }
        guard rate.isFinite, (0.25...8).contains(abs(rate)) else {
            throw MediaError(
                .invalidArgument, "a playback rate must be between 0.25 and 8 (or -8 and -0.25), not \(rate)")
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
            perform(.instantRate(session: sessionID, rate: newRate))
            perform(.rearmTimeObservers)
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
}
