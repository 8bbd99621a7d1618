/// What a buffering report says besides how full the buffer is (GStreamer's buffering stats).
struct BufferingStats: Sendable, Equatable {
    enum Mode: Sendable, Equatable {
        /// A buffer in memory ahead of playback (progressive HTTP, HLS, DASH).
        case stream
        /// The whole movie downloaded to a file (``BufferingPolicy/downloadsToCacheFile``).
        case download
        /// A live source.
        case live
    }

    var mode: Mode = .stream
    /// Bytes a second coming in (the download rate), 0 when unknown.
    var averageIn = 0
    /// Bytes a second going out to playback (about the movie's bitrate while playing).
    var averageOut = 0
    /// Download mode: how long until the whole movie has arrived; nil when unknown.
    var remaining: Duration?
}
