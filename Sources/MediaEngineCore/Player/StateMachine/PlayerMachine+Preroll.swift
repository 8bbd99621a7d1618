/// Pre-rolls: other movies (ads) played before the content, one after another, in the same
/// pipeline and through the same output. While they play, nothing about them is the content's:
/// the pipeline's messages go to the inputs here, never to the content's (``accepts(_:)`` is
/// false), the content's position stays at its start, and its duration and size are unknown
/// until the content loads.
///
/// Each item is queued behind the one before it in the pipeline (playbin's about-to-finish), so
/// the next starts without a gap; so does the content after the last, unless it starts with a
/// seek or waits for `play()`. A skipped item is followed by a load of the next one. When the
/// last item ends, the content is loaded, playing or paused, unless it already plays.
extension PlayerMachine {
    /// Hears how each item goes: its index and the report, on the player's thread.
    typealias PrerollObserver = @Sendable (Int, PrerollReport) -> Void

    /// The pre-rolls under way.
    struct Preroll {
        let items: [any MediaSource]
        /// Each item's id, and the content's, for ``UpNext``.
        let itemIDs: [Int]
        let contentID: Int
        /// How long an item's first frame may take.
        let timeout: Duration
        /// The content plays at once when the last item completes or is skipped; otherwise it
        /// waits, prepared, for `play()`.
        let playsContentAfter: Bool
        /// The content follows the last item without a gap (no seek to start it, and it plays).
        let handsOverToContent: Bool
        /// The item playing.
        var index = 0
        /// Its first frame has shown.
        var started = false
        /// The pipeline was asked to play (after its first preroll).
        var playing = false
        /// `pause()` paused it.
        var userPaused = false
        /// The network buffer ran low: paused until it refills.
        var starved = false
        /// Where the item had got to, at the last tick.
        var position: Duration?
        /// The item's stream group (its STREAM_START); another group is the next movie's.
        var group: UInt32?
        /// The size of a frame that followed the item's own first one: the next movie's, whose
        /// stream start the bus carries later.
        var nextFrameSize: VideoSize?

        /// What is queued to follow the item now playing: the next items, then the content.
        func queued(content: any MediaSource) -> [UpNext.Item] {
            let later = (index + 1..<items.count).map { UpNext.Item(id: itemIDs[$0], source: items[$0]) }
            return later + (handsOverToContent ? [UpNext.Item(id: contentID, source: content)] : [])
        }

        /// The id of the item playing.
        var playingID: Int { itemIDs[index] }
    }
}

extension PlayerMachine.State {
    /// Whether a message of `session` is about the pre-roll now playing.
    func prerollAccepts(_ session: Int) -> Bool {
        preroll != nil && isCurrent(session) && epochSeen == epoch
    }

    // MARK: Commands

