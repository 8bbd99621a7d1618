import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Synchronization
import Testing

/// The threading contract of ``MoviePlayer``: commands from any thread only hand work to the
/// player's own thread, so a frame callback may command the player; stop is immediate; shutdown
/// waits for the teardown; releasing a player never waits for it.
@Suite("Player threading")
struct PlayerThreadingTests {
    /// The player a frame callback talks to, set once the player exists.
    final class PlayerBox: Sendable {
        let player = Locked<MoviePlayer?>(nil)
        let numbers = Locked<[Int]>([])
        let seeked = Atomic<Bool>(false)
    }

    @Test("setting currentPlaybackTime inside a frame callback seeks, and playback goes on to the end")
    func seekFromFrameCallback() async throws {
        let box = PlayerBox()
        let sink = FrameSink(format: .i420, synchronized: false) { frame in
            guard let number = FrameNumber.read(frame) else { return }
            box.numbers.withLock { $0.append(number) }
            // Once, at frame 30: back to the start, from the streaming thread itself.
            if number == 30, !box.seeked.exchange(true, ordering: .relaxed) {
                box.player.withLock { $0 }?.currentPlaybackTime = .zero
            }
        }
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: sink,
            audioOutput: .discard)
        box.player.withLock { $0 = player }
        defer { box.player.withLock { $0 = nil } }
        let recorder = EventRecorder(player)
        try await player.play()
        let (reason, error) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded && error == nil, "\(reason): \(String(describing: error))")
        let numbers = box.numbers.withLock { $0 }
        // Up to frame 30 (a frame or two more may have been decoded before the flush), then
        // the whole movie from frame 0, each frame once and in order.
        let restart = try #require(numbers.lastIndex(of: 0), "\(numbers)")
        #expect(restart > 0 && Array(numbers[..<restart]) == Array(0..<restart), "\(numbers)")
        #expect(numbers[..<restart].contains(30), "\(numbers)")
        #expect(Array(numbers[restart...]) == Array(0...59), "\(numbers)")
        #expect(recorder.events.contains(.seekCompleted(.zero)))
    }

    @Test("after stop() the position is the start of the movie, at once, and play() starts there")
    func stopGoesBackToTheStart() async throws {
        let frames = FrameRecorder()
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: frames.sink(),
            audioOutput: .discard)
        player.shouldAutoplay = false
        try await player.prepareToPlay()
        try await player.seek(to: .seconds(1))
        #expect(player.currentPlaybackTime >= .milliseconds(966))
        player.stop()
        #expect(player.playbackState == .stopped && !player.isPreparedToPlay)
        #expect(player.currentPlaybackTime == .zero)
        // MPMoviePlayerController: "playback will commence from the beginning of the movie".
        frames.reset()
        try await player.play()
        try await frames.waitForFrames(1)
        #expect(frames.records.first?.number == 0, "\(frames.records)")
        await player.shutdown()
    }

    /// What a frame callback saw of a stop it made itself.
    final class StopFromCallback: Sendable {
        let player = Locked<MoviePlayer?>(nil)
        /// The frames delivered, in order.
        let numbers = Locked<[Int]>([])
        /// Frames delivered after `stop()` had returned.
        let afterStop = Locked<[Int]>([])
        let stopped = Atomic<Bool>(false)
        let stops = AsyncStream<Void>.makeStream()
    }

    @Test(
        "no frame reaches a frames sink's callback once stop() has returned, though the pipeline goes on its own thread",
        arguments: [PixelFormat.i420, .rgba])
    func noFrameAfterStop(format: PixelFormat) async throws {
        let box = StopFromCallback()
        // As fast as frames decode, and stop() called from the callback itself: every later
        // callback runs on the same thread after stop() returned, so any is one too many.
        let sink = FrameSink(format: format, synchronized: false) { frame in
            if box.stopped.load(ordering: .sequentiallyConsistent) {
                box.afterStop.withLock { $0.append(frame.index) }
                return
            }
            box.numbers.withLock { $0.append(frame.index) }
            if frame.index == 10 {
                box.player.withLock { $0 }?.stop()
                box.stopped.store(true, ordering: .sequentiallyConsistent)
                box.stops.continuation.yield()
            }
        }
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: sink,
            audioOutput: .discard)
        box.player.withLock { $0 = player }
        defer { box.player.withLock { $0 = nil } }
        try await player.play()
        // shutdown() returns once the pipeline is torn down: nothing can be delivered after it.
        let stops = box.stops.stream
        try await withDeadline(.seconds(20), "the stop at frame 10") {
            for await _ in stops { return }
        }
        await player.shutdown()
        #expect(box.numbers.withLock { $0 } == Array(0...10))
        let afterStop = box.afterStop.withLock { $0 }
        #expect(afterStop.isEmpty, "delivered after stop() returned: \(afterStop)")
        #expect(player.playbackState == .stopped)
    }

    /// The file descriptors of this process that point at `path`.
    private func descriptors(opening path: String) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) == path
        }.count
    }

    @Test("shutdown() returns once the movie's file is closed; it can be called again, and the player plays again")
    func shutdownWaitsForTeardown() async throws {
        // A copy of its own: other tests open the shared clip at the same time.
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("own.mp4")
        try FileManager.default.copyItem(at: try await TestMedia.url(for: TestMedia.bars), to: url)
        let player = MoviePlayer(source: FileSource(url: url), videoSink: NullVideoSink(), audioOutput: .discard)
        try await player.play()
        #expect(descriptors(opening: url.path) > 0)
        await player.shutdown()
        #expect(descriptors(opening: url.path) == 0)
        #expect(player.playbackState == .stopped)
        await player.shutdown()
        let recorder = EventRecorder(player)
        try await player.play()
        let (reason, _) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        await player.shutdown()
        #expect(descriptors(opening: url.path) == 0)
    }

    @Test("commands from many tasks at once all complete or fail typed; the player ends stopped and usable")
    func concurrentCommands() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.longBars)), videoSink: NullVideoSink(),
            audioOutput: .discard)
        try await player.prepareToPlay()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    do throws(MediaError) {
                        switch index % 5 {
                        case 0: try await player.play()
                        case 1: try await player.pause()
                        case 2: try await player.seek(to: .milliseconds(100 * index), option: .nearestKeyFrame)
                        case 3: player.currentPlaybackTime = .milliseconds(50 * index)
                        default: try await player.setRate(index % 2 == 0 ? 2 : 1)
                        }
                    } catch {
                        // Superseded or stopped: a typed error, never a hang.
                        if error.code != .cancelled && error.code != .notPrepared {
                            Issue.record("a command failed with \(error.code): \(error.message)")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        player.stop()
        #expect(player.playbackState == .stopped)
        try await player.prepareToPlay()
        #expect(player.isPreparedToPlay)
        await player.shutdown()
    }
}

