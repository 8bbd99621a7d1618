/// A queue of movies (AVQueuePlayer's place; what a kiosk needs): played one after another
/// through the same output and overlays, each next movie prerolled in the pipeline before the
/// current one ends so that its first frame follows the last one's a frame interval later.
extension MoviePlayer {
    /// The queue's movies, in order; empty when the player plays a single ``source``.
    public var queue: [any MediaSource] { core.read { $0.queueItems } }

    /// The queue's item playing (or loaded), if there is a queue.
    public var queueIndex: Int? { core.read { $0.queueIndex } }

    /// Plays `items` as a queue, starting with `start` (loaded in place of the current movie, as
    /// setting ``source`` does; it plays if the current one was playing or ``shouldAutoplay`` is
    /// on). Each movie is followed by the next without a gap when it can be: movies of the same
    /// format play as one, movies of other sizes or codecs after a short renegotiation; a movie
    /// that starts with a seek (a playback range, a rate) is loaded after the previous one ends.
    /// With ``repeatMode`` `.all` the first follows the last. An empty list ends the queue (the
    /// movie playing plays on, alone). Each change of item is ``PlayerEvent/queueItemChanged(_:)``
    /// with ``PlayerEvent/nowPlayingMovieChanged``; the end of the last movie is the usual
    /// ``PlayerEvent/playbackDidFinish(_:_:)``.
    /// - Parameters:
    ///   - items: The movies.
    ///   - start: The one to play first.
    /// - Throws: ``MediaError/Code/invalidArgument`` for a start outside the list.
    public func setQueue(_ items: [any MediaSource], startingAt start: Int = 0) throws(MediaError) {
        try core.apply { $0.setQueue(items, startingAt: start) }.get()
    }

    /// Skips to the queue's next item (the first after the last in repeat-all), loading it in
    /// place of the current one. Returns whether there was one.
    @discardableResult
    public func advanceToNextItem() -> Bool {
        core.apply { $0.skipInQueue(forward: true) }
    }

    /// Goes back to the queue's previous item. Returns whether there was one.
    @discardableResult
    public func returnToPreviousItem() -> Bool {
        core.apply { $0.skipInQueue(forward: false) }
    }

    /// Inserts a movie into the queue, even while it plays (before the item playing, or after).
    /// - Throws: ``MediaError/Code/invalidArgument`` without a queue or for a place outside it.
    public func insert(_ item: any MediaSource, at index: Int) throws(MediaError) {
        try core.apply { $0.insertInQueue(item, at: index) }.get()
    }

    /// Removes a movie from the queue, even while it plays (any but the one playing).
    /// - Throws: ``MediaError/Code/invalidArgument`` for the item playing or one not in the queue.
    public func removeItem(at index: Int) throws(MediaError) {
        try core.apply { $0.removeFromQueue(at: index) }.get()
    }
}
