import FileSource
import Foundation
@_spi(Benchmarks) import MediaEngineCore

/// `seek`: 50 seeks to random places in the 1080p movie, paused, each timed from `seek(to:)` to
/// its return (the frame at the new place has reached the frames sink). Keyframe seeks p50 and
/// p95 against a bare playbin's flushing keyframe seeks (send to ASYNC_DONE) in the same run;
/// exact seeks p50 against the time the engine takes to decode one GOP (60 frames) of the movie.
enum SeekBenchmark {
    static let count = 50

    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.fullHD()
        let uri = FileSource(url: movie).uri
        var random = SplitMix(seed: 7)
        let positions = (0..<count).map { _ in Duration.milliseconds(Int(random.next() % 9_900)) }

        let player = MoviePlayer(source: FileSource(url: movie), videoSink: FrameSink(), audioOutput: .discard)
        player.shouldAutoplay = false
        try await player.prepareToPlay()
        _ = try await time(player, to: .seconds(5), option: .nearestKeyFrame)  // warm-up
        // The engine's keyframe seeks and the bare playbin's alternate, one each per position, so
        // that both meet the same machine (a burst of load elsewhere cannot fall on one side only).
        let baseline = try PlaybinBaseline.Seeker(uri: uri)
        _ = try baseline.seek(to: .seconds(5), exact: false)  // warm-up
        var keyFrame: [Double] = []
        var peer: [Double] = []
        var exact: [Double] = []
        for position in positions {
            keyFrame.append(try await time(player, to: position, option: .nearestKeyFrame))
            peer.append(try baseline.seek(to: position, exact: false).milliseconds)
        }
        for position in positions {
            exact.append(try await time(player, to: position, option: .exact))
        }
        player.stop()
        let gopMilliseconds = 60 / (try await DecodeBenchmark.engineFramesPerSecond(movie, format: .i420)) * 1000
        return [
            Measurement(
                "seek", "keyframe-p50", keyFrame.median, "ms", baseline: peer.median,
                ratio: peer.median / keyFrame.median),
            Measurement(
                "seek", "keyframe-p95", keyFrame.percentile(0.95), "ms", baseline: peer.percentile(0.95),
                ratio: peer.percentile(0.95) / keyFrame.percentile(0.95)),
            Measurement(
                "seek", "exact-p50", exact.median, "ms", baseline: gopMilliseconds,
                ratio: gopMilliseconds / exact.median),
        ]
    }

    private static func time(_ player: MoviePlayer, to position: Duration, option: SeekOption) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await player.seek(to: position, option: option)
        return (clock.now - start).milliseconds
    }
}

/// A deterministic generator, so every run seeks to the same places.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
