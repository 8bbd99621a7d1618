import FileSource
import MediaEngine
import MediaTestSupport
import Testing

@Suite("Time observers")
struct TimeObserverTests {
    private func player() async throws -> MoviePlayer {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: NullVideoSink(),
            audioOutput: .discard)
        player.shouldAutoplay = false
        return player
    }

    @Test("a periodic observer reports the position while playing, and stops when removed")
    func periodic() async throws {
        let player = try await player()
        let recorder = EventRecorder(player)
        let observer = try player.addPeriodicTimeObserver(every: .milliseconds(250))
        try await player.play()
        _ = try await recorder.waitForFinish()
        let times = recorder.events.compactMap { event -> Duration? in
            if case .periodicTime(observer, let time) = event { return time }
            return nil
        }
        // Two seconds of movie, a report every quarter second: about seven, in order.
        #expect((5...9).contains(times.count), "\(times)")
        #expect(times == times.sorted())
        #expect(times.allSatisfy { $0 <= .seconds(2) })

        player.removeTimeObserver(observer)
        try await player.play()
        try await recorder.waitUntil("the second finish") { $0.filter { $0.finish != nil }.count == 2 }
        let afterRemoval = recorder.events.drop { $0.finish == nil }.dropFirst()
            .filter { if case .periodicTime = $0 { true } else { false } }
        #expect(afterRemoval.count <= 1, "\(afterRemoval)")  // at most one already on its way
    }

    @Test("a boundary observer fires once at each time playback crosses, in order")
    func boundaries() async throws {
        let player = try await player()
        let recorder = EventRecorder(player)
        let observer = try player.addBoundaryTimeObserver(at: [.milliseconds(1500), .milliseconds(500), .seconds(1)])
        try await player.play()
        _ = try await recorder.waitForFinish()
        let crossed = recorder.events.compactMap { event -> Duration? in
            if case .boundaryTimeReached(observer, let time) = event { return time }
            return nil
        }
        #expect(crossed == [.milliseconds(500), .seconds(1), .milliseconds(1500)])
    }

    @Test("nothing fires while paused; bad observers are typed errors")
    func pausedAndBad() async throws {
        let player = try await player()
        #expect { try player.addPeriodicTimeObserver(every: .zero) } throws: {
            ($0 as? MediaError)?.code == .invalidArgument
        }
        #expect { try player.addBoundaryTimeObserver(at: []) } throws: { ($0 as? MediaError)?.code == .invalidArgument }
        #expect { try player.addBoundaryTimeObserver(at: [.seconds(-1)]) } throws: {
            ($0 as? MediaError)?.code == .invalidArgument
        }
        let recorder = EventRecorder(player)
        _ = try player.addPeriodicTimeObserver(every: .milliseconds(20))
        try await player.prepareToPlay()
        try await player.seek(to: .seconds(1))
        // A later event, published after anything a timer could have fired.
        try await player.seek(to: .milliseconds(500))
        try await recorder.waitFor { $0 == .seekCompleted(.milliseconds(500)) }
        #expect(!recorder.events.contains { if case .periodicTime = $0 { true } else { false } })
    }
}
