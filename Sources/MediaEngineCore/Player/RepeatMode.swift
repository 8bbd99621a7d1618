/// Whether a movie starts again when it ends; MPMovieRepeatMode's equivalent.
public enum RepeatMode: Sendable, Hashable {
    /// Play once.
    case none
    /// Play again and again, gaplessly: the first frame of a pass follows the last frame of the
    /// previous one a frame interval later, as if the movie were one long movie.
    case one
    /// With a queue (``MoviePlayer/setQueue(_:startingAt:)``): after its last movie, the queue
    /// starts again at its first, without a gap. A movie played without a queue plays once.
    case all
}
