import Dispatch
import FileSource
import MediaEngine
import MediaTestSupport
import Testing

@testable import MediaEngineCore

extension QueueTests {
    /// Holds a player's own thread, which handles its bus messages, from a frame late in one
    /// movie of a queue until the next movie's first frame has reached the sink, as a machine
    /// too busy to run that thread does: the messages of the hand-over wait, and are handled
    /// after the pipeline has gone on to the next movie.
    final class HandOverHold: Sendable {
        /// Where a hold starts (the `frame`th frame of `height`) and the height that ends it.
        struct Hold: Sendable {
            let height: Int
            let frame: Int
            let until: Int
        }

        private struct State {
            var executor: PlayerExecutor?
            var counts: [Int: Int] = [:]
            var waiting: [Int: DispatchSemaphore] = [:]
        }

        private let holds: [Hold]
        private let state = Locked(State())

        init(_ holds: [Hold]) {
            self.holds = holds
        }

        /// The player whose thread to hold.
        func attach(to player: MoviePlayer) {
            let executor = player.core.executor
            state.withLock { $0.executor = executor }
        }

        /// A frame of `height` reached the sink (on the streaming thread).
        func frameSeen(height: Int) {
            let (executor, hold, release) = state.withLock { state in
                let count = state.counts[height, default: 0] + 1
                state.counts[height] = count
                let release = count == 1 ? state.waiting.removeValue(forKey: height) : nil
                guard let start = holds.first(where: { $0.height == height && $0.frame == count }) else {
                    return (state.executor, DispatchSemaphore?.none, release)
                }
                let gate = DispatchSemaphore(value: 0)
                state.waiting[start.until] = gate
                return (state.executor, gate, release)
            }
            release?.signal()
            // Bounded, so that a hand-over that never comes fails the test instead of hanging it.
            if let hold { executor?.enqueue { _ = hold.wait(timeout: .now() + 10) } }
        }
    }

    /// The durations announced for each item of a queue, in order: those before the first
    /// `queueItemChanged`, then those after each.
    static func durationsPerItem(_ events: [PlayerEvent]) -> [[Duration]] {
        events.reduce(into: [[]]) { items, event in
            switch event {
            case .queueItemChanged: items.append([])
            case .durationAvailable(let duration): items[items.count - 1].append(duration)
            default: break
            }
        }
    }

    @Test("each movie's duration is announced once, its own, when the player's thread falls behind the hand-overs")
    func durationsWithPlayerThreadBehind() async throws {
        let seen = Locked<[Seen]>([])
        // Held from half a second before the end of the first and second movies until the next
        // one shows: its parser's duration-changed message and its stream start wait meanwhile.
        let hold = HandOverHold([.init(height: 240, frame: 45, until: 180), .init(height: 180, frame: 15, until: 184)])
        let sink = FrameSink(dropsLateFrames: false) { frame in
            let record = Seen(height: frame.height, runningTime: frame.runningTime)
            seen.withLock { $0.append(record) }
            hold.frameSeen(height: record.height)
        }
        let player = MoviePlayer(source: FileSource(path: "/nonexistent.mp4"), videoSink: sink, audioOutput: .discard)
        player.shouldAutoplay = false
        hold.attach(to: player)
        try player.setQueue([
            FileSource(url: try await TestMedia.url(for: TestMedia.numbered)),
            FileSource(url: try await TestMedia.url(for: TestMedia.wideBars)),
            FileSource(url: try await TestMedia.url(for: TestMedia.ballWithBFrames)),
        ])
        let recorder = EventRecorder(player)
        try await player.play()
        let (reason, _) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        #expect(Self.runs(seen.withLock { $0 }).map(\.height) == [240, 180, 184])
        let events = recorder.events
        #expect(
            Self.durationsPerItem(events) == [[.seconds(2)], [.seconds(1)], [.milliseconds(1500)]], "\(events)")
    }
}
