/// Whether a movie starts again when it ends; MPMovieRepeatMode's equivalent.
public enum RepeatMode: Sendable, Hashable {
    /// Play once.
    case none
    /// Play again and again, gaplessly: the first frame of a pass follows the last frame of the
    /// previous one a frame interval later, as if the movie were one long movie.
    case one
}