@Suite("Unpaced outputs")
struct UnpacedOutputTests {
    /// Plays a clip to the end and returns the wall time it took, and the player.
    private func playToEnd(_ clip: TestMedia.Clip, _ sink: FrameSink, audio: AudioOutput) async throws -> (
        Duration, MoviePlayer
    ) {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: clip)), videoSink: sink, audioOutput: audio)
        player.shouldAutoplay = false
        let recorder = EventRecorder(player)
        try await player.prepareToPlay()
        let start = ContinuousClock.now
        try await player.play()
        let (reason, error) = try await recorder.waitForFinish(within: .seconds(60))
        #expect(reason == .playbackEnded && error == nil, "\(String(describing: error))")
        return (ContinuousClock.now - start, player)
    }

    @Test(
        "an unsynchronized frames sink runs a movie with sound flat out, not at the sound's pace",
        arguments: [AudioOutput.automatic, .discard, .none])
    func flatOutWithSound(audio: AudioOutput) async throws {
        // Each frame's presentation time, and when it reached the sink.
        let arrivals = Locked<[(time: Duration, at: ContinuousClock.Instant)]>([])
        let sink = FrameSink(synchronized: false) { frame in
            guard let time = frame.presentationTime else { return }
            let now = ContinuousClock.now
            arrivals.withLock { $0.append((time, now)) }
        }
        let (elapsed, player) = try await playToEnd(TestMedia.longBarsWithAudio, sink, audio: audio)
        #expect(sink.framesDelivered == 600)
        // Twenty seconds of movie. Paced by the sound, no frame comes before its time: the movie
        // never gets ahead of the wall clock (by more than the sound's buffer). Flat out, it is
        // many seconds ahead before the end, however busy the machine (it takes a fraction of a
        // second when idle; more than ten seconds once, in a loaded step of `make stress`).
        let frames = arrivals.withLock { $0 }
        let first = try #require(frames.first)
        let ahead = frames.map { ($0.time - first.time) - ($0.at - first.at) }.max() ?? .zero
        #expect(ahead > .seconds(5), "\(audio): 20 s of movie took \(elapsed), at most \(ahead) ahead of the clock")
        #expect(player.movieMediaTypes == [.video, .audio])
        await player.shutdown()
    }

    @Test("a synchronized frames sink still plays at the movie's pace")
    func pacedWithSound() async throws {
        let sink = FrameSink(synchronized: true, dropsLateFrames: false)
        let (elapsed, player) = try await playToEnd(TestMedia.numberedWithAudio, sink, audio: .discard)
        #expect(sink.framesDelivered == 60)
        #expect(elapsed >= .milliseconds(1900), "2 s of movie took \(elapsed)")
        await player.shutdown()
    }
}
