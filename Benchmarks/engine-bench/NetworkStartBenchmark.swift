import FileSource
import Foundation
import HTTPStreamSource
@_spi(Benchmarks) import MediaEngineCore
import MediaTestSupport

/// `network`: how fast network movies start, over nginx on loopback, p50 over 15 runs each,
/// alternating with the peer so both meet the same machine.
///
/// - HLS: a master playlist of three variants in 2-second segments (``BenchmarkMedia/hlsLadder()``),
///   from `prepareToPlay()` (with `shouldAutoplay`) to the player playing, against a bare
///   in-process playbin on the same playlist from PAUSED to PLAYING, started as GStreamer's
///   players start a stream (prerolled and buffered to 100 %). Ratio = playbin's time / ours.
/// - The same HLS start over a 5 Mbit/s link (nginx's `limit_rate`, per connection), 5 runs
///   each: the peer starts on the 3.3 Mbit/s variant listed first and waits for 5 s of it; the
///   engine starts on the lowest. Also reported: how often the engine's playback was interrupted
///   (buffering) within its first second, over all runs.
/// - Progressive HTTP: the ttff movie (720p H.264 + AAC) from `prepareToPlay()` to ready for
///   display, over HTTP against the same file played locally. Ratio = local / HTTP.
enum NetworkStartBenchmark {
    static let runs = 15

    static func run() async throws -> [Measurement] {
        let ladder = try BenchmarkMedia.hlsLadder()
        let movie = try BenchmarkMedia.hd720()
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("hls"), withDestinationURL: ladder.standardizedFileURL.absoluteURL)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("movie.mp4"), withDestinationURL: movie.standardizedFileURL.absoluteURL)
        let server = try await LoopbackHTTPServer(serving: folder)
        let playlist = server.url("hls/master.m3u8")
        let slowServer = try await LoopbackHTTPServer(serving: folder, bytesPerSecond: 625_000)
        let slowPlaylist = slowServer.url("hls/master.m3u8")

        // One of each first: plugin loading and first-use costs are not what is measured.
        _ = try await timeToPlaying(playlist)
        _ = try PlaybinBaseline.playingTime(uri: playlist)
        _ = try await timeToFirstFrame(try HTTPStreamSource(string: server.url("movie.mp4")))
        var hls: [Double] = []
        var hlsPeer: [Double] = []
        var http: [Double] = []
        var local: [Double] = []
        for _ in 0..<runs {
            hls.append(try await timeToPlaying(playlist).milliseconds)
            hlsPeer.append(try PlaybinBaseline.playingTime(uri: playlist).milliseconds)
            http.append(try await timeToFirstFrame(try HTTPStreamSource(string: server.url("movie.mp4"))).milliseconds)
            local.append(try await timeToFirstFrame(FileSource(url: movie)).milliseconds)
        }
        var slow: [Double] = []
        var slowPeer: [Double] = []
        var interruptions = 0
        for _ in 0..<5 {
            var watch = Duration.seconds(1)
            slow.append(
                try await timeToPlaying(slowPlaylist, thenWatch: &watch, interruptions: &interruptions).milliseconds)
            slowPeer.append(try PlaybinBaseline.playingTime(uri: slowPlaylist).milliseconds)
        }
        _ = server
        _ = slowServer
        return [
            Measurement(
                "network", "hls-5mbit-ttff-p50", slow.median, "ms", baseline: slowPeer.median,
                ratio: slowPeer.median / slow.median),
            Measurement("network", "hls-5mbit-interrupted", Double(interruptions), "times"),
            Measurement(
                "network", "hls-ttff-p50", hls.median, "ms", baseline: hlsPeer.median,
                ratio: hlsPeer.median / hls.median),
            Measurement(
                "network", "hls-ttff-p95", hls.percentile(0.95), "ms", baseline: hlsPeer.percentile(0.95),
                ratio: hlsPeer.percentile(0.95) / hls.percentile(0.95)),
            Measurement(
                "network", "http-ttff-p50", http.median, "ms", baseline: local.median, ratio: local.median / http.median
            ),
            Measurement(
                "network", "http-ttff-p95", http.percentile(0.95), "ms", baseline: local.percentile(0.95),
                ratio: local.percentile(0.95) / http.percentile(0.95)),
        ]
    }

    /// A player with every default on `playlist`, from `prepareToPlay()` to playing.
    static func timeToPlaying(_ playlist: String) async throws -> Duration {
        var watch = Duration.zero
        var interruptions = 0
        return try await timeToPlaying(playlist, thenWatch: &watch, interruptions: &interruptions)
    }

    /// The same, then watching the playback for `watch` more, counting its interruptions.
    static func timeToPlaying(_ playlist: String, thenWatch watch: inout Duration, interruptions: inout Int)
        async throws -> Duration
    {
        let player = MoviePlayer(source: try HTTPStreamSource(string: playlist))
        let events = player.events
        let clock = ContinuousClock()
        let start = clock.now
        let preparation = Task { try await player.prepareToPlay() }
        var elapsed: Duration?
        for await event in events {
            if case .playbackDidFinish(_, let error?) = event { throw error }
            guard event == .playbackStateChanged(.playing) else { continue }
            elapsed = clock.now - start
            break
        }
        guard let elapsed else { throw BenchmarkError("the stream never played") }
        try await preparation.value
        if watch > .zero {
            let count = Locked(0)
            let counter = Task {
                for await event in player.events where event == .playbackStateChanged(.interrupted) {
                    count.withLock { $0 += 1 }
                }
            }
            // A benchmark may sleep: this is the time the playback is watched.
            try await Task.sleep(for: watch)
            counter.cancel()
            interruptions += count.withLock { $0 }
        }
        await player.shutdown()
        return elapsed
    }

    /// A player with every default on `source`, from `prepareToPlay()` to ready for display.
    static func timeToFirstFrame(_ source: any MediaSource) async throws -> Duration {
        let player = MoviePlayer(source: source)
        let events = player.events
        let clock = ContinuousClock()
        let start = clock.now
        let preparation = Task { try await player.prepareToPlay() }
        for await event in events where event == .readyForDisplayChanged(true) {
            let elapsed = clock.now - start
            try await preparation.value
            await player.shutdown()
            return elapsed
        }
        throw BenchmarkError("the player never became ready for display")
    }
}
