/// Why playback finished; MPMovieFinishReason's equivalent, with its numbers as raw values
/// (what a finish notification carries under ``MoviePlayer/finishReasonUserInfoKey``).
public enum FinishReason: Int, Sendable, Hashable, CustomStringConvertible {
    /// The movie played to its end (or to ``MoviePlayer/endPlaybackTime``); 0, as
    /// MPMovieFinishReasonPlaybackEnded.
    case playbackEnded = 0
    /// Playback failed; the event carries the ``MediaError``. 1, as MPMovieFinishReasonPlaybackError.
    case playbackError = 1
    /// The app stopped playback (`stop()`, a new source, or the player was released); 2, as
    /// MPMovieFinishReasonUserExited.
    case userExited = 2

    /// The reason's name.
    public var description: String {
        switch self {
        case .playbackEnded: "playbackEnded"
        case .playbackError: "playbackError"
        case .userExited: "userExited"
        }
    }
}
