extension MoviePlayer {
    /// The movie's metadata with the common tags typed (title, artist, album, codecs, container,
    /// bitrate) and every tag in ``MovieMetadata/raw``; empty until preparation has read the
    /// movie's tags. The same tags as ``metadata``, read at the same moment.
    public var movieMetadata: MovieMetadata { MovieMetadata(tags: core.read { $0.metadata }) }
}
