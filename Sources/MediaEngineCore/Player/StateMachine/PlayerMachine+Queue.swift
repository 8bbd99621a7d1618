/// A queue of movies played one after another through the same pipeline and output (AVQueuePlayer's
/// place): each next movie is queued behind the one playing (playbin's about-to-finish) and takes
/// over at its stream start without a gap; a movie that starts with a seek (a range, a rate) or a
/// skip to another item is loaded on its own instead.
///
/// What the pipeline goes on to is kept here only: ``PlayerMachine/Pipeline/upNext`` (the movies not
/// handed yet, and those handed that have not started), which playbin's about-to-finish asks
/// (``aboutToFinish(session:gateOpen:)``), and which the gapless gate in the pipeline is told about
/// (``PlayerMachine/Action/setNextQueued(session:_:)``).
extension PlayerMachine.State {
    /// The item after the current one: the next, or the first again in repeat-all; nil at the end.
    var nextQueueIndex: Int? { queue.next(in: repeatMode) }

    /// The item before the current one (the last again in repeat-all).
    var previousQueueIndex: Int? { queue.previous(in: repeatMode) }

    /// What the pipeline should go on to without a gap after the movie playing, in order: the
    /// rest of the queue (once round, in repeat-all).
    var gaplessUpcoming: [UpNext.Item] {
        guard preroll == nil, !needsPreparationSeek else { return [] }
        return queue.upcoming(in: repeatMode)
    }

    // MARK: Commands

    /// `setQueue(_:startingAt:)`: the items, and the one to play now (loaded in place of the
    /// current movie, as a new source is).
    mutating func setQueue(_ items: [any MediaSource], startingAt start: Int) -> Result<Void, MediaError> {
        guard !items.isEmpty else {
            queue.replace(with: [])
            if hasSession { queueNext([], playing: nil) }
            return .success(())
        }
        guard items.indices.contains(start) else {
            return .failure(MediaError(.invalidArgument, "item \(start) is not in a queue of \(items.count)"))
        }
        queue.replace(with: items)
        goToQueueItem(start)
        return .success(())
    }

    /// `advanceToNextItem()` / `returnToPreviousItem()`: loads that item in place of the current
    /// one (playing if the current one was). Returns whether there was one.
    mutating func skipInQueue(forward: Bool) -> Bool {
        guard let target = forward ? nextQueueIndex : previousQueueIndex else { return false }
        goToQueueItem(target)
        return true
    }

    /// `insert(_:at:)`: the queue grows; the item queued behind the current one follows suit.
    mutating func insertInQueue(_ item: any MediaSource, at index: Int) -> Result<Void, MediaError> {
        guard (0...queue.items.count).contains(index), queue.index != nil else {
            return .failure(MediaError(.invalidArgument, "no queue, or no place \(index) in it"))
        }
        queue.insert(item, at: index)
        requeueNext()
        return .success(())
    }

    /// `removeItem(at:)`: any item but the one playing.
    mutating func removeFromQueue(at index: Int) -> Result<Void, MediaError> {
        guard let current = queue.index, queue.items.indices.contains(index), index != current else {
            return .failure(MediaError(.invalidArgument, "no item \(index) to remove (the one playing cannot be)"))
        }
        queue.remove(at: index)
        requeueNext()
        return .success(())
    }

    // MARK: Pipeline inputs

    /// The movie playing now has its stream group: noted the first time; a new group afterwards
    /// is the next item, which the pipeline went on to without a gap: it is announced and
    /// prepared from the pipeline's facts while it plays. A movie the pipeline had been handed
    /// that is no longer next (the queue changed after playbin took it) ends the one before. A
    /// new group with no movie handed is the same movie's (an adaptive stream's next period), now
    /// the one at the output.
    mutating func contentStreamStarted(session: Int, group: UInt32, facts: PipelineFacts) {
        if preroll != nil { return prerollStreamStarted(session: session, group: group, facts: facts) }
        guard accepts(session) else { return }
        guard let seen = contentGroup else {
            contentGroup = group
            return
        }
        guard group != seen else { return }
        guard let started = pipeline?.upNext.handed.first else {
            contentGroup = group
            return
        }
        guard queuedGapless, let next = nextQueueIndex, queue.ids[next] == started else {
            return withdrawnMovieStarted(session: session)
        }
        queue.select(next)
        settings.source = queue.items[next]
        let frameSize = naturalSize
        resetMovieInfo()
        publish(.nowPlayingMovieChanged)
        publish(.queueItemChanged(next))
        if frameSize != .zero { self.facts.naturalSize = frameSize }
        preparePlayingMovie(group: group, facts: facts)
    }

