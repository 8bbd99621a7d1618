/// What the player is doing, as an app sees it (never a raw `GstState`);
/// MPMoviePlaybackState's equivalent.
public enum PlaybackState: Sendable, Hashable, CustomStringConvertible {
    /// Not playing: before the first `play()`, after `stop()`, at the end of the movie or after an error.
    case stopped
    /// Playing.
    case playing
    /// Paused by `pause()`.
    case paused
    /// Held up by the pipeline (buffering, a lost clock); resumes by itself.
    case interrupted
    /// Scanning forward (`beginSeekingForward()`).
    case seekingForward
    /// Scanning backward (`beginSeekingBackward()`).
    case seekingBackward

    /// The state's name.
    public var description: String {
        switch self {
        case .stopped: "stopped"
        case .playing: "playing"
        case .paused: "paused"
        case .interrupted: "interrupted"
        case .seekingForward: "seekingForward"
        case .seekingBackward: "seekingBackward"
        }
    }
}
