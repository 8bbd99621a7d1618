import Foundation

/// Pre-rolls: other movies played before the content, through the same pipeline and output.
///
/// This is the extension point ad sources are written on: `PrerollAdSource` builds
/// `playPrerollAd` (VAST, tracking beacons, a frequency cap) on it with nothing but this public
/// API, and an app or another package can build its own the same way: choose the movies, call
/// ``playPreroll(_:playsContentAfter:timeout:observer:)``, turn its ``PrerollReport``s into
/// what the ad system wants (beacons, quartiles), announce what the app should hear with
/// ``announcePrerollAdEvent(_:)``, and log failed requests with
/// ``addErrorLogEntry(uri:statusCode:comment:)``.
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
    ///     it must not block. Every report has been delivered when the call returns.
    /// - Returns: How the last item ended.
    /// - Throws: ``MediaError/Code/unsupportedOperation`` when the content plays or is about to,
    ///   or another pre-roll plays; ``MediaError/Code/cancelled`` when the calling task is
    ///   cancelled (the pre-roll goes on).
    public func playPreroll(
        _ items: [any MediaSource], playsContentAfter: Bool, timeout: Duration,
        observer: @escaping @Sendable (Int, PrerollReport) -> Void
    ) async throws(MediaError) -> PrerollEnd {
        let end = try await core.playPreroll(
            items, playsContentAfter: playsContentAfter, timeout: timeout, observer: observer)
        // The reports are delivered on the player's thread, after the decision that ended the
        // pre-roll: they are all out once what was handed to that thread before now has run.
        await core.executor.perform {}
        return end
    }

    /// Ends the pre-roll item playing now; the next follows, or after the last the content, as
    /// the pre-roll's request said. Returns whether one was playing.
    /// - Returns: Whether an item was playing.
    @discardableResult
    public func skipPreroll() -> Bool {
        core.skipPreroll()
    }

    /// Resumes a pre-roll that `pause()` paused.
    public func resumePreroll() {
        core.resumePreroll()
    }

    /// Whether a pre-roll is playing (or loading) before the content.
    public var isPlayingPreroll: Bool {
        core.read { $0.preroll != nil }
    }

    /// Announces a pre-roll ad's event to every subscriber (as ``PlayerEvent/prerollAd(_:)`` and
    /// its notification), in order with the player's own events.
    /// - Parameter event: What happened to the ad.
    public func announcePrerollAdEvent(_ event: PrerollAdEvent) {
        // Under the player's lock, as the player's own events are: one order for every subscriber.
        core.apply { $0.prerollAdEventOccurred(event) }
    }

    /// Adds a request that failed beside the movie's own (a pre-roll's tracking beacon) to
    /// ``errorLog``, announced as ``PlayerEvent/errorLogEntryAdded(_:)``.
    /// - Parameters:
    ///   - uri: What was requested.
    ///   - statusCode: The server's status, when it answered.
    ///   - comment: What the request was for and what went wrong.
    public func addErrorLogEntry(uri: String, statusCode: Int?, comment: String) {
        let event = ErrorLogEvent(
            date: Date(), uri: uri, statusCode: statusCode, domain: statusCode == nil ? "MediaEngine" : "HTTP",
            comment: comment, playbackSessionID: "\(core.logID)-preroll")
        // Under the player's lock, as the player's own events are: one order for every subscriber.
        core.state.withLock { owned in core.hub.publish(owned.networkLog.requestFailed(event)) }
    }

    /// Whether `shouldAutoplay` or a `play()` on its way would start the content (a pre-roll
    /// then is refused): an ad source asks before it fetches an ad it could not play.
    public var contentWantsToPlay: Bool {
        core.read { $0.target == .playing && $0.phase != .idle && !$0.atEnd || $0.playbackState == .playing }
    }
}
