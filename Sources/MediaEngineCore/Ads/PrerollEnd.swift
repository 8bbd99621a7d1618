/// How a pre-roll (a movie played before the content, through the same output: a VAST ad) ended,
/// as the player saw it. `PrerollAdSource` turns it into the ad's outcome and its beacons.
public enum PrerollEnd: Sendable, Equatable, CustomStringConvertible {
    /// It played to its end.
    case completed
    /// ``MoviePlayer/skipPreroll()`` ended it.
    case skipped
    /// The app asked for the content (`play()`): the pre-roll stopped at once.
    case contentStarted
    /// `stop()`, a new source, or the player's release ended it; the content is not loaded.
    case stopped
    /// Its first frame did not come within the time allowed.
    case timedOut
    /// It failed to load or play.
    case failed(MediaError)

    /// `completed`, `skipped`, ..., `failed(code)`.
    public var description: String {
        switch self {
        case .completed: "completed"
        case .skipped: "skipped"
        case .contentStarted: "contentStarted"
        case .stopped: "stopped"
        case .timedOut: "timedOut"
        case .failed(let error): "failed(\(error.code))"
        }
    }
}

/// What a pre-roll's observer hears, in order, on the player's own thread (it must not block).
public enum PrerollReport: Sendable, Equatable, CustomStringConvertible {
    /// Its first frame is showing; its duration as the pipeline knows it.
    case started(duration: Duration?)
    /// Where it is, about ten times a second while it plays.
    case position(Duration)
    /// ``MoviePlayer/pause()`` paused it.
    case paused
    /// ``MoviePlayer/resumePreroll()`` resumed it.
    case resumed
    /// ``MoviePlayer/isMuted`` changed while it played.
    case mutedChanged(Bool)
    /// It ended; `at` is where it had got to.
    case ended(PrerollEnd, at: Duration?)

    /// `started(2.000 s)`, `position(1.000 s)`, `ended(completed at 2.000 s)`.
    public var description: String {
        switch self {
        case .started(let duration): "started(\(duration?.formattedSeconds ?? "unknown duration"))"
        case .position(let position): "position(\(position.formattedSeconds))"
        case .paused: "paused"
        case .resumed: "resumed"
        case .mutedChanged(let muted): "mutedChanged(\(muted))"
        case .ended(let end, let position): "ended(\(end)\(position.map { " at \($0.formattedSeconds)" } ?? ""))"
        }
    }
}
