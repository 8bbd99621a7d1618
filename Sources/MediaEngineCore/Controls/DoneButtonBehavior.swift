/// What the Done button of the fullscreen controls does (``MoviePlayer/doneButtonBehavior``).
///
/// MPMoviePlayerController and MPMoviePlayerViewController differ here: the controller's Done
/// pauses and leaves fullscreen, and playback has not finished; the view controller's Done
/// dismisses the movie, which finishes with `MPMovieFinishReasonUserExited`.
public enum DoneButtonBehavior: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// MPMoviePlayerController's: the movie pauses and the player's window leaves fullscreen; no
    /// ``PlayerEvent/playbackDidFinish(_:_:)`` is posted. The default.
    case exitFullscreen
    /// MPMoviePlayerViewController's: playback stops, as ``MoviePlayer/stop()`` does, and
    /// finishes with ``FinishReason/userExited`` (``PlayerEvent/playbackDidFinish(_:_:)`` and its
    /// notification), and the player's own window closes, as the view controller is dismissed
    /// (leaving fullscreen first, announced without animation); the next movie opens a new one.
    /// An app's window (``MoviePlayer/windowHandle``) stays: the app dismisses what holds it.
    case finishPlayback

    /// `exitFullscreen` or `finishPlayback`.
    public var description: String {
        switch self {
        case .exitFullscreen: "exitFullscreen"
        case .finishPlayback: "finishPlayback"
        }
    }
}