    /// Whether a stream start of `group` is a gapless hand-over the machine will prepare the next
    /// movie from, so the owner reads the pipeline's facts of that group (only then).
    func needsHandOverFacts(session: Int, group: UInt32) -> Bool {
        if preroll != nil { return prerollHandsOver(session: session, group: group) }
        return accepts(session) && queuedGapless && contentGroup != nil
    }

    /// The pipeline went on to the player's movie without a gap (its stream `group` started, after
    /// a pre-roll or a queue's previous movie): it is prepared from the pipeline's facts while it
    /// already plays; nothing is loaded. Its group is noted (after the facts of the previous movie
    /// were forgotten), to tell the movie after it.
    mutating func preparePlayingMovie(group: UInt32, facts: PipelineFacts) {
        contentGroup = group
        bumpEpoch()
        let epoch = self.epoch
        pipeline?.epochSeen = epoch
        setStage(.preparing)
        target = .playing
        setSourceType(expectedSourceType)
        completePreparation(facts)
    }

    /// The pipeline went on to a movie the queue no longer has next (removed, or the queue
    /// replaced, after playbin had read ahead into it): the movie before ended there. The next
    /// item, if any, is loaded on its own; otherwise the queue ends, and the pipeline, which is
    /// playing the withdrawn movie, is closed (a later `play()` prepares the movie again).
    /// The movie ended normally, as at ``endOfStream(session:position:)``: a `play()` or seek still
    /// waiting (the new group can come before the pipeline says it plays) completes, not cancelled.
    mutating func withdrawnMovieStarted(session: Int) {
        if repeatMode != .one, advanceAfterEnd() { return }
        supersedeStateWaiters()
        resolveSeekWaiters()
        detachSession(finish: .playbackEnded, error: nil, position: playbackEnd ?? duration)
    }

    /// The movie ended with nothing queued behind it: the next item, if any, is loaded on its own.
    /// Returns whether one was.
    mutating func advanceAfterEnd() -> Bool {
        guard let next = nextQueueIndex else { return false }
        // Ended, not stopped: no userExited for it (nor a finish event: the queue plays on).
        atEnd = true
        goToQueueItem(next, playing: true)
        return true
    }

    // MARK: What the pipeline goes on to

    /// playbin's about-to-finish, from the streaming thread that reads the movie's last bytes:
    /// the next movie to hand over, if any, now counted as handed. When the pipeline's gapless
    /// gate refuses (`gateOpen` false: a stream's end already went on to wait in the stream
    /// synchronizer, where a switch would deadlock), nothing is handed and nothing is queued any
    /// more: the movie ends with EOS, and the player loads the next one on its own.
    mutating func aboutToFinish(session: Int, gateOpen: Bool) -> (any MediaSource)? {
        guard isCurrent(session), var pipeline else { return nil }
        guard gateOpen else {
            pipeline.upNext.clear()
            self.pipeline = pipeline
            perform(.setNextQueued(session: session, false))
            return nil
        }
        guard let next = pipeline.upNext.take() else { return nil }
        self.pipeline = pipeline
        perform(.setNextQueued(session: session, !pipeline.upNext.pending.isEmpty))
        return next
    }

    /// Sets (or clears, with none) the movies the pipeline goes on to without a gap, in order,
    /// after the one playing (its id). A movie playbin already took that the list no longer has
    /// next is withdrawn: its pictures and sound are dropped from its start, or from now if it
    /// started, and the player reloads or closes at its start. Hand-over n is the movie's stream
    /// group n + 1 (the first movie is group 1).
    mutating func queueNext(_ upcoming: [UpNext.Item], playing: Int?) {
        guard hasSession, var pipeline else { return }
        let withdrawn = pipeline.upNext.replace(with: upcoming, playing: playing)
        self.pipeline = pipeline
        if let withdrawn { perform(.withdrawHandOvers(session: sessionID, fromGroup: UInt32(withdrawn + 1))) }
        perform(.setNextQueued(session: sessionID, !pipeline.upNext.pending.isEmpty))
    }

    // MARK: Helpers

    /// Loads item `index` in place of the current movie and announces it.
    private mutating func goToQueueItem(_ index: Int, playing: Bool? = nil) {
        queue.select(index)
        queuedGapless = false
        let wantsPlay = playing ?? (target == .playing || settings.shouldAutoplay)
        replaceSource(with: queue.items[index])
        if phase != .idle { target = wantsPlay ? .playing : .paused }
        publish(.queueItemChanged(index))
    }

    /// Queues (or clears) the item behind the current one in the pipeline, after a change of the
    /// queue or when the current movie is prepared.
    mutating func requeueNext() {
        guard hasSession, phase == .prepared, preroll == nil, let current = queue.index else { return }
        let upcoming = gaplessUpcoming
        queuedGapless = !upcoming.isEmpty
        queueNext(upcoming, playing: queue.ids[current])
    }
}
