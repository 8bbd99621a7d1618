/// How much of a movie is present, when its file is cut short: what the container's own tables
/// (an MP4's sample offsets and sizes, a Matroska file's clusters) say against the file's size.
///
/// A ``MediaSource`` reports it from ``MediaSource/truncation()``; the player announces it with
/// ``PlayerEvent/truncationDetected(playable:duration:)`` when the movie is prepared, reports it as
/// ``MoviePlayer/playableDuration``, and finishes with ``MediaError/Code/truncatedMovie`` when
/// playback reaches the cut.
public struct MovieTruncation: Sendable, Hashable, CustomStringConvertible {
    /// The time up to which every stream's data is in the file.
    public var playableDuration: Duration
    /// The duration the container's header states, if it states one.
    public var duration: Duration?

    /// A truncation report.
    /// - Parameters:
    ///   - playableDuration: The time up to which every stream's data is present.
    ///   - duration: The duration the header states, if any.
    public init(playableDuration: Duration, duration: Duration?) {
        self.playableDuration = playableDuration
        self.duration = duration
    }

    /// `playable 1.234 s of 4.000 s`.
    public var description: String {
        "playable \(playableDuration.formattedSeconds) of \(duration?.formattedSeconds ?? "unknown")"
    }
}
