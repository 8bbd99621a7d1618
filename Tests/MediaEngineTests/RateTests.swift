import FileSource
import MediaEngine
import MediaTestSupport
import Testing

/// Rates, reverse playback and scanning, checked on the frames' own numbers and running times.
@Suite("Rate and scanning")
struct RateTests {
    @Test("a rate change while playing keeps every frame and shows them twice as fast at 2x")
    func doubleSpeedWithoutJump() async throws {
        let frames = FrameRecorder()
        let player = try await MoviePlayer.recording(frames)
        // The clip repeats, so the player is still playing when the test's task reads the rate,
        // however late it resumes on a busy machine.
        player.repeatMode = .one
        let recorder = EventRecorder(player)
        try await player.play()
        try await frames.waitUntil("frame 10") { $0.contains { $0.number == 10 } }
        try await player.setRate(2)
        #expect(player.currentPlaybackRate == 2)
        #expect(player.playbackState == .playing)
        // Ten frames into the second pass: the rate holds across the loop.
        try await frames.waitForFrames(70)
        #expect(player.currentPlaybackRate == 2)
        player.stop()
        let numbers = frames.records.compactMap(\.number)
        // An instant rate change: no flush, so no frame is skipped or shown twice.
        #expect(Array(numbers.prefix(70)) == Array(0...59) + Array(0...9), "\(numbers)")
        // The sink shows ten frames in about a third of a second before the change and in about a
        // sixth after it; both spans are measured in the same run, so only their ratio matters.
        let arrivals = frames.records.map(\.arrival)
        let before = arrivals[10] - arrivals[0]
        let after = arrivals[59] - arrivals[49]
        #expect(after < before * 0.75, "10 frames took \(before) at 1x and \(after) at 2x")
        #expect(recorder.events.contains(.playbackRateChanged(2)))
    }

    @Test("a negative rate plays backwards")
    func reverse() async throws {
        let frames = FrameRecorder()
        let player = try await MoviePlayer.recording(frames)
        try await player.prepareToPlay()
        try await player.seek(to: .seconds(1))
        frames.reset()
        try await player.setRate(-1)
        try await player.play()
        try await frames.waitUntil("frames going backwards") { $0.compactMap(\.number).count >= 8 }
        try await player.pause()
        let numbers = frames.records.compactMap(\.number)
        #expect(numbers.first.map { $0 <= 30 } == true)
        #expect(numbers == numbers.sorted(by: >), "\(numbers)")
    }

    @Test("a demuxer that cannot play backwards gives unsupportedOperation, and playback goes on")
    func reverseUnsupported() async throws {
        let frames = FrameRecorder()
        let player = try await MoviePlayer.recording(frames, clip: TestMedia.numberedTransportStream)
        let recorder = EventRecorder(player)
        try await player.play()
        await #expect { try await player.setRate(-1) } throws: { ($0 as? MediaError)?.code == .unsupportedOperation }
        // Still playing at 1x, unless a busy machine let the 2-second clip end meanwhile.
        if !recorder.events.contains(where: { $0.finish != nil }) {
            #expect(player.currentPlaybackRate == 1 || recorder.events.contains { $0.finish != nil })
            #expect(player.playbackState == .playing || recorder.events.contains { $0.finish != nil })
        }
        // Three more frames, or the last of the clip's 60 when a busy machine got this far late.
        let count = frames.records.count
        try await frames.waitForFrames(min(count + 3, 60))
        let numbers = frames.records.compactMap(\.number)
        #expect(numbers == numbers.sorted(), "\(numbers)")
    }

    @Test("rates of 0, out of range or not finite are errors that change nothing; currentPlaybackRate = 0 pauses")
    func badRates() async throws {
        let frames = FrameRecorder()
        let player = try await MoviePlayer.recording(frames)
        for bad in [0, 100.0, 0.1, -9, .nan, .infinity] {
            await #expect { try await player.setRate(bad) } throws: { ($0 as? MediaError)?.code == .invalidArgument }
        }
        try await player.play()
        player.currentPlaybackRate = 50  // ignored
        #expect(player.currentPlaybackRate == 1)
        let recorder = EventRecorder(player)
        player.currentPlaybackRate = 0  // MPMoviePlayerController's way to pause
        try await recorder.waitFor { $0 == .playbackStateChanged(.paused) }
        #expect(player.currentPlaybackRate == 0)
    }

    @Test("scanning forward shows keyframes at a rising rate, then returns to the state before")
    func scanForward() async throws {
        let frames = FrameRecorder()
        // A long movie, so the scan (up to 8x) cannot reach its end before endSeeking().
        let player = try await MoviePlayer.recording(frames, clip: TestMedia.longBars)
        let recorder = EventRecorder(player)
        try await player.play()
        try await frames.waitUntil("a few frames") { $0.count >= 3 }
        try player.beginSeekingForward()
        #expect(player.playbackState == .seekingForward)
        let before = frames.records.count
        // Frames already on their way when the scan began may still arrive; from the scan's
        // first frame on (its seek flushes them), only keyframes are shown.
        try await frames.waitUntil("scanned frames") { records in
            records.dropFirst(before).drop { !$0.isKeyframe }.count >= 2
        }
        player.endSeeking()
        #expect(player.playbackState == .playing)
        #expect(player.currentPlaybackRate == 1)
        let scanned = frames.records[before...].drop { !$0.isKeyframe }
        #expect(scanned.prefix(2).allSatisfy { $0.isKeyframe }, "\(scanned)")
        // The scan starts within half a second of frames (whatever was already queued).
        #expect(frames.records[before...].prefix { !$0.isKeyframe }.count <= 15, "\(frames.records[before...])")
        try await recorder.waitUntil("playing again after the scan") {
            $0.compactMap(\.playbackState).suffix(2) == [.seekingForward, .playing]
        }
    }

    @Test("scanning backward from a pause returns to the pause")
    func scanBackward() async throws {
        let frames = FrameRecorder()
        let player = try await MoviePlayer.recording(frames)
        try await player.prepareToPlay()
        try await player.seek(to: .milliseconds(1800))
        try await player.play()
        try await player.pause()
        frames.reset()
        try player.beginSeekingBackward()
        #expect(player.playbackState == .seekingBackward)
        try await frames.waitUntil("scanned frames") { $0.compactMap(\.number).count >= 2 }
        // The scan's frames, before it ends: the frame the end shows is not one of them (the end
        // seeks to the position the pipeline reports, which can be a keyframe interval after the
        // last keyframe shown: [50, 40, 30] then 40 in a clean-clone CI run).
        let numbers = frames.records.compactMap(\.number)
        player.endSeeking()
        #expect(player.playbackState == .paused)
        #expect(numbers.first.map { $0 <= 54 } == true && numbers == numbers.sorted(by: >), "\(numbers)")
    }

    @Test("scanning needs a prepared movie")
    func scanBeforePreparation() async throws {
        let player = try await MoviePlayer.recording(FrameRecorder())
        #expect { try player.beginSeekingForward() } throws: { ($0 as? MediaError)?.code == .notPrepared }
        #expect(player.playbackState == .stopped)
    }
}
