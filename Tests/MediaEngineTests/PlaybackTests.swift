import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

@Suite("Playing a movie")
struct PlaybackTests {
    private func player(for clip: TestMedia.Clip, sink: any VideoSink = NullVideoSink()) async throws -> MoviePlayer {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: clip)), videoSink: sink, audioOutput: .discard)
        player.shouldAutoplay = false
        return player
    }

    @Test("prepare, play, pause, seek, play to the end: the recorded events")
    func fullCycle() async throws {
        let player = try await player(for: TestMedia.bars)
        let recorder = EventRecorder(player)

        try await player.prepareToPlay()
        try await player.play()
        #expect(player.playbackState == .playing)
        #expect(player.currentPlaybackRate == 1)
        try await player.pause()
        #expect(player.playbackState == .paused)
        #expect(player.currentPlaybackRate == 0)
        try await player.seek(to: .milliseconds(1500))
        let position = player.currentPlaybackTime
        #expect(position >= .milliseconds(1466) && position <= .milliseconds(1534), "position \(position)")
        try await player.play()
        let (reason, error) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        #expect(error == nil)
        #expect(player.playbackState == .stopped)
        #expect(player.currentPlaybackTime == .seconds(2))

        let control = recorder.events.filter {
            switch $0 {
            case .playbackStateChanged, .seekCompleted, .playbackDidFinish: true
            default: false
            }
        }
        #expect(
            control == [
                .playbackStateChanged(.playing),
                .playbackStateChanged(.paused),
                .seekCompleted(position),
                .playbackStateChanged(.playing),
                .playbackStateChanged(.stopped),
                .playbackDidFinish(.playbackEnded, nil),
            ])
    }

    @Test("play() without prepareToPlay() prepares first; play after the end starts again")
    func playPreparesAndRestarts() async throws {
        let player = try await player(for: TestMedia.bars)
        let recorder = EventRecorder(player)
        try await player.play()
        #expect(player.isPreparedToPlay)
        _ = try await recorder.waitForFinish()
        try await player.play()
        #expect(player.playbackState == .playing)
        // From the start again, not at the end (2 s): read as soon as play() returns, which on a
        // machine loaded by `make stress`'s busy loop was 1.08 s later.
        #expect(player.currentPlaybackTime < .milliseconds(1500))
        player.stop()
        try await recorder.waitFor { $0.finish?.0 == .userExited }
        #expect(recorder.events.compactMap(\.finish).map(\.0) == [.playbackEnded, .userExited])
    }

    @Test("stop() releases the movie and finishes with userExited")
    func stop() async throws {
        let player = try await player(for: TestMedia.bars)
        let recorder = EventRecorder(player)
        try await player.play()
        player.stop()
        #expect(player.playbackState == .stopped)
        #expect(!player.isPreparedToPlay)
        #expect(!player.readyForDisplay)
        try await recorder.waitFor { $0.finish != nil }
        #expect(
            recorder.events.suffix(5) == [
                .playbackStateChanged(.stopped),
                .readyForDisplayChanged(false),
                .preparedToPlayChanged(false),
                .loadStateChanged(.unknown),
                .playbackDidFinish(.userExited, nil),
            ])
        #expect(recorder.events.compactMap(\.finish).map(\.0) == [.userExited])
        // A stopped player can play again.
        try await player.play()
        #expect(player.playbackState == .playing)
    }

    @Test("stop() during preparation cancels it")
    func stopDuringPreparation() async throws {
        let player = try await player(for: TestMedia.bars)
        let preparation = Task { try await player.prepareToPlay() }
        player.stop()
        let result = await preparation.result
        if case .failure(let error as MediaError) = result {
            #expect(error.code == .cancelled)
        }  // else it finished before stop() arrived: also correct
        #expect(!player.isPreparedToPlay || player.playbackState == .stopped)
    }

    @Test("seeking before preparation is a typed error")
    func seekBeforePrepare() async throws {
        let player = try await player(for: TestMedia.bars)
        await #expect(throws: MediaError.self) { try await player.seek(to: .seconds(1)) }
        do {
            try await player.seek(to: .seconds(1))
        } catch {
            #expect(error.code == .notPrepared)
        }
        try await player.prepareToPlay()
        do {
            try await player.seek(to: .seconds(-1))
            Issue.record("a negative seek must fail")
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }

    @Test("the frames sink delivers the expected picture")
    func framePixels() async throws {
        let sink = FrameSink(format: .rgba)
        let player = try await player(for: TestMedia.bars, sink: sink)
        try await player.prepareToPlay()
        let frame = try #require(sink.latestFrame())
        #expect(frame.width == 320 && frame.height == 240)
        #expect(frame.format == .rgba)
        // videotestsrc's SMPTE bars, top band, left to right: white, yellow, cyan, green, magenta, red, blue.
        let expected: [RGBAColor] = [
            .white, RGBAColor(red: 255, green: 255, blue: 0), RGBAColor(red: 0, green: 255, blue: 255), .green,
            RGBAColor(red: 255, green: 0, blue: 255), .red, .blue,
        ]
        for (index, color) in expected.enumerated() {
            let x = index * 320 / 7 + 320 / 14
            #expect(frame.color(atX: x, y: 40).isClose(to: color, tolerance: 24), "bar \(index) at x=\(x)")
        }
    }

    @Test("I420 frames arrive untouched, in order, one per frame of the movie")
    func i420Frames() async throws {
        let collected = FrameLog()
        let sink = FrameSink(format: .i420, synchronized: false) { frame in
            collected.append(
                format: frame.format, size: VideoSize(width: frame.width, height: frame.height),
                time: frame.presentationTime, planes: frame.planeCount,
                topLeft: frame.color(atX: 10, y: 10))
        }
        let player = try await player(for: TestMedia.bars, sink: sink)
        let recorder = EventRecorder(player)
        try await player.play()
        _ = try await recorder.waitForFinish()
        let frames = collected.entries
        #expect(frames.count == 60)
        #expect(sink.framesDelivered == 60)
        #expect(
            frames.allSatisfy { $0.format == .i420 && $0.planes == 3 && $0.size == VideoSize(width: 320, height: 240) })
        let times = frames.compactMap(\.time)
        #expect(times == times.sorted())
        #expect(times.first == .zero)
        #expect(frames[0].topLeft.isClose(to: .white, tolerance: 24))
    }

    @Test("frames scaled to a requested size keep the movie's shape, with black bars")
    func scaledFrames() async throws {
        let sink = FrameSink(format: .bgra, size: VideoSize(width: 160, height: 90))
        let player = try await player(for: TestMedia.bars, sink: sink)
        try await player.prepareToPlay()
        let frame = try #require(sink.latestFrame())
        #expect(frame.width == 160 && frame.height == 90 && frame.format == .bgra)
        // 4:3 in 16:9: a 120x90 picture between 20-pixel bars.
        #expect(frame.color(atX: 5, y: 20).isClose(to: .black, tolerance: 24))
        #expect(frame.color(atX: 24, y: 20).isClose(to: .white, tolerance: 40))
        #expect(frame.color(atX: 135, y: 20).isClose(to: .blue, tolerance: 40))
        #expect(frame.color(atX: 155, y: 20).isClose(to: .black, tolerance: 24))
    }
}

/// What a frame callback saw, collected across the streaming thread.
final class FrameLog: Sendable {
    struct Entry: Sendable {
        let format: PixelFormat
        let size: VideoSize
        let time: Duration?
        let planes: Int
        let topLeft: RGBAColor
    }

    private let storage = Locked<[Entry]>([])

    func append(format: PixelFormat, size: VideoSize, time: Duration?, planes: Int, topLeft: RGBAColor) {
        storage.withLock { $0.append(Entry(format: format, size: size, time: time, planes: planes, topLeft: topLeft)) }
    }

    var entries: [Entry] { storage.withLock { $0 } }
}
