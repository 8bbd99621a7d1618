/// Seeking: user seeks that coalesce while one is in flight, the seek that applies the playback
/// range and repeat mode after preparation, gapless loops, and the playback range itself.
extension PlayerMachine {
    /// A seek in flight and why it was sent.
    struct InFlightSeek {
        enum Purpose { case user, preparation, loop, rate }
        let seqnum: UInt32
        let plan: SeekPlan
        let purpose: Purpose
        /// Where the seek's first frame is, once it has reached the video output.
        var landing: Duration?
        /// An ASYNC_DONE came before the first frame's message: the frame lands the seek at once.
        var prerolled = false
        /// The marker posted just before the seek was sent has passed the bus: an ASYNC_DONE
        /// from now on may be the seek's; one before it was an earlier state change's.
        var markerSeen = false
        /// The segment's rate and looping before this seek, restored if the pipeline refuses it.
        var previousSegment: (rate: Double, looping: Bool)
        /// A rate change's seek: the rate asked for before, restored if the pipeline refuses it.
        var rateBefore: Double?
    }

    /// A seek waiting for the one in flight to land.
    struct QueuedSeek {
        var plan: SeekPlan
        let purpose: InFlightSeek.Purpose
        var rateBefore: Double?
    }

    /// `seek(to:option:)` on a prepared movie: completes when the frame at the new position is
    /// ready (or, if later seeks replaced this one, when the last of them is).
    mutating func seek(to position: Duration, exact: Bool) -> Wait {
        if let wait = seekWhileReconnecting(to: position, accuracy: exact ? .exact : .keyFrame, waiting: true) {
            return wait
        }
        guard phase == .prepared, hasSession else {
            return .done(
                .failure(MediaError(.notPrepared, "seeking needs a prepared player; call prepareToPlay() first")))
        }
        startSeek(plan(to: clamp(position), accuracy: exact ? .exact : .keyFrame), purpose: .user)
        return .wait(waiter: addWaiter(.seeksSettled))
    }

    /// A seek that shows the frame at `position` again in a new output (after a swap while paused).
    mutating func repaint(session: Int, at position: Duration) -> Wait {
        guard isCurrent(session), phase == .prepared else { return .stopped }
        // A play() on its way (or playing): the next frames show the overlays; a seek back to
        // the paused frame would show it twice.
        guard target != .playing else { return .success }
        startSeek(plan(to: position, accuracy: .exact), purpose: .rate)
        return .wait(waiter: addWaiter(.seeksSettled))
    }

    /// The `currentPlaybackTime` setter: an exact seek nobody waits for; ignored unless prepared.
    mutating func requestSeek(to position: Duration) {
        guard position >= .zero else { return }
        if seekWhileReconnecting(to: position, accuracy: .exact, waiting: false) != nil { return }
        guard phase == .prepared, hasSession else { return }
        startSeek(plan(to: clamp(position), accuracy: .exact), purpose: .user)
    }

    /// Starts a seek, or queues it behind the one in flight. One seek is in the pipeline at a
    /// time (an ASYNC_DONE carries no sequence number, so two at once could not be told apart):
    /// user seeks coalesce, the newest replacing any queued one; a rate seek (a rate change, a
    /// scan) behind a queued user seek gives it its rate and keeps its position.
    mutating func startSeek(_ plan: SeekPlan, purpose: InFlightSeek.Purpose, revertingRateTo rateBefore: Double? = nil)
    {
        if inFlightSeek != nil && (purpose == .user || purpose == .rate) {
            if purpose == .rate, var queued = queuedSeek {
                queued.plan.rate = plan.rate
                queued.plan.accuracy = plan.accuracy
                queued.rateBefore = queued.rateBefore ?? rateBefore
                queuedSeek = queued
            } else {
                queuedSeek = QueuedSeek(plan: plan, purpose: purpose, rateBefore: rateBefore)
            }
            return
        }
        let seqnum = makeSeqnum()
        inFlightSeek = InFlightSeek(
            seqnum: seqnum, plan: plan, purpose: purpose, previousSegment: (segmentRate, looping),
            rateBefore: rateBefore)
        segmentRate = plan.rate
        looping = plan.looping
        atEnd = false
        if plan.flush, isNetworkSource, buffering?.stats.mode != .download {
            // Streamed, not downloaded to a file: the source asks the server again from the new
            // place, and what it had delivered is flushed. Its new end says so again.
            downloadComplete = false
        }
        perform(.seek(session: sessionID, plan: plan, seqnum: seqnum))
    }

    /// The marker of seek `seqnum` passed the bus (it was posted just before the seek was sent).
    mutating func seekMarkerArrived(session: Int, seqnum: UInt32) {
        guard accepts(session), inFlightSeek?.seqnum == seqnum else { return }
        inFlightSeek?.markerSeen = true
    }

    /// The pipeline refused seek `seqnum` (or it could not be made): its waiters fail; a
    /// preparation's seek fails the preparation; a rate change's seek gives back the old rate.
    mutating func seekRefused(session: Int, seqnum: UInt32) {
        guard isCurrent(session), let flight = inFlightSeek, flight.seqnum == seqnum else { return }
        let error =
            flight.plan.rate < 0
            ? MediaError(.unsupportedOperation, "this movie's demuxer cannot play backwards")
            : MediaError(.pipelineFailure, "the pipeline refused the seek")
        (segmentRate, looping) = flight.previousSegment
        inFlightSeek = nil
        queuedSeek = nil
        if let rateBefore = flight.rateBefore { setRateAsked(rateBefore) }
        resolveSeekWaiters(.failure(error))
        if flight.purpose == .preparation { pipelineFailed(session: session, error: error) }
    }

