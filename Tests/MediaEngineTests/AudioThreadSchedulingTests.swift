import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// The threads that carry a player's sound ask the kernel for a short scheduler slice, so that on
/// a starved CPU they run first when they wake (`engine-bench --only qos`): read from the kernel
/// itself (`sched_getattr`) while a movie plays.
@Suite("The sound's threads run first")
struct AudioThreadSchedulingTests {
    /// The name the kernel has for thread `thread` of this process.
    static func name(ofThread thread: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/self/task/\(thread)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls `condition` every 20 ms until it holds, failing after `limit`: for what the kernel
    /// holds after the pipeline has gone, when no message of the player's is left to wait on.
    static func waitUntil(_ what: String, within limit: Duration = .seconds(10), _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("not within \(limit): \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test(
        "while a movie with sound plays, the threads that decode and deliver its sound hold a 0.1 ms slice, no video thread does; shut down, they give it back"
    )
    func soundThreadsHoldTheShortSlice() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.longBarsWithAudio)),
            videoSink: NullVideoSink(),
            audioOutput: .element(ElementDescription(factory: "fakesink", properties: ["sync": true])))
        let recorder = EventRecorder(player)
        _ = try player.addBoundaryTimeObserver(at: [.milliseconds(500)])
        try await player.play()
        let playbin = try #require(player.core.state.withLock { $0.session?.playbin })
        // Half a second played: the thread that decodes the sound (decodebin's multiqueue) and
        // the one that hands it to the sink (playsink's audio queue) have each carried buffers.
        try await recorder.waitFor("half a second played") {
            if case .boundaryTimeReached = $0 { true } else { false }
        }
        let threads = AudioThreads.identifiers(in: playbin)
        guard AudioThreads.slicesSupported else {
            // A kernel before 6.12 keeps no slice a thread asks for: nothing is asked or held.
            #expect(threads.isEmpty)
            await player.shutdown()
            return
        }
        #expect(threads.count >= 2, "the sound's decoding and queue threads")
        for thread in threads {
            #expect(
                AudioThreads.slice(ofThread: thread) == AudioThreads.shortSlice, "\(Self.name(ofThread: thread) ?? "?")"
            )
        }
        let names = threads.compactMap(Self.name(ofThread:))
        #expect(names.contains("aqueue:src"), "\(names)")
        #expect(!names.contains("vqueue:src"), "\(names)")
        // No thread that carries video, in any player of this process, holds it.
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for task in tasks.compactMap(Int32.init) where Self.name(ofThread: task) == "vqueue:src" {
            #expect(AudioThreads.slice(ofThread: task) != AudioThreads.shortSlice)
        }
        await player.shutdown()
        // Each thread gives the slice back as it leaves its task (the pipeline is torn down on a
        // thread of the engine's own, after shutdown returns).
        try await Self.waitUntil("every sound thread gave its slice back") {
            AudioThreads.identifiers(in: playbin).isEmpty
        }
        _ = playbin
    }
}
