import Dispatch
import FileSource
import Foundation
import MediaTestSupport
import Synchronization
import Testing

@testable import MediaEngineCore

/// One player's pipeline stuck on its way to NULL holds up no other player, is reported, and does
/// not make the process grow threads without bound (``PipelineTeardown``).
@Suite("Teardown isolation")
struct TeardownIsolationTests {
    /// A frames callback that blocks, once told to, until let go: the streaming thread then holds
    /// the sink's streaming lock, and the sink cannot leave PAUSED: the pipeline's way to NULL
    /// stops there. The callback a careless app writes (a semaphore it forgets to signal).
    final class Blocker: Sendable {
        private let blocking = Atomic<Bool>(false)
        private let gate = DispatchSemaphore(value: 0)
        private let entered = DispatchSemaphore(value: 0)

        func frame() {
            guard blocking.load(ordering: .acquiring) else { return }
            entered.signal()
            gate.wait()
            gate.signal()  // every later frame passes too
        }

        /// Blocks the next frame's callback and waits until one is blocked.
        func block() async throws {
            blocking.store(true, ordering: .releasing)
            let entered = entered
            try await withDeadline(.seconds(5), "a frame callback blocked") {
                try await OwnThread.run { entered.wait() }
            }
        }

        func letGo() { gate.signal() }
    }

    /// A player playing into a frames sink whose callback `blocker` blocks.
    static func blockedPlayer(_ blocker: Blocker) async throws -> MoviePlayer {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.longBars)),
            videoSink: FrameSink(dropsLateFrames: false) { _ in blocker.frame() }, audioOutput: .discard)
        try await player.play()
        try await blocker.block()
        return player
    }

    /// How long another player's prepareToPlay() and shutdown() take, in seconds.
    static func otherPlayer() async throws -> (prepare: Double, shutdown: Double) {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: NullVideoSink(),
            audioOutput: .discard)
        player.shouldAutoplay = false
        let clock = ContinuousClock()
        let start = clock.now
        try await withDeadline(.seconds(10), "the other player's prepareToPlay()") { try await player.prepareToPlay() }
        let prepared = clock.now
        try await withDeadline(.seconds(10), "the other player's shutdown()") { await player.shutdown() }
        return ((prepared - start).inSeconds, (clock.now - prepared).inSeconds)
    }

    /// The process's teardown threads (`me-teardown`), from /proc.
    static func teardownThreads() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return name?.trimmingCharacters(in: .whitespacesAndNewlines) == "me-teardown"
        }.count
    }

    @Test("a player whose teardown is stuck holds up no other player's prepare or shutdown, and is reported")
    func stuckTeardown() async throws {
        let control = try await Self.otherPlayer()
        let blocker = Blocker()
        let stuck = try await Self.blockedPlayer(blocker)
        let recorder = EventRecorder(stuck)
        stuck.stop()
        // Meanwhile, another player comes and goes as usual. Before, its teardown waited behind
        // the stuck one on the process's one teardown thread: its shutdown() never returned.
        let during = try await Self.otherPlayer()
        #expect(
            during.prepare < control.prepare + 0.1 && during.shutdown < control.shutdown + 0.1,
            "with nothing stuck \(control); with a stuck teardown \(during)")
        // The stuck one is reported, naming the sink that holds it.
        try await recorder.waitFor("the stall's report", within: .seconds(6)) { event in
            guard case .teardownStalled(let element, let after) = event else { return false }
            return element.contains("appsink") && after >= PipelineTeardown.stuckAfter
        }
        // Its own shutdown() returns: it waits for a stuck teardown only as long as it takes to report it.
        let clock = ContinuousClock()
        let start = clock.now
        await stuck.shutdown()
        #expect(clock.now - start < PipelineTeardown.stuckAfter + .seconds(1))
        // Let go, the pipeline reaches NULL: shutdown() now returns once it has.
        blocker.letGo()
        let afterRelease = clock.now
        await stuck.shutdown()
        #expect(clock.now - afterRelease < .seconds(2))
    }

    @Test("teardowns that keep getting stuck hold at most the cap of threads, and the extra ones go when done")
    func boundedThreads() async throws {
        let before = Self.teardownThreads()
        let blockers = (0..<(PipelineTeardown.maximumThreads + 2)).map { _ in Blocker() }
        var players: [MoviePlayer] = []
        for blocker in blockers {
            let player = try await Self.blockedPlayer(blocker)
            player.stop()
            players.append(player)
        }
        // Each stuck teardown took a thread of its own, up to the cap; the rest wait.
        try await withDeadline(.seconds(10), "the teardown threads to reach the cap") {
            while Self.teardownThreads() < PipelineTeardown.maximumThreads {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(Self.teardownThreads() == PipelineTeardown.maximumThreads, "never more than the cap")
        for blocker in blockers { blocker.letGo() }
        for player in players { await player.shutdown() }
        // The threads started for stuck teardowns leave a second after their last one.
        try await withDeadline(.seconds(10), "the extra teardown threads to leave") {
            while Self.teardownThreads() > max(before, 1) { try await Task.sleep(for: .milliseconds(100)) }
        }
    }
}
