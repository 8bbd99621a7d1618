extension PlayerMachine {
    /// A seek in flight and why it was sent.
    struct InFlightSeek {
        /// `group`: a seek the player's group asked for (``PlayerMachine/Membership``).
        enum Purpose { case user, preparation, loop, rate, group }
        let seqnum: UInt32
        let plan: SeekPlan
        let purpose: Purpose
        /// Where the seek's first frame is, once it has reached the video output.
        var landing: Duration?
        /// An ASYNC_DONE came before the first frame's message: the frame lands the seek at once.
        var prerolled = false
        /// What the pipeline told at that ASYNC_DONE (the tracks and truncation a preparation
        /// reads), for a seek that lands without its frame when its grace passes.
        var prerolledFacts: PlayerMachine.PipelineFacts?
        /// The marker posted just before the seek was sent has passed the bus: an ASYNC_DONE
        /// from now on may be the seek's; one before it was an earlier state change's.
        var markerSeen = false
        /// The segment's rate and looping before this seek, restored if the pipeline refuses it.
        var previousSegment: (rate: Double, looping: Bool)
        /// A rate change's seek: the rate asked for before, restored if the pipeline refuses it.
        var rateBefore: Double?
        /// A pause was on its way when the seek was sent (the app's pause, or a group's pause on
        /// its frame, then an exact seek at once): the pause's own preroll, of a frame from
        /// before the seek, can post its ASYNC_DONE after the seek's marker. The seek's own
        /// ASYNC_DONE always follows its first frame's message (posted on the streaming thread
        /// on the frame's way to the sink), so an ASYNC_DONE ahead of the frame is then the
        /// pause's: the seek lands at the next one, once the sink holds the seek's frame (found
        /// by engine-bench's sync benchmark: a member's picture one frame off when its seek was
        /// announced).
        var followsPause = false
    }

    /// A seek waiting for the one in flight to land.
    struct QueuedSeek {
        var plan: SeekPlan
        let purpose: InFlightSeek.Purpose
        var rateBefore: Double?
    }

    /// How long a seek whose pipeline prerolled waits for its frame before it lands without one.
    /// The frame's message follows the ASYNC_DONE by milliseconds on a loaded machine; landing a
    /// moment early only reports the pipeline's position instead of the frame's.
    static let seekFrameGrace: Duration = .seconds(1)
}

/// Seeking: user seeks that coalesce while one is in flight, the seek that applies the playback
/// range and repeat mode after preparation, gapless loops, keyframe snapping, and the playback
/// range itself.
extension PlayerMachine.State {
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
    mutating func startSeek(
        _ plan: SeekPlan, purpose: PlayerMachine.InFlightSeek.Purpose, revertingRateTo rateBefore: Double? = nil
    ) {
        if inFlightSeek != nil && (purpose == .user || purpose == .rate || purpose == .group) {
            if purpose == .rate, var queued = queuedSeek {
                queued.plan.rate = plan.rate
                queued.plan.accuracy = plan.accuracy
                queued.rateBefore = queued.rateBefore ?? rateBefore
                queuedSeek = queued
            } else {
                queuedSeek = PlayerMachine.QueuedSeek(plan: plan, purpose: purpose, rateBefore: rateBefore)
            }
            return
        }
        let seqnum = makeSeqnum()
        inFlightSeek = PlayerMachine.InFlightSeek(
            seqnum: seqnum, plan: plan, purpose: purpose, previousSegment: (segmentRate, looping),
            rateBefore: rateBefore, followsPause: target == .paused && playbackState == .playing)
        segmentRate = plan.rate
        looping = plan.looping
        atEnd = false
        if plan.flush, isNetworkSource, buffering?.stats.mode != .download {
            // Streamed, not downloaded to a file: the source asks the server again from the new
            // place, and what it had delivered is flushed. Its new end says so again.
            downloadComplete = false
        }
        sendFlushingSeek(plan, seqnum: seqnum)
    }

