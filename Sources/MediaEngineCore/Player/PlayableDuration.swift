/// How far a network movie can play from what has arrived (``MoviePlayer/playableDuration``),
/// from what its pipeline reports: pure, tested without GStreamer.
///
/// A progressive download in the default buffering (queue2 in memory, no cache file) answers no
/// buffering query with ranges, and its queue holds bytes that carry no times, so its level in
/// time is zero: what has arrived is known only as bytes. The source element says how far it
/// has read and how big the file is; that share of the file is taken as that share of the
/// duration (a movie's bytes are spread over its time about evenly: interleaved audio and video,
/// the index at the start of a progressive MP4 a small part of it).
enum PlayableDuration {
    /// How far a progressive download has read its file.
    struct Download: Sendable, Hashable {
        /// The bytes from the file's start to where the source has read.
        var received: Int
        /// The file's size.
        var total: Int
    }

    /// The playable duration of a network movie playing at `position`, with `queuedAhead` of it
    /// known to be buffered past the position (a queue's level in time, or a cache file's
    /// downloaded range) and, for a progressive download, `download`'s share of its file read:
    /// the furthest of the two, never before the position nor past the duration.
    static func estimate(
        position: Duration, duration: Duration?, queuedAhead: Duration?, download: Download?
    ) -> Duration {
        var end = position + max(.zero, queuedAhead ?? .zero)
        if let download, let duration, duration > .zero, download.total > 0 {
            let share = min(1, max(0, Double(download.received) / Double(download.total)))
            end = max(end, duration * share)
        }
        return duration.map { min(end, $0) } ?? end
    }
}
