import Foundation

/// Typed readers of a player notification's userInfo, beside the `NSNumber`s and values ported
/// MPMoviePlayerController code reads with `as?`.
extension Notification {
    /// The ``PlayerEvent`` the notification mirrors (every player notification carries one).
    public var playerEvent: PlayerEvent? {
        userInfo?[MoviePlayer.eventUserInfoKey] as? PlayerEvent
    }

    /// A finish notification's reason, from its `NSNumber` under ``MoviePlayer/finishReasonUserInfoKey``.
    public var finishReason: FinishReason? {
        (userInfo?[MoviePlayer.finishReasonUserInfoKey] as? Int).flatMap(FinishReason.init(rawValue:))
    }

    /// The error under ``MoviePlayer/errorUserInfoKey`` (or, for a thumbnail,
    /// ``MoviePlayer/thumbnailErrorUserInfoKey``) as a ``MediaError``: what ended playback, for a
    /// finish notification with ``FinishReason/playbackError``. The userInfo holds it as an
    /// `NSError`, as MPMoviePlayerController's does; this reads it back.
    public var mediaError: MediaError? {
        for key in [MoviePlayer.errorUserInfoKey, MoviePlayer.thumbnailErrorUserInfoKey] {
            if let error = userInfo?[key] as? MediaError { return error }
            if let error = userInfo?[key] as? NSError { return MediaError(error) }
        }
        return nil
    }

    /// A will-enter or will-exit fullscreen notification's animation length, from its seconds
    /// under ``MoviePlayer/fullscreenAnimationDurationUserInfoKey``, to the nanosecond (0.3 is
    /// `.milliseconds(300)`).
    public var fullscreenAnimationDuration: Duration? {
        duration(under: MoviePlayer.fullscreenAnimationDurationUserInfoKey)
    }

    /// A thumbnail notification's time, from its seconds under
    /// ``MoviePlayer/thumbnailTimeUserInfoKey``, to the nanosecond (negative for a failed request
    /// of a negative time).
    public var thumbnailTime: Duration? {
        duration(under: MoviePlayer.thumbnailTimeUserInfoKey)
    }

    /// A will-enter or will-exit fullscreen notification's animation curve, from its number under
    /// ``MoviePlayer/fullscreenAnimationCurveUserInfoKey``.
    public var fullscreenAnimationCurve: FullscreenAnimationCurve? {
        (userInfo?[MoviePlayer.fullscreenAnimationCurveUserInfoKey] as? Int).flatMap(
            FullscreenAnimationCurve.init(rawValue:))
    }

    /// The seconds under `key` as a `Duration`, to the nanosecond; nil for none, or a number no
    /// time can be.
    private func duration(under key: String) -> Duration? {
        guard let seconds = userInfo?[key] as? Double, seconds.isFinite, abs(seconds) < 1e9 else {
            return nil
        }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
