import Foundation

/// The core's side of pre-roll ads: another movie played before the content through the same
/// output. `PrerollAdSource` builds `playPrerollAd` (VAST, tracking, frequency cap) on these.
extension MoviePlayer {
    /// Plays `items` before the content, one after another without a gap, in the player's
    /// pipeline and through its sink and overlays, and returns how the last one ended (a failed
    /// or timed-out item ends the run; a skipped one is followed by the next). While it plays, ``currentPlaybackTime`` stays at the
    /// content's start and nothing about the pre-roll is announced as the content's; `play()`
    /// ends it and starts the content, `pause()` pauses it, `stop()` ends both.
    /// - Parameters:
    ///   - items: What to play first, in order (at least one).
    ///   - playsContentAfter: Whether the content plays at once after a completed or skipped
    ///     pre-roll (otherwise it is loaded and waits, paused on its first frame, for `play()`).
    ///   - timeout: How long each item's first frame may take (``PrerollEnd/timedOut`` after).
    ///   - observer: Hears how each item (by index) goes, in order, on the player's own thread;
    ///     it must not block.
    /// - Throws: ``MediaError/Code/unsupportedOperation`` when the content plays or is about to,
    ///   or another pre-roll plays; ``MediaError/Code/cancelled`` when the calling task is
    ///   cancelled (the pre-roll goes on).
    package func playPreroll(
        _ items: [any MediaSource], playsContentAfter: Bool, timeout: Duration,
        observer: @escaping @Sendable (Int, PrerollReport) -> Void
    ) async throws(MediaError) -> PrerollEnd {
        try await core.playPreroll(items, playsContentAfter: playsContentAfter, timeout: timeout, observer: observer)
    }

    /// Ends the pre-roll item playing now; the next follows, or after the last the content, as
    /// the pre-roll's request said. Returns whether one was playing.
    @discardableResult
    package func skipPreroll() -> Bool {
        core.skipPreroll()
    }

    /// Resumes a pre-roll that `pause()` paused.
    package func resumePreroll() {
        core.resumePreroll()
    }

    /// Returns once the player's thread has done everything handed to it before the call (a
    /// pre-roll's last reports, say).
    package func drainPlayerThread() async {
        await core.executor.perform {}
    }

    /// Whether a pre-roll is playing (or loading) before the content.
    package var isPlayingPreroll: Bool {
        core.read { $0.preroll != nil }
    }

    /// Announces a pre-roll ad's event to every subscriber, in order with the player's own.
    package func announce(_ event: PrerollAdEvent) {
        // Under the player's lock, as the player's own events are: one order for every subscriber.
        core.apply { $0.prerollAdEventOccurred(event) }
    }

    /// Adds a request of the pre-roll's that failed (a tracking beacon) to ``errorLog``,
    /// announced as ``PlayerEvent/errorLogEntryAdded(_:)``.
    /// - Parameters:
    ///   - uri: What was requested.
    ///   - statusCode: The server's status, when it answered.
    ///   - comment: What the request was for and what went wrong.
    package func logPrerollRequestFailure(uri: String, statusCode: Int?, comment: String) {
        let event = ErrorLogEvent(
            date: Date(), uri: uri, statusCode: statusCode, domain: statusCode == nil ? "MediaEngine" : "HTTP",
            comment: comment, playbackSessionID: "\(core.logID)-preroll")
        // Under the player's lock, as the player's own events are: one order for every subscriber.
        core.state.withLock { owned in core.hub.publish(owned.networkLog.requestFailed(event)) }
    }

    /// Whether `shouldAutoplay` or a `play()` on its way would start the content.
    package var contentWantsToPlay: Bool {
        core.read { $0.target == .playing && $0.phase != .idle && !$0.atEnd || $0.playbackState == .playing }
    }
}
