/// What a ``MoviePlayer`` plays: a URI GStreamer can open, with the checks and settings
/// that belong to that kind of source.
///
/// Implement ``uri`` and ``sourceType``; the rest have defaults that do nothing.
/// The player calls ``validate()`` when it prepares, before it builds any pipeline, so a
/// source can refuse bad input with a precise error (a missing file, a FIFO). It applies
/// ``settings`` to the GStreamer source element once playbin has made it, and passes every
/// pipeline error through ``interpret(_:)`` so the source can make it more precise.
///
/// Threading: the player calls these requirements from the task that prepares it and from
/// its bus thread; an implementation must be `Sendable` and must not block for long.
public protocol MediaSource: Sendable {
    /// The URI GStreamer opens (`file:///...`, `https://...`), correctly escaped.
    var uri: String { get }

    /// Whether this is a file or a stream; reported by ``MoviePlayer/movieSourceType``.
    var sourceType: MovieSourceType { get }

    /// Checks the source before any pipeline exists.
    /// - Throws: ``MediaError`` describing why the source cannot play.
    func validate() throws(MediaError)

    /// Properties for the GStreamer element that reads the source (filesrc, souphttpsrc, ...).
    var settings: SourceSettings { get }

    /// Makes an error the pipeline reported more precise, using what the source knows
    /// (a file that turned out truncated, an HTTP status). Returns the error unchanged when
    /// it has nothing to add.
    /// - Parameter error: The error as the engine understood it.
    /// - Returns: The error to report.
    func interpret(_ error: MediaError) -> MediaError

    /// The presentation times of the movie's video keyframes, ascending, read from the
    /// container's own index; nil when the source cannot tell (the demuxer then decides where a
    /// keyframe seek lands). With them, a ``SeekOption/nearestKeyFrame`` seek lands exactly on
    /// the video keyframe at or before the time asked for, whatever the other streams' frames.
    /// Called at most once per movie, on the player's thread, at its first keyframe seek.
    /// - Returns: The times, or nil.
    func videoKeyframeTimes() -> [Duration]?

    /// How much of the movie is present when the source is cut short (a partial download or
    /// copy), judged from the container's own tables against what the source holds; nil when
    /// every frame is present or the source cannot tell. With it the player reports the playable
    /// part when the movie is prepared (``PlayerEvent/truncationDetected(playable:duration:)``,
    /// ``MoviePlayer/playableDuration``) and finishes with ``MediaError/Code/truncatedMovie`` when
    /// playback reaches the cut, whichever element notices it, or none.
    /// Called once per movie, on the player's thread, when the movie has prerolled.
    /// - Returns: The truncation, or nil.
    func truncation() -> MovieTruncation?

    /// Answers a server's demand for credentials (HTTP 401 or 407) while the movie prepares: a
    /// copy of this source that carries a credential for the challenge's protection space, which
    /// the player then loads in the same pipeline; or nil, and preparation fails with
    /// ``MediaError/Code/unauthorized``. The player asks at most once per movie, so a refused
    /// credential is an error, never a loop.
    /// - Parameter challenge: The server's challenge (realm, method, host).
    /// - Returns: The source to load instead, or nil.
    func answering(_ challenge: AuthenticationChallenge) -> (any MediaSource)?
    /// How the player recovers when loading the movie fails in a way that may pass (a broken
    /// connection, a server that is briefly unavailable): how many times it loads the movie
    /// again, and how long it waits before each try (``RetryPolicy``).
    var retryPolicy: RetryPolicy { get }
}

extension MediaSource {
    /// Whether the movie is read over a network (any scheme but `file:`).
    var isNetworkSource: Bool {
        !uri.lowercased().hasPrefix("file:")
    }
}

extension MediaSource {
    /// Accepts every source.
    public func validate() throws(MediaError) {}
    /// No settings.
    public var settings: SourceSettings { SourceSettings() }
    /// Returns the error unchanged.
    public func interpret(_ error: MediaError) -> MediaError { error }
    /// Unknown: the demuxer decides.
    public func videoKeyframeTimes() -> [Duration]? { nil }
    /// Unknown: the movie is taken as whole.
    public func truncation() -> MovieTruncation? { nil }
    /// No answer: preparation fails with ``MediaError/Code/unauthorized``.
    public func answering(_ challenge: AuthenticationChallenge) -> (any MediaSource)? { nil }
    /// No retries: the first failure ends playback.
    public var retryPolicy: RetryPolicy { .never }
}