    /// Sends a flushing seek: a forward keyframe seek becomes an exact seek to the video keyframe
    /// at or before its position when the source knows its keyframes (read from it the first
    /// time, ``keyframeTimesRead(session:epoch:times:)``). It flushes whatever the pipeline held
    /// from before: repeat mode's loop held while paused, an instant rate change on its way. The
    /// seek's deadline starts with it.
    private mutating func sendFlushingSeek(_ plan: SeekPlan, seqnum: UInt32) {
        timedMetadataSeekSent(seqnum: seqnum, plan: plan)
        withMovie { movie in
            movie.heldLoop = nil
            movie.pendingLoop = nil
            movie.pendingInstantRate = nil
            movie.seekAwaitingKeyframes = nil
        }
        var sent = plan
        if plan.accuracy == .keyFrame, plan.rate > 0, workarounds.snapsKeyframeSeeks {
            guard let known = movie.keyframes else {
                withMovie { $0.seekAwaitingKeyframes = (plan, seqnum) }
                perform(.readKeyframeTimes(session: sessionID, epoch: epoch, source: SourceRef(source)))
                return
            }
            if let times = known, let snapped = Self.keyframeSnapped(plan, times: times) { sent = snapped }
        }
        perform(.seek(session: sessionID, plan: sent, seqnum: seqnum))
        perform(.startTimer(.seekDeadline(session: sessionID, seqnum: seqnum), after: preparationTimeout))
    }

    /// The source's video keyframes were read (nil: it cannot tell); a keyframe seek that waited
    /// for them goes now.
    mutating func keyframeTimesRead(session: Int, epoch: Int, times: [Duration]?) {
        guard isCurrent(session), epoch == self.epoch else { return }
        withMovie { $0.keyframes = .some(times) }
        guard let waiting = movie.seekAwaitingKeyframes, inFlightSeek?.seqnum == waiting.seqnum else { return }
        withMovie { $0.seekAwaitingKeyframes = nil }
        sendFlushingSeek(waiting.plan, seqnum: waiting.seqnum)
    }