    /// How long a seek whose pipeline prerolled waits for its frame before it lands without one.
    /// The frame's message follows the ASYNC_DONE by milliseconds on a loaded machine; landing a
    /// moment early only reports the pipeline's position instead of the frame's.
    static let seekFrameGrace: Duration = .seconds(1)

    /// Seek `seqnum` had not landed when its deadline (``seekFrameGrace`` after a preroll without
    /// its frame, else the preparation timeout, `timeout`) passed. When the pipeline prerolled after it without a frame from the new position (a
    /// damaged stream there), it lands where the pipeline is. When the pipeline never prerolled
    /// again, it is stuck (the demuxer found nothing to push): the movie fails with
    /// ``MediaError/Code/timedOut``, which fails the seek's waiters too.
    mutating func seekDeadlinePassed(session: Int, seqnum: UInt32, after timeout: Duration, facts: PipelineFacts) {
        guard isCurrent(session), let flight = inFlightSeek, flight.seqnum == seqnum else { return }
        if flight.prerolled {
            landSeek(seqnum: seqnum, at: facts.position, facts: facts)
            return
        }
        pipelineFailed(
            session: session,
            error: MediaError(
                .timedOut,
                "the seek to \(flight.plan.position.formattedSeconds) did not complete within "
                    + "\(timeout.formattedSeconds): the movie's data there may be damaged"),
            position: facts.position)
    }

    /// A seek landed (its first frame reached the video output, or the pipeline prerolled
    /// without one): announce it, then send the queued seek or complete the waiters.
    mutating func landSeek(seqnum: UInt32?, at position: Duration?, facts: PipelineFacts) {
        guard hasSession, let flight = inFlightSeek, seqnum == nil || flight.seqnum == seqnum else { return }
        inFlightSeek = nil
        let landed = position ?? flight.plan.position
        lastPosition = landed
        perform(.rearmTimeObservers)
        if flight.purpose == .preparation {
            completePreparation(facts)
            return
        }
        if flight.purpose == .user { publish(.seekCompleted(landed)) }
        if let queued = queuedSeek {
            queuedSeek = nil
            startSeek(queued.plan, purpose: queued.purpose, revertingRateTo: queued.rateBefore)
            return
        }
        resolveSeekWaiters()
    }

    // MARK: Range and repeat

    /// Validates a playback range.
    static func validateRange(initial: Duration?, end: Duration?) throws(MediaError) {
        if let initial, initial < .zero {
            throw MediaError(.invalidArgument, "the initial playback time cannot be negative (\(initial))")
        }
        if let end, end <= .zero {
            throw MediaError(.invalidArgument, "the end playback time must be after the start (\(end))")
        }
        if let initial, let end, end <= initial {
            throw MediaError(
                .invalidArgument, "the end playback time (\(end)) must come after the initial one (\(initial))")
        }
    }

    /// Sets where playback starts and ends (validated). Applied at once when prepared (the end by
    /// restarting the segment at `position`, the current one), and at the next start otherwise.
    mutating func setPlaybackRange(initial: Duration?, end: Duration?, position: Duration?) {
        initialPlaybackTime = initial
        endPlaybackTime = end
        if phase == .prepared { restartSegment(at: position) }
    }

    /// Sets the repeat mode. While prepared, the segment restarts at `position` (the current one)
    /// in the new mode: looping segments end with SEGMENT_DONE (and loop without a gap), others
    /// with EOS.
    mutating func setRepeatMode(_ mode: RepeatMode, position: Duration?) {
        repeatMode = mode
        // A queue's next item depends on it (the first again after the last in repeat-all).
        requeueNext()
        guard (mode == .one) != looping, phase == .prepared else { return }
        restartSegment(at: position)
    }

    /// Re-seeks to `position` so the segment takes the current range and repeat mode.
    private mutating func restartSegment(at position: Duration?) {
        guard hasSession, scan == nil, let position else { return }
        let target = max(initialPlaybackTime ?? .zero, min(position, playbackEnd ?? position))
        startSeek(plan(to: target, accuracy: .exact), purpose: .user)
    }

    /// The end of a looping segment: start the next pass without flushing, so it follows the
    /// last frame without a gap. If the repeat mode was turned off in the meantime, go to the end
    /// in a normal segment instead, which ends with EOS.
    mutating func segmentDone(session: Int) {
        guard accepts(session), scan == nil else { return }
        guard repeatMode == .one else {
            var plan = plan(to: endPosition, accuracy: .keyFrame)
            plan.looping = false
            startSeek(plan, purpose: .loop)
            return
        }
        var plan = plan(to: startPosition, accuracy: .exact)
        plan.flush = false
        loops += 1
        publish(.didLoop(loops))
        // Not a flushing seek: nothing to land, so not in flight either.
        perform(.seek(session: sessionID, plan: plan, seqnum: makeSeqnum()))
    }
}
