/// Why playback finished; MPMovieFinishReason's equivalent.
public enum FinishReason: Sendable, Hashable, CustomStringConvertible {
    /// The movie played to its end (or to ``MoviePlayer/endPlaybackTime``).
    case playbackEnded
    /// Playback failed; the event carries the ``MediaError``.
    case playbackError
    /// The app stopped playback (`stop()`, a new source, or the player was released).
    case userExited

    /// The reason's name.
    public var description: String {
        switch self {
        case .playbackEnded: "playbackEnded"
        case .playbackError: "playbackError"
        case .userExited: "userExited"
        }
    }
}
