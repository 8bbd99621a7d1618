import Foundation
public import MediaEngineCore

extension MoviePlayer {
    /// Plays a video ad before the movie (MPMoviePlayerController's `playPrerollAd`): fetches
    /// and resolves the request's VAST (following wrappers), chooses a media file, plays it in
    /// the player's pipeline and through its sink and overlays, fires the ad's tracking beacons,
    /// and returns when the ad is over. The content then plays at once through the same output
    /// (or, with ``PrerollAdRequest/playsContentAfterAd`` off, waits prepared for `play()`).
    ///
    /// Call it with the player not playing and `shouldAutoplay` off. While the ad plays:
    /// `play()` stops the ad at once and plays the content (the ad finishes with
    /// `PrerollAdFinishReason.userStartedContent`, no complete beacon); `pause()` pauses the ad
    /// and ``resumeAd()`` resumes it; ``skipAd()`` ends it after its skip offset; `stop()` ends
    /// ad and content. `currentPlaybackTime` stays at the content's start: ad time is never
    /// content time. Every step is announced as `PlayerEvent.prerollAd(_:)`. After a failure
    /// the content is loaded, paused, and plays when the app calls `play()`.
    /// - Parameter request: The ad tag or document, and the rules of the ad.
    /// - Throws: `PrerollAdError`, after firing the ad's Error URIs with its VAST code (also
    ///   announced as `PrerollAdEvent.finished(_:_:)`).
    public func playPrerollAd(_ request: PrerollAdRequest) async throws(PrerollAdError) {
        do {
            try await PrerollAdRun(player: self, request: request).run()
        } catch {
            announcePrerollAdEvent(.finished(error.code == .cancelled ? .stopped : .failed, error))
            throw error
        }
    }

    /// ``playPrerollAd(_:)`` with a completion handler, called exactly once: with nil after the
    /// ad (completed, skipped, or interrupted by `play()`), or with the `PrerollAdError`.
    /// - Parameters:
    ///   - request: The ad tag or document, and the rules of the ad.
    ///   - completionHandler: Called once, on a task of its own.
    public func playPrerollAd(
        _ request: PrerollAdRequest, completionHandler: @escaping @Sendable (PrerollAdError?) -> Void
    ) {
        // A task of its own only waits for the async form: every change it makes to the player
        // goes through the player's own thread, as any command does.
        Task {
            do throws(PrerollAdError) {
                try await playPrerollAd(request)
                completionHandler(nil)
            } catch {
                completionHandler(error)
            }
        }
    }

    /// Ends the ad now, if its skip offset has passed (`PrerollAdEvent.skippable` was
    /// announced); the content follows as after the ad's end. Fires the skip beacon.
    /// - Returns: Whether an ad was skipped (false: no ad, or not skippable yet).
    @discardableResult
    public func skipAd() -> Bool {
        guard let playback = currentAdSession?.showing, playback.isSkippable else { return false }
        return skipPreroll()
    }

    /// The viewer asked for the advertiser's page: fires the ad's ClickTracking beacons,
    /// announces `PrerollAdEvent.clickThroughRequested(_:)` and returns the page (the app opens
    /// it); nil when no ad plays or the ad has no page.
    @discardableResult
    public func requestAdClickThrough() -> URL? {
        guard let playback = currentAdSession?.showing, let url = playback.tracker.clickThrough() else { return nil }
        announcePrerollAdEvent(.clickThroughRequested(url))
        return url
    }

    /// Resumes an ad that `pause()` paused (`play()` would start the content instead).
    public func resumeAd() {
        resumePreroll()
    }

    /// Whether an ad plays (or loads) before the content.
    public var isPlayingAd: Bool { isPlayingPreroll }

    /// What the ad playing now is, once it started; nil otherwise.
    public var currentAd: PrerollAdInfo? {
        currentAdSession?.showing?.info
    }

    var currentAdSession: PrerollAdSession? {
        PrerollAdSessions.session(of: self)
    }
}
