/// How much of a network movie the player keeps ahead of playback, and when it plays: the
/// thresholds MPMoviePlayerController keeps to itself, given to the app.
///
/// A network movie (progressive HTTP, HLS, DASH) starts playing once ``startAfter`` is
/// buffered; when the buffer runs dry the player is `.interrupted` (load state `.stalled`) and
/// plays on by itself, at the same position, once ``resumeAfter`` is buffered again. At most
/// ``maximum`` is kept ahead. Local files ignore the policy.
///
/// Set ``MoviePlayer/bufferingPolicy`` before `prepareToPlay()`; it applies from the next
/// preparation.
public struct BufferingPolicy: Sendable, Hashable {
    /// How much must be buffered before playback first starts.
    public var startAfter: Duration
    /// How much must be buffered again after a stall before playback resumes.
    public var resumeAfter: Duration
    /// The most kept ahead of playback.
    public var maximum: Duration
    /// Downloads a progressive movie whole to a temporary file in the user's cache folder
    /// (`$XDG_CACHE_HOME`, removed when the movie is closed) instead of keeping only
    /// ``maximum`` in memory: seeking back costs no download, and ``MoviePlayer/playableDuration``
    /// is how far the file has arrived. No effect on HLS and DASH.
    public var downloadsToCacheFile: Bool

    /// Creates a policy. Thresholds above `maximum` are lowered to it.
    /// - Parameters:
    ///   - startAfter: Buffered before playback first starts (default 1 s).
    ///   - resumeAfter: Buffered again before playback resumes after a stall (default 2 s).
    ///   - maximum: The most kept ahead (default 10 s; at least 1 s).
    ///   - downloadsToCacheFile: Download progressive movies whole to a temporary file.
    public init(
        startAfter: Duration = .seconds(1), resumeAfter: Duration = .seconds(2), maximum: Duration = .seconds(10),
        downloadsToCacheFile: Bool = false
    ) {
        self.maximum = max(maximum, .seconds(1))
        self.startAfter = min(max(startAfter, .zero), self.maximum)
        self.resumeAfter = min(max(resumeAfter, .zero), self.maximum)
        self.downloadsToCacheFile = downloadsToCacheFile
    }

    /// The start threshold as a fraction of the maximum (a buffering element's high watermark).
    var startFraction: Double { fraction(startAfter) }
    /// The resume threshold as a fraction of the maximum.
    var resumeFraction: Double { fraction(resumeAfter) }

    private func fraction(_ threshold: Duration) -> Double {
        // GStreamer's watermarks are fractions in [0, 1]; a threshold of 0 still needs a little
        // data before "100 %" means anything.
        min(1, max(0.02, threshold.inSeconds / maximum.inSeconds))
    }
}