    /// Starts playing `items` before the content, in order, through the player's output;
    /// completes when the last ends, or one fails, or the content starts (``PlayerMachine/Shown/lastPrerollEnd``
    /// says how; a failure completes with success too). Refused
    /// (``MediaError/Code/unsupportedOperation``) while the content plays or is about to, while
    /// another pre-roll plays, and with no items. How each item goes is reported with
    /// ``PlayerMachine/Action/reportPreroll(item:_:)``.
    mutating func beginPreroll(_ items: [any MediaSource], playsContentAfter: Bool, timeout: Duration) -> Wait {
        guard preroll == nil, !items.isEmpty else {
            return .done(
                .failure(MediaError(.unsupportedOperation, "a pre-roll is already playing, or none was given")))
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
        shown.lastPrerollEnd = nil
        // The content is unloaded for the pre-roll, and loaded again after it.
        if phase != .idle {
            supersedeStateWaiters()
            resolveSeekWaiters(.failure(MediaError(.cancelled, "a pre-roll unloaded the movie before the seek landed")))
            setPlaybackState(.stopped)
            setReadyForDisplay(false)
            setPrepared(false)
            setLoadState(.unknown)
        }
        resetMovieInfo()
        shown.lastPosition = initialPlaybackTime ?? .zero
        // The content follows without a gap unless it starts with a seek (a playback range, a
        // rate, repeat mode), which only a load of its own applies before its first frame.
        let ids = items.map { _ in makeItemID() }
        let current = PlayerMachine.Preroll(
            items: items, itemIDs: ids, contentID: makeItemID(), timeout: timeout,
            playsContentAfter: playsContentAfter, handsOverToContent: playsContentAfter && !needsPreparationSeek)
        let next = current.queued(content: source)
        if hasSession {
            setStage(.preparing)
            target = .paused
            preroll = current
            load(items[0], holdFirstFrame: false)
            queueNext(next, playing: current.playingID)
        } else {
            let id = beginSession(target: .paused)
            preroll = current
            // The pipeline is built with what follows the first item queued already.
            pipeline?.upNext.replace(with: next, playing: current.playingID)
            perform(
                .build(
                    PipelineBuild(
                        session: id, source: SourceRef(items[0]), videoSink: videoSink,
                        audioOutput: settings.audioOutput, presentation: presentation,
                        buffering: settings.bufferingPolicy, holdFirstFrame: false, nextQueued: !next.isEmpty,
                        gain: gain)))
        }
        perform(
            .startTimer(
                .prerollTimeout(session: sessionID, epoch: epoch, item: 0), after: timeout))
        return .wait(waiter: addWaiter(.prerollEnded))
    }

    /// `skipPreroll()`: ends the item playing now; the next follows (or the content, as after
    /// the last item's end). Returns whether one was playing.
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
        if isCurrent(session) { perform(.openFragmentGates(session: session)) }
        guard prerollAccepts(session), var current = preroll, !current.playing else { return }
        current.playing = true
        preroll = current
        if !current.userPaused && !current.starved { perform(.play(session: session)) }
    }

    /// A first frame reached the output: the item's, or (after it) the next movie's.
    mutating func prerollFirstFrame(session: Int, duration: Duration?, displaySize: VideoSize) {
        guard prerollAccepts(session), var current = preroll else { return }
        if current.started {
            // The next movie's first frame, ahead of its stream start on the bus.
            preroll?.nextFrameSize = displaySize
            return
        }
        current.started = true
        preroll = current
        report(.started(duration: duration))
        perform(.startTimer(.prerollTick(session: session), after: .milliseconds(100), repeating: .milliseconds(100)))
    }

    /// A tick while the pre-roll plays: where it is.
    mutating func prerollTick(session: Int, position: Duration?) {
        guard prerollAccepts(session), let position, preroll?.started == true, preroll?.position != position
        else { return }
        preroll?.position = position
        report(.position(position))
    }

    /// Every sink started a stream: the item's own first (its group is noted), or, after a
    /// gapless hand-over, the next movie's: the next item, which has started (its first frame
    /// came) or is about to, or the content, which is then prepared with the pipeline's facts
    /// while it already plays.
    mutating func prerollStreamStarted(session: Int, group: UInt32, facts: PipelineFacts) {
        guard prerollAccepts(session), var current = preroll else { return }
        guard let first = current.group else {
            current.group = group
            preroll = current
            return
        }
        guard group != first, !current.queued(content: source).isEmpty else { return }
        let frameSize = current.nextFrameSize
        if current.index + 1 < current.items.count {
            report(.ended(.completed, at: current.position))
            current.index += 1
            current.started = false
            current.position = nil
            current.group = group
            current.nextFrameSize = nil
            preroll = current
            queueNext(current.queued(content: source), playing: current.playingID)
            perform(
                .startTimer(
                    .prerollTimeout(session: session, epoch: epoch, item: current.index), after: current.timeout))
            if let frameSize { prerollFirstFrame(session: session, duration: facts.duration, displaySize: frameSize) }
            return
        }
        endPrerolls(.completed, at: current.position)
        pipeline?.upNext.replace(with: [], playing: current.contentID)  // started: no longer on its way
        if let frameSize {
            setNaturalSize(frameSize)
            setReadyForDisplay(true)
        }
        preparePlayingMovie(group: group, facts: facts)
    }

