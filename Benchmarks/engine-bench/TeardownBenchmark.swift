import FileSource
import Foundation
import MediaEngine
import Synchronization

/// `teardown`: does releasing players hold up Swift's cooperative threads? A watchdog task asks
/// to wake every millisecond and records how late it wakes. Its worst lateness over a window in
/// which 20 playing 720p players are stopped and released (their pipelines torn down on their own
/// threads) is compared, in the same run, with its worst lateness over a window of the same
/// length with no player, and over one in which the same 20 players only play (the load the
/// teardown starts from). Ratios: the quiet window's worst delay over the teardown window's (1 or
/// more: no lateness beyond the machine's own noise), and the playing window's over the teardown
/// window's (1 or more: tearing down added nothing to what playing 20 movies costs).
enum TeardownBenchmark {
    static let players = 20
    static let window = Duration.milliseconds(1500)

    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.hd720()
        // The quiet window first, then the same watchdog while players are torn down.
        let quiet = await worstWatchdogDelay(over: window) {}
        var playing: [MoviePlayer] = []
        for _ in 0..<players {
            let player = MoviePlayer(
                source: FileSource(url: movie), videoSink: FrameSink(synchronized: true), audioOutput: .discard)
            try await player.play()
            playing.append(player)
        }
        let busy = await worstWatchdogDelay(over: window) {}
        let handOver = Mutex<[MoviePlayer]>(playing)
        playing.removeAll()
        let longestCall = Mutex(Duration.zero)
        let teardown = await worstWatchdogDelay(over: window) {
            // Stop and release every player from a cooperative task, as an app would, timing
            // how long each stop-and-release holds that task.
            var all = handOver.withLock { players in
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
        return [
            Measurement(
                "teardown", "watchdog-worst-delay-20-players", teardown, "ms", baseline: quiet,
                ratio: max(quiet, 0.001) / max(teardown, 0.001)),
            Measurement(
                "teardown", "against-20-players-playing", teardown, "ms", baseline: busy,
                ratio: max(busy, 0.001) / max(teardown, 0.001)),
            Measurement("teardown", "longest-stop-and-release", longestCall.withLock { $0 }.milliseconds, "ms"),
        ]
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
