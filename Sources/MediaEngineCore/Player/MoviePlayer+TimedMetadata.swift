extension MoviePlayer {
    /// The most recent timed metadata (MPMoviePlayerController's `timedMetadata`): the items of
    /// the latest presentation time playback has reached, such as the frames of one ID3 tag in a
    /// TS metadata stream or an ICY stream's new `StreamTitle`. Empty before playback reaches
    /// the first item, and after a seek, a stop or a new movie until it reaches the next.
    ///
    /// Each change is announced as ``PlayerEvent/timedMetadataChanged(_:)``.
    public var timedMetadata: [TimedMetadataItem] { core.read { $0.timedMetadata.current } }
}
