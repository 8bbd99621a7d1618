/// A movie whose file is cut short.
extension MoviePlayer {
    /// How much of the prepared movie its file holds, when the file is cut short (a partial
    /// download or copy): read from the container's own tables when the movie is prepared
    /// (``MediaSource/truncation()``) and announced with
    /// ``PlayerEvent/truncationDetected(playable:duration:)``. Nil for a whole movie, before the
    /// movie is prepared, and for sources that cannot tell. Playback finishes with
    /// ``MediaError/Code/truncatedMovie`` when it reaches ``MovieTruncation/playableDuration``.
    public var truncation: MovieTruncation? {
        core.read { $0.phase == .prepared ? $0.truncation : nil }
    }
}
