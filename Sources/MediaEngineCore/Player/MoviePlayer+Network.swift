import Foundation

/// Network movies: how much is buffered, how the player buffers, and the access and error logs.
extension MoviePlayer {
    /// The access log of network movies (MPMoviePlayerController's `accessLog`): one entry per
    /// preparation of a network movie and per variant switch, the open one with its figures as
    /// they are now. Empty for local files. ``PlayerEvent/accessLogChanged`` says when an entry
    /// begins or ends.
    public var accessLog: AccessLog {
        core.state.withLock { owned in
            core.updateLogFigures(&owned)
            return owned.networkLog.accessLog(at: Date())
        }
    }

    /// The error log of network movies (MPMoviePlayerController's `errorLog`): servers' error
    /// statuses, failed connections and the errors that ended playback, oldest first.
    /// ``PlayerEvent/errorLogEntryAdded(_:)`` announces each.
    public var errorLog: ErrorLog {
        core.state.withLock { $0.networkLog.errorLog }
    }

    /// How much of a network movie the player buffers and when it plays (see
    /// ``BufferingPolicy``); applies from the next preparation. Local files ignore it.
    public var bufferingPolicy: BufferingPolicy {
        get { core.read { $0.bufferingPolicy } }
        set { core.apply { $0.setBufferingPolicy(newValue) } }
    }

    /// How much of what playback waits for has arrived, in percent, for a network movie:
    /// GStreamer's last buffering report, against ``bufferingPolicy``'s thresholds (100: enough
    /// to start, or to resume after a stall). While the player is `interrupted` (a stall, or a
    /// movie that starts once enough is buffered) it says how far the wait has got: an app shows
    /// "buffering 35 %". nil for a local file, before the first report, and once the whole
    /// movie has arrived.
    public var bufferingPercent: Int? {
        core.read { $0.downloadComplete ? nil : $0.buffering?.percent }
    }

    /// How far the movie can play from what has arrived (MPMoviePlayerController's
    /// `playableDuration`): the whole duration for a local file or a finished download (for a
    /// file cut short, the part its container's tables say is present: ``truncation``). For a
    /// progressive download (an MP4 from a web server) it grows with what has arrived: the
    /// share of the file the source has read, as that share of the duration (a movie's bytes are
    /// spread about evenly over its time), or in ``BufferingPolicy/downloadsToCacheFile`` mode
    /// the end of the downloaded range. For other network movies, the position plus the
    /// download queue's level (an MPEG-TS stream's); the position alone for adaptive streams,
    /// whose buffer the engine cannot see. Never before the position nor past the duration;
    /// zero before the movie is prepared.
    public var playableDuration: Duration { core.playableDuration }
}
