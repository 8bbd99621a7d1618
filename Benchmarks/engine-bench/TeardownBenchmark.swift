import Dispatch
import FileSource
import Foundation
import MediaEngine
import Synchronization

/// `teardown`: does releasing players hold up Swift's cooperative threads? A watchdog task asks
/// to wake every millisecond and records how late it wakes. Its worst lateness over a window in
/// which 20 prepared, paused 720p players are stopped and released (their pipelines torn down off
/// the cooperative pool) is compared with its worst lateness over a window of the same length
/// with no player: the cost of the teardown alone. The same is measured with 20 players that
/// play (720p decoding on 2 cores), against a window in which those 20 only play: what stopping
/// adds to the load it starts from.
///
/// One window's worst wake-up is a tail figure: on an idle 2-core machine it ranges from about 1
/// to 9 ms from one window to the next, whatever runs. So the windows are measured in `rounds`
/// interleaved rounds (no player; 20 playing; those stopped and released; 20 paused ones stopped
/// and released; no player again; each batch starts once every player of the last one is gone),
/// and the medians are compared. The two quiet windows of each round give the yardstick:
/// `quiet-vs-quiet` is the ratio of their medians, what two runs of the same nothing differ by.
/// `paused-20-stopped-later-than-quiet` compares every teardown window with every quiet one: the
/// share of those pairs in which the teardown window's worst wake-up was the later (ties count
/// half), 0.5 when the two cannot be told apart; its baseline is the same share for the second
/// quiet windows against the first. A run has 9 rounds; `ENGINE_BENCH_TEARDOWN_ROUNDS=N` asks
/// for more, for a share that one run can stand on (54 rounds take about 7 minutes). A teardown that blocked a cooperative thread (tens of milliseconds, as before
/// the player's own thread took it over) would show in every teardown window, so in the median
/// too. `longest-stop-and-release` is the wall time of the longest `stop()` and release on the
/// task, preemption included.
///
/// Ratios: the quiet median over the paused teardown's (1 or more: no lateness beyond the
/// machine's own noise), the playing median over the playing teardown's (1 or more: tearing down
/// added nothing to what playing 20 movies costs), and, for the record, the quiet median over
/// the playing teardown's (20 decoders on 2 cores wind down during that window).
enum TeardownBenchmark {
    static let players = 20
    static let rounds: Int = {
        let asked = ProcessInfo.processInfo.environment["ENGINE_BENCH_TEARDOWN_ROUNDS"].flatMap { Int($0) }
        return asked.map { min(max($0, 1), 1000) } ?? 9
    }()
    static let window = Duration.milliseconds(1500)

    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.hd720()
        var quiet: [Double] = []
        var quietAgain: [Double] = []
        var busy: [Double] = []
        var stoppingPlaying: [Double] = []
        var stoppingPaused: [Double] = []
        var longest = Duration.zero
        for _ in 0..<rounds {
            quiet.append(await worstWatchdogDelay(over: window) {})
            var playing = try await makePlayers(movie, playing: true)
            busy.append(await worstWatchdogDelay(over: window) {})
            let (delay, held) = await stopAndRelease(&playing)
            stoppingPlaying.append(delay)
            await waitForPlayersToEnd()
            var paused = try await makePlayers(movie, playing: false)
            let (pausedDelay, pausedHeld) = await stopAndRelease(&paused)
            stoppingPaused.append(pausedDelay)
            longest = max(longest, held, pausedHeld)
            await waitForPlayersToEnd()
            quietAgain.append(await worstWatchdogDelay(over: window) {})
        }
        FileHandle.standardError.write(
            Data(
                ("teardown: worst delays per round, ms: quiet \(format(quiet)); quiet again \(format(quietAgain)); "
                    + "20 prepared, paused, stopped "
                    + "\(format(stoppingPaused)); 20 playing \(format(busy)); 20 playing, stopped "
                    + "\(format(stoppingPlaying))\n").utf8))
        return [
            Measurement(
                "teardown", "paused-20-stopped-p50", stoppingPaused.median, "ms", baseline: quiet.median,
                ratio: max(quiet.median, 0.001) / max(stoppingPaused.median, 0.001)),
            Measurement(
                "teardown", "playing-20-stopped-p50", stoppingPlaying.median, "ms", baseline: busy.median,
                ratio: max(busy.median, 0.001) / max(stoppingPlaying.median, 0.001)),
            Measurement(
                "teardown", "playing-20-stopped-vs-quiet", stoppingPlaying.median, "ms", baseline: quiet.median,
                ratio: max(quiet.median, 0.001) / max(stoppingPlaying.median, 0.001)),
            Measurement(
                "teardown", "quiet-vs-quiet", quietAgain.median, "ms", baseline: quiet.median,
                ratio: max(quiet.median, 0.001) / max(quietAgain.median, 0.001)),
            Measurement(
                "teardown", "paused-20-stopped-later-than-quiet", laterShare(stoppingPaused, than: quiet + quietAgain),
                "share", baseline: laterShare(quietAgain, than: quiet)),
            Measurement("teardown", "longest-stop-and-release", longest.milliseconds, "ms"),
        ]
    }

    /// 20 players of `movie`, playing, or prepared and paused on their first frame.
    private static func makePlayers(_ movie: URL, playing: Bool) async throws -> [MoviePlayer] {
        var players: [MoviePlayer] = []
        for _ in 0..<Self.players {
            let player = MoviePlayer(
                source: FileSource(url: movie), videoSink: FrameSink(synchronized: true), audioOutput: .discard)
            player.shouldAutoplay = false
            if playing {
                try await player.play()
            } else {
                try await player.prepareToPlay()
                try await player.pause()
            }
            players.append(player)
        }
        return players
    }

    /// Stops and releases every player from a cooperative task, as an app would, while the
    /// watchdog runs; returns its worst lateness and the longest one stop-and-release held the
    /// task. The caller's array is emptied, so the players' last references go with the stops.
    private static func stopAndRelease(_ handOver: inout [MoviePlayer]) async -> (Double, Duration) {
        let players = Mutex(handOver)
        handOver.removeAll()
        let longestCall = Mutex(Duration.zero)
        let delay = await worstWatchdogDelay(over: window) {
            var all = players.withLock { players in
                defer { players.removeAll() }
                return players
            }
            while !all.isEmpty {
                let start = ContinuousClock.now
                all.removeLast().stop()  // stopped, and the last reference released
                let held = ContinuousClock.now - start
                longestCall.withLock { $0 = max($0, held) }
            }
        }
        return (delay, longestCall.withLock { $0 })
    }

    /// The share of pairs (one of `values`, one of `others`) in which the first is the larger,
    /// ties counting half: the probability that a window of `values` was the later.
    private static func laterShare(_ values: [Double], than others: [Double]) -> Double {
        guard !values.isEmpty, !others.isEmpty else { return .nan }
        var later = 0.0
        for value in values {
            for other in others {
                later += value > other ? 1 : (value == other ? 0.5 : 0)
            }
        }
        return later / Double(values.count * others.count)
    }

    private static func format(_ values: [Double]) -> String {
        values.map { String(format: "%.1f", $0) }.joined(separator: " ")
    }

    /// Waits, off the cooperative pool, until every player's thread and pipeline is gone.
    private static func waitForPlayersToEnd() async {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                _ = GStreamer.waitForPlayersToShutDown()
                continuation.resume()
            }
        }
    }

    /// Runs `action` on a cooperative task while a watchdog task wakes every millisecond for
    /// `window`, and returns the watchdog's worst lateness in milliseconds.
    private static func worstWatchdogDelay(over window: Duration, _ action: @escaping @Sendable () async -> Void)
        async -> Double
    {
        let clock = ContinuousClock()
        let watchdog = Task {
            var worst = Duration.zero
            let end = clock.now + window
            while clock.now < end {
                let asked = clock.now + .milliseconds(1)
                try? await Task.sleep(until: asked, clock: clock)  // The measurement itself: how late does it wake?
                worst = max(worst, clock.now - asked)
            }
            return worst
        }
        await Task { await action() }.value
        return await watchdog.value.milliseconds
    }
}
