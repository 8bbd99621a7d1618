/// A queue of movies played one after another through the same pipeline and output (AVQueuePlayer's
/// place): each next movie is queued behind the one playing (playbin's about-to-finish) and takes
/// over at its stream start without a gap; a movie that starts with a seek (a range, a rate) or a
/// skip to another item is loaded on its own instead.
extension PlayerMachine {
    /// The item after the current one: the next, or the first again in repeat-all; nil at the end.
    var nextQueueIndex: Int? {
        guard let index = queueIndex, !queue.isEmpty, repeatMode != .one else { return nil }
        if index + 1 < queue.count { return index + 1 }
        return repeatMode == .all ? 0 : nil
    }

    /// The item before the current one (the last again in repeat-all).
    var previousQueueIndex: Int? {
        guard let index = queueIndex, !queue.isEmpty else { return nil }
        if index > 0 { return index - 1 }
        return repeatMode == .all ? queue.count - 1 : nil
    }

    /// What the pipeline should go on to without a gap after the movie playing, in order: the
    /// rest of the queue (once round, in repeat-all).
    var gaplessUpcoming: [UpNext.Item] {
        guard preroll == nil, !needsPreparationSeek, let current = queueIndex, repeatMode != .one else { return [] }
        var items: [UpNext.Item] = []
        var index = current
        for _ in 0..<max(0, queue.count - 1) {
            if index + 1 < queue.count {
                index += 1
            } else if repeatMode == .all {
                index = 0
            } else {
                break
            }
            items.append(UpNext.Item(id: queueIDs[index], source: queue[index]))
        }
        if repeatMode == .all, !queue.isEmpty, items.count == queue.count - 1 {
            items.append(UpNext.Item(id: queueIDs[current], source: queue[current]))
        }
        return items
    }

    // MARK: Commands

    /// `setQueue(_:startingAt:)`: the items, and the one to play now (loaded in place of the
    /// current movie, as a new source is).
    mutating func setQueue(_ items: [any MediaSource], startingAt start: Int) -> Result<Void, MediaError> {
        guard !items.isEmpty else {
            queue = []
            queueIDs = []
            queueIndex = nil
            if hasSession { perform(.queueNext(session: sessionID, upcoming: [], playing: nil)) }
            return .success(())
        }
        guard items.indices.contains(start) else {
            return .failure(MediaError(.invalidArgument, "item \(start) is not in a queue of \(items.count)"))
        }
        queue = items
        queueIDs = items.map { _ in makeItemID() }
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
        guard (0...queue.count).contains(index), let current = queueIndex else {
            return .failure(MediaError(.invalidArgument, "no queue, or no place \(index) in it"))
        }
        queue.insert(item, at: index)
        queueIDs.insert(makeItemID(), at: index)
        if index <= current { queueIndex = current + 1 }
        requeueNext()
        return .success(())
    }

    /// `removeItem(at:)`: any item but the one playing.
    mutating func removeFromQueue(at index: Int) -> Result<Void, MediaError> {
        guard let current = queueIndex, queue.indices.contains(index), index != current else {
            return .failure(MediaError(.invalidArgument, "no item \(index) to remove (the one playing cannot be)"))
        }
        queue.remove(at: index)
        queueIDs.remove(at: index)
        if index < current { queueIndex = current - 1 }
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
        guard accepts(session) else { return }
        guard let seen = contentGroup else {
            contentGroup = group
            return
        }
        guard group != seen else { return }
        guard let started = facts.startedItem else {
            contentGroup = group
            return
        }
        guard queuedGapless, let next = nextQueueIndex, queueIDs[next] == started else {
            return withdrawnMovieStarted(session: session)
        }
        queueIndex = next
        source = queue[next]
        let frameSize = naturalSize
        resetMovieInfo()
        publish(.nowPlayingMovieChanged)
        publish(.queueItemChanged(next))
        if frameSize != .zero { naturalSize = frameSize }
        preparePlayingMovie(group: group, facts: facts)
    }

    /// The pipeline went on to the player's movie without a gap (its stream `group` started, after
    /// a pre-roll or a queue's previous movie): it is prepared from the pipeline's facts while it
    /// already plays; nothing is loaded. Its group is noted (after the facts of the previous movie
    /// were forgotten), to tell the movie after it.
    mutating func preparePlayingMovie(group: UInt32, facts: PipelineFacts) {
        contentGroup = group
        epoch += 1
        epochSeen = epoch
        phase = .preparing
        pauseWhenPrepared = false
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

    // MARK: Helpers

    /// Loads item `index` in place of the current movie and announces it.
    private mutating func goToQueueItem(_ index: Int, playing: Bool? = nil) {
        queueIndex = index
        queuedGapless = false
        let wantsPlay = playing ?? (target == .playing || shouldAutoplay)
        replaceSource(with: queue[index])
        if phase != .idle { target = wantsPlay ? .playing : .paused }
        publish(.queueItemChanged(index))
    }

    /// Queues (or clears) the item behind the current one in the pipeline, after a change of the
    /// queue or when the current movie is prepared.
    mutating func requeueNext() {
        guard hasSession, phase == .prepared, preroll == nil, let current = queueIndex else { return }
        let upcoming = gaplessUpcoming
        queuedGapless = !upcoming.isEmpty
        perform(.queueNext(session: sessionID, upcoming: upcoming, playing: queueIDs[current]))
    }
}
