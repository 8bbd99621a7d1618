import FileSource
import MediaEngine
import MediaTestSupport
import Testing

/// Playback range, gapless repeat, autoplay and content replacement.
@Suite("Range, repeat and replacement")
struct RepeatAndRangeTests {
    @Test("repeat one plays three passes with every frame exactly once per pass and no gap between passes")
    func gaplessRepeat() async throws {
        let frames = FrameRecorder()
        let player = try await MoviePlayer.recording(frames, synchronized: false)
        player.repeatMode = .one
        let recorder = EventRecorder(player)
        try await player.play()
        try await frames.waitForFrames(180)
        player.repeatMode = .none
        _ = try await recorder.waitForFinish()
        let numbers = frames.records.prefix(180).compactMap(\.number)
        #expect(numbers == Array(0...59) + Array(0...59) + Array(0...59), "\(numbers)")
        // On the sink's running time the first frame of a pass follows the last frame of the
        // previous one by exactly one frame interval, as every other frame does.
        let times = frames.records.prefix(180).compactMap(\.runningTime)
        for boundary in [60, 120] {
            let gap = times[boundary] - times[boundary - 1]
            #expect(
                gap.isClose(to: .microseconds(33_333), within: .milliseconds(1)),
                "gap \(gap) at pass \(boundary / 60): \(frames.records[(boundary - 3)...(boundary + 2)].map { "\($0.number ?? -1) pts \($0.presentationTime!) rt \($0.runningTime!)" })"
            )
        }
        #expect(recorder.events.contains(.didLoop(1)) && recorder.events.contains(.didLoop(2)))
    }

    @Test(
        "paused just before a looping movie's end: the loop waits for play, and the player answers meanwhile",
        arguments: [48, 52, 56])
    func pausedAtTheLoop(frame: Int) async throws {
        let frames = FrameRecorder()
        let player = try await MoviePlayer.recording(frames)
        player.repeatMode = .one
        let recorder = EventRecorder(player)
        try await player.play()
        try await frames.waitUntil("frame \(frame)") { $0.contains { ($0.number ?? 0) >= frame } }
        try await withDeadline(.seconds(5), "the pause") { try await player.pause() }
        // The movie's end is reached while paused (its last frames fit in the queues): the
        // loop's seek must not hold the player's thread, which answers a seek and then play.
        try await withDeadline(.seconds(5), "a seek while paused") {
            try await player.seek(to: .milliseconds(1_900))
        }
        let shown = frames.records.count
        try await withDeadline(.seconds(5), "play") { try await player.play() }
        // After the loop, the movie again from its first frame, and on.
        try await frames.waitUntil("the movie again from its start") { records in
            let after = records.dropFirst(shown).compactMap(\.number)
            return after.firstIndex(of: 0).map { after[$0...].contains(10) } ?? false
        }
        #expect(recorder.events.contains(.didLoop(1)))
        try await withDeadline(.seconds(5), "a pause after the loop") { try await player.pause() }
        await player.shutdown()
    }

    @Test("the playback range starts and ends playback, and loops with repeat")
    func range() async throws {
        let frames = FrameRecorder()
        let player = try await MoviePlayer.recording(frames, synchronized: false)
        try player.setPlaybackRange(initial: .milliseconds(500), end: .seconds(1))
        let recorder = EventRecorder(player)
        try await player.prepareToPlay()
        #expect(frames.records.last?.number == 15)
        #expect(player.currentPlaybackTime == .milliseconds(500))
        try await player.play()
        let (reason, _) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        #expect(frames.records.compactMap(\.number) == Array(15...29))
        #expect(player.currentPlaybackTime == .seconds(1))

        // The same range, looping.
        frames.reset()
        player.repeatMode = .one
        try await player.play()
        try await frames.waitForFrames(45)
        player.stop()
        #expect(
            Array(frames.records.prefix(45).compactMap(\.number)) == Array(15...29) + Array(15...29) + Array(15...29))
    }

    @Test("initialPlaybackTime and endPlaybackTime are settable, as in the seed; -1 is the natural start and end")
    func rangeProperties() async throws {
        let frames = FrameRecorder()
        let player = try await MoviePlayer.recording(frames, synchronized: false)
        player.initialPlaybackTime = .milliseconds(500)
        player.endPlaybackTime = .seconds(1)
        #expect(player.initialPlaybackTime == .milliseconds(500) && player.endPlaybackTime == .seconds(1))
        let recorder = EventRecorder(player)
        try await player.play()
        let (reason, _) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        #expect(frames.records.compactMap(\.number) == Array(15...29))
        // Invalid: an end before the start is ignored, the range stays.
        player.endPlaybackTime = .milliseconds(100)
        #expect(player.endPlaybackTime == .seconds(1))
        // The seed's -1: the natural start and end.
        player.initialPlaybackTime = .seconds(-1)
        player.endPlaybackTime = .seconds(-1)
        #expect(player.initialPlaybackTime == nil && player.endPlaybackTime == nil)
        player.stop()
        await player.shutdown()
    }

    @Test("bad ranges are typed errors and leave the range as it was")
    func badRanges() async throws {
        let player = try await MoviePlayer.recording(FrameRecorder())
        try player.setPlaybackRange(initial: .milliseconds(200), end: nil)
        let ranges: [(Duration?, Duration?)] = [
            (.seconds(-1), nil), (.seconds(1), .milliseconds(500)), (nil, .zero), (.seconds(1), .seconds(1)),
        ]
        for (initial, end) in ranges {
            #expect { try player.setPlaybackRange(initial: initial, end: end) } throws: {
                ($0 as? MediaError)?.code == .invalidArgument
            }
        }
        #expect(player.initialPlaybackTime == .milliseconds(200))
        #expect(player.endPlaybackTime == nil)
    }

    @Test("with shouldAutoplay, prepareToPlay() starts playback by itself")
    func autoplay() async throws {
        let frames = FrameRecorder()
        let player = try await MoviePlayer.recording(frames, autoplay: true)
        let recorder = EventRecorder(player)
        try await player.prepareToPlay()
        try await recorder.waitFor { $0 == .playbackStateChanged(.playing) }
        try await frames.waitForFrames(5)
    }

    @Test("a new source replaces the playing movie, reusing the pipeline, and plays")
    func replacement() async throws {
        let frames = FrameRecorder()
        // A movie still playing when it is replaced, however slow the machine: under the
        // sanitizers the 2-second numbered clip had ended by then, and the engine (rightly) does
        // not start the movie that replaces one that has ended.
        let player = try await MoviePlayer.recording(frames, clip: TestMedia.longBars)
        let replacement = FileSource(url: try await TestMedia.url(for: TestMedia.anamorphic))
        let recorder = EventRecorder(player)
        try await player.play()
        try await frames.waitForFrames(3)
        player.source = replacement
        do {
            try await recorder.waitFor { $0 == .naturalSizeAvailable(VideoSize(width: 400, height: 100)) }
            try await recorder.waitFor { $0 == .preparedToPlayChanged(true) }
        } catch {
            Issue.record("\(error); the events: \(recorder.events)")
            throw error
        }
        let afterReplacement = recorder.events.drop { $0 != .nowPlayingMovieChanged }
        #expect(afterReplacement.first == .nowPlayingMovieChanged)
        #expect(!recorder.events.contains(.playbackDidFinish(.userExited, nil)), "a replaced movie does not finish")
        do {
            try await recorder.waitFor("the new movie playing") { _ in
                afterReplacement.contains(.playbackStateChanged(.playing)) || player.playbackState == .playing
            }
        } catch {
            Issue.record("\(error); the events: \(recorder.events)")
        }
        #expect(player.naturalSize == VideoSize(width: 400, height: 100))
        #expect(player.duration == .seconds(1))
    }
}