    /// A keyframe seek made exact, to the video keyframe at or before its position; nil when it
    /// should go as it is.
    ///
    /// qtdemux snaps a KEY_UNIT seek to the earliest keyframe of *all* streams before the target,
    /// and every audio frame is a keyframe: the seek landed on an audio frame's start, up to one
    /// audio frame before the video keyframe, and the video then decoded a whole GOP from the
    /// keyframe before that. An accurate seek to the keyframe's own time decodes one picture.
    /// Backward seeks keep the demuxer's snapping (the keyframe to decode from is after them).
    static func keyframeSnapped(_ plan: SeekPlan, times: [Duration]) -> SeekPlan? {
        guard plan.accuracy == .keyFrame, plan.rate > 0, let first = times.first else { return nil }
        // The last keyframe at or before the position (the first one if the position is before it).
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= plan.position { low = middle + 1 } else { high = middle }
        }
        var snapped = plan
        snapped.position = low == 0 ? first : times[low - 1]
        if let end = plan.rangeEnd, snapped.position >= end { return nil }
        snapped.accuracy = .exact
        return snapped
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
        perform(.cancelTimer(.seekDeadline(session: session, seqnum: seqnum)))
        if let rateBefore = flight.rateBefore { setRateAsked(rateBefore) }
        resolveSeekWaiters(.failure(error))
        if flight.purpose == .preparation { pipelineFailed(session: session, error: error) }
    }

    /// Whether a seek deadline's firing needs the pipeline's facts (the seek is still in flight).
    func seekDeadlineMatters(session: Int, seqnum: UInt32) -> Bool {
        isCurrent(session) && inFlightSeek?.seqnum == seqnum
    }

    /// Seek `seqnum` had not landed when its deadline (``PlayerMachine/seekFrameGrace`` after a
    /// preroll without its frame, else the preparation timeout) passed. When the pipeline prerolled
    /// after it without a frame from the new position (a damaged stream there), it lands where the
    /// pipeline is. When the pipeline never prerolled again, it is stuck (the demuxer found nothing
    /// to push): the movie fails with ``MediaError/Code/timedOut``, which fails the seek's waiters too.
    mutating func seekDeadlinePassed(session: Int, seqnum: UInt32, facts: PipelineFacts) {
        guard isCurrent(session), let flight = inFlightSeek, flight.seqnum == seqnum else { return }
        if flight.prerolled || (flight.followsPause && flight.landing != nil) {
            // What the preroll told, with where the pipeline is now.
            var landing = flight.prerolledFacts ?? facts
            landing.position = facts.position
            landing.duration = facts.duration ?? landing.duration
            if !facts.mediaTypes.isEmpty { landing.mediaTypes = facts.mediaTypes }
            landSeek(seqnum: seqnum, at: facts.position, facts: landing)
            return
        }
        pipelineFailed(
            session: session,
            error: MediaError(
                .timedOut,
                "the seek to \(flight.plan.position.formattedSeconds) did not complete within "
                    + "\(preparationTimeout.formattedSeconds): the movie's data there may be damaged"),
            position: facts.position)
    }

    /// A seek landed (its first frame reached the video output, or the pipeline prerolled
    /// without one): announce it, then send the queued seek or complete the waiters.
    mutating func landSeek(seqnum: UInt32?, at position: Duration?, facts: PipelineFacts) {
        guard hasSession, let flight = inFlightSeek, seqnum == nil || flight.seqnum == seqnum else { return }
        inFlightSeek = nil
        perform(.cancelTimer(.seekDeadline(session: sessionID, seqnum: flight.seqnum)))
        let landed = position ?? flight.plan.position
        shown.lastPosition = landed
        requestPositionLook()
        if flight.purpose == .preparation {
            completePreparation(facts)
            return
        }
        if flight.purpose == .user || flight.purpose == .group { publish(.seekCompleted(landed)) }
        if let queued = queuedSeek {
            queuedSeek = nil
            startSeek(queued.plan, purpose: queued.purpose, revertingRateTo: queued.rateBefore)
            return
        }
        resolveSeekWaiters()
        if flight.purpose == .group { groupSeekLanded(at: landed) }
    }

    // MARK: Range and repeat

    /// Sets where playback starts and ends (validated). Applied at once when prepared (the end by
    /// restarting the segment at `position`, the current one), and at the next start otherwise.
    mutating func setPlaybackRange(initial: Duration?, end: Duration?, position: Duration?) {
        settings.initialPlaybackTime = initial
        settings.endPlaybackTime = end
        if phase == .prepared { restartSegment(at: position) }
    }

    /// Sets the repeat mode. While prepared, the segment restarts at `position` (the current one)
    /// in the new mode: looping segments end with SEGMENT_DONE (and loop without a gap), others
    /// with EOS.
    mutating func setRepeatMode(_ mode: RepeatMode, position: Duration?) {
        settings.repeatMode = mode
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

    // MARK: Loops

    /// The end of a looping segment: start the next pass without flushing, so it follows the
    /// last frame without a gap, once the pipeline can take it (``loopTimingRead(session:seqnum:timing:)``).
    /// If the repeat mode was turned off in the meantime, go to the end in a normal segment
    /// instead, which ends with EOS.
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
        withMovie { $0.loops += 1 }
        publish(.didLoop(movie.loops))
        // Not a flushing seek: nothing to land, so not in flight either.
        let seqnum = makeSeqnum()
        timedMetadataSeekSent(seqnum: seqnum, plan: plan)
        withMovie { $0.pendingLoop = LoopSeek(plan: plan, seqnum: seqnum) }
        perform(.readLoopTiming(session: session, seqnum: seqnum))
    }

    /// When the pipeline can take the loop `seqnum` (``LoopSeekTiming``): now, it goes; later (the
    /// pipeline is paused, its sinks holding their frame), it is held until the player plays
    /// (``perform(_:)`` sends it after the play); never (being shut down), it is dropped. A
    /// flushing seek decided meanwhile dropped it already: it restarts the stream with a segment
    /// of its own, which loops again at its end.
    mutating func loopTimingRead(session: Int, seqnum: UInt32, timing: LoopSeekTiming) {
        guard isCurrent(session), let loop = movie.pendingLoop, loop.seqnum == seqnum else { return }
        withMovie { $0.pendingLoop = nil }
        switch timing {
        case .now: perform(.sendLoop(session: session, plan: loop.plan, seqnum: loop.seqnum))
        case .later: withMovie { $0.heldLoop = loop }
        case .never: break
        }
    }

    /// The player sets the pipeline to PLAYING: the loop held while it was paused goes now.
    mutating func sendHeldLoop(session: Int) {
        guard let loop = movie.heldLoop else { return }
        withMovie { $0.heldLoop = nil }
        perform(.sendLoop(session: session, plan: loop.plan, seqnum: loop.seqnum))
    }
}