    /// Whether a stream start of `group` would hand the pipeline over to the next movie (so the
    /// owner asks the pipeline for its facts only then, not at the pre-roll's own start).
    func prerollHandsOver(session: Int, group: UInt32) -> Bool {
        guard prerollAccepts(session), let current = preroll, let first = current.group else { return false }
        return group != first && !current.queued(content: source).isEmpty
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

    /// The item played to its end (with nothing queued behind it).
    mutating func prerollReachedEnd(session: Int, position: Duration?) {
        guard prerollAccepts(session) else { return }
        finishPreroll(.completed, at: position ?? preroll?.position)
    }

    /// The item failed (its source, its stream, a state change).
    mutating func prerollFailed(session: Int, error: MediaError) {
        guard prerollAccepts(session) || preroll != nil && session == sessionID else { return }
        finishPreroll(.failed(error), at: preroll?.position)
    }

    /// The item's pipeline reported an error.
    mutating func prerollError(session: Int, _ failure: PipelineFailure) {
        guard prerollAccepts(session) else { return }
        finishPreroll(.failed(errorContext.translate(failure)), at: preroll?.position)
    }

    /// typefind found the item's stream type: anything but a movie fails it.
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

    /// Item `item`'s first frame did not come in time.
    mutating func prerollTimedOut(session: Int, epoch: Int, item: Int) {
        guard let current = preroll, isCurrent(session), epoch == self.epoch, current.index == item, !current.started
        else { return }
        finishPreroll(.timedOut, at: nil)
    }

    /// Tells the pre-roll's observer about the item playing, in order, on the player's thread.
    mutating func report(_ report: PrerollReport) {
        guard let preroll else { return }
        perform(.reportPreroll(item: preroll.index, report))
    }

    // MARK: The end

    /// The item playing ends. A completed or skipped item that is not the last is followed by a
    /// load of the next; otherwise the pre-roll is over (its observer and waiter hear how) and the
    /// content is loaded into the pipeline: playing after a completed or skipped last item (as the
    /// request said) or `play()`, paused after a failure. After a stop nothing is loaded.
    mutating func finishPreroll(_ end: PrerollEnd, at position: Duration?) {
        guard var current = preroll else { return }
        if end == .completed || end == .skipped, current.index + 1 < current.items.count, hasSession {
            report(.ended(end, at: position))
            perform(.cancelTimer(.prerollTick(session: sessionID)))
            current.index += 1
            current.started = false
            current.playing = false
            current.position = nil
            current.group = nil
            current.nextFrameSize = nil
            preroll = current
            load(current.items[current.index], holdFirstFrame: false)
            queueNext(current.queued(content: source), playing: current.playingID)
            perform(
                .startTimer(
                    .prerollTimeout(session: sessionID, epoch: epoch, item: current.index), after: current.timeout))
            return
        }
        endPrerolls(end, at: position)
        // The content comes by a load of its own now, not after the item's last byte.
        if hasSession { queueNext([], playing: nil) }
        let plays: Bool
        switch end {
        case .completed, .skipped: plays = current.playsContentAfter
        case .contentStarted: plays = true
        case .stopped: return
        case .timedOut, .failed: plays = false
        }
        guard hasSession else {
            // The pre-roll's pipeline was never built: the content is prepared as usual.
            pipeline = nil
            if plays { beginPreparation(target: .playing) }
            return
        }
        loadContent(playing: plays)
    }

    /// The pre-roll is over: the item playing ends with `end`, the waiter hears it, and the
    /// content's facts start afresh.
    private mutating func endPrerolls(_ end: PrerollEnd, at position: Duration?) {
        report(.ended(end, at: position))
        preroll = nil
        shown.lastPrerollEnd = end
        perform(.cancelTimer(.prerollTick(session: sessionID)))
        resolveWaiters(.prerollEnded)
        resetMovieInfo()
    }

    /// Loads the content into the pipeline the pre-roll played in.
    private mutating func loadContent(playing: Bool) {
        prepareInPipeline(source, playing: playing)
    }
}
