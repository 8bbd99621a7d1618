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

    /// The error under ``MoviePlayer/errorUserInfoKey``: what ended playback, for a finish
    /// notification with ``FinishReason/playbackError``.
    public var mediaError: MediaError? {
        userInfo?[MoviePlayer.errorUserInfoKey] as? MediaError
    }

    /// A will-enter or will-exit fullscreen notification's animation length, from its seconds
    /// under ``MoviePlayer/fullscreenAnimationDurationUserInfoKey``, to the nanosecond (0.3 is
    /// `.milliseconds(300)`).
    public var fullscreenAnimationDuration: Duration? {
        guard let seconds = userInfo?[MoviePlayer.fullscreenAnimationDurationUserInfoKey] as? Double,
            seconds.isFinite, seconds >= 0, seconds < 1e9
        else { return nil }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// A will-enter or will-exit fullscreen notification's animation curve, from its number under
    /// ``MoviePlayer/fullscreenAnimationCurveUserInfoKey``.
    public var fullscreenAnimationCurve: FullscreenAnimationCurve? {
        (userInfo?[MoviePlayer.fullscreenAnimationCurveUserInfoKey] as? Int).flatMap(
            FullscreenAnimationCurve.init(rawValue:))
    }
}
