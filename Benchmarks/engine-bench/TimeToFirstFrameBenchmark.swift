import FileSource
import Foundation
@_spi(Benchmarks) import MediaEngineCore

/// `ttff`: time from `prepareToPlay()` to ready-for-display on a 720p movie with sound, p50 and
/// p95 over 20 players, against a bare in-process playbin's preroll measured in the same run.
/// Ratio = playbin's time / ours (above 1: we show the first frame sooner).
enum TimeToFirstFrameBenchmark {
    static let runs = 20

    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.hd720()
        let uri = FileSource(url: movie).uri
        // One of each first: plugin loading and GStreamer's first-use costs are not what is measured.
        _ = try await timeToFirstFrame(movie)
        _ = try PlaybinBaseline.prerollTime(uri: uri)
        var ours: [Double] = []
        var peer: [Double] = []
        for _ in 0..<runs {
            ours.append(try await timeToFirstFrame(movie).milliseconds)
            peer.append(try PlaybinBaseline.prerollTime(uri: uri).milliseconds)
        }
        return [
            Measurement(
                "ttff", "720p-p50", ours.median, "ms", baseline: peer.median, ratio: peer.median / ours.median),
            Measurement(
                "ttff", "720p-p95", ours.percentile(0.95), "ms", baseline: peer.percentile(0.95),
                ratio: peer.percentile(0.95) / ours.percentile(0.95)),
        ]
    }

    /// A player with every default, from `prepareToPlay()` to the ready-for-display event.
    static func timeToFirstFrame(_ movie: URL) async throws -> Duration {
        let player = MoviePlayer(source: FileSource(url: movie))
        let events = player.events
        let clock = ContinuousClock()
        let start = clock.now
        let preparation = Task { try await player.prepareToPlay() }
        for await event in events where event == .readyForDisplayChanged(true) {
            let elapsed = clock.now - start
            try await preparation.value
            player.stop()
            return elapsed
        }
        throw BenchmarkError("the player never became ready for display")
    }
}
