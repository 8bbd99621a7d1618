import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// A movie's audio tracks: listed with their tags, and switched while playing without a gap in
/// the video.
@Suite("Audio and subtitle tracks")
struct TrackTests {
    /// How many times the sound crosses zero between two times (twice its frequency per second).
    static func crossings(_ samples: [Int16], rate: Int, from start: Double, to end: Double) -> Int {
        let slice = Array(samples[Int(start * Double(rate))..<min(samples.count, Int(end * Double(rate)))])
        return zip(slice, slice.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
    }

    @Test(
        "two audio tracks are listed with language, codec and title; switching at 1 s changes the sound, not the video")
    func switchWhilePlaying() async throws {
        let wav = try TestMedia.scratchDirectory().appendingPathComponent("sound.wav")
        let frames = FrameRecorder()
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.twoLanguages)),
            videoSink: frames.sink(),
            audioOutput: .element(
                .bin(
                    "audioconvert ! audio/x-raw,format=S16LE,channels=1 ! wavenc ! filesink sync=true location=\(wav.path)"
                )))
        player.shouldAutoplay = false
        let recorder = EventRecorder(player)
        try await player.prepareToPlay()
        let tracks = player.audioTracks
        #expect(tracks.map(\.index) == [0, 1])
        #expect(tracks.map(\.title) == ["English", "Commentary"], "\(tracks)")
        #expect(tracks.map { $0.languageCode?.prefix(2) } == ["en", "fr"], "\(tracks)")
        #expect(tracks.allSatisfy { $0.codec?.lowercased().contains("vorbis") == true }, "\(tracks)")
        #expect(tracks.map(\.isDefault) == [true, false])
        #expect(player.currentAudioTrack == tracks.first && player.subtitleTracks.isEmpty)
        try await recorder.waitFor("the tracks") { $0 == .tracksAvailable(tracks) }

        _ = try player.addBoundaryTimeObserver(at: [.seconds(1)])
        let events = player.events
        try await player.play()
        for await event in events {
            if case .boundaryTimeReached = event { break }
        }
        try player.selectAudioTrack(tracks[1])
        // Where the switch was asked for: the boundary event reaches this task when the machine
        // gets to it, 1 s or (busy) later; the sound is read from there.
        let switchedAt = player.currentPlaybackTime.inSeconds
        #expect(player.currentAudioTrack == tracks[1])
        #expect { try player.selectAudioTrack(MediaTrack(kind: .audio, index: 5)) } throws: {
            ($0 as? MediaError)?.code == .invalidArgument
        }
        _ = try await recorder.waitForFinish()
        await player.shutdown()
        #expect(recorder.events.contains(.audioTrackChanged(tracks[1])))
        // Every frame of the video, in order: the switch left no gap.
        let numbers = frames.records.compactMap(\.number)
        #expect(
            numbers.count == 90 && zip(numbers, numbers.dropFirst()).allSatisfy { ($1 - $0 + 80) % 80 == 1 },
            "\(numbers)")

        let (rate, samples) = try VolumeTests.samples(ofWAV: wav)
        // Where the new track begins in the recording: the first 50 ms with more than 3/4 of
        // 880 Hz's crossings (for the failure message: how late the switch was heard).
        let heardAt = stride(from: 0.7, to: 2.9, by: 0.01).first {
            Self.crossings(samples, rate: rate, from: $0, to: $0 + 0.05) >= 66
        }
        let before = Self.crossings(samples, rate: rate, from: 0.2, to: 0.7)
        #expect(abs(before - 440) <= 10, "440 Hz before the switch: \(before) crossings in 0.5 s")
        // Heard within half a second of the switch (playsink's audio queue holds 200 ms), measured
        // over up to half a second from there, before the sound ends at 3 s.
        let heard = switchedAt + 0.5
        let until = min(heard + 0.5, 2.95)
        try #require(until - heard >= 0.2, "the switch came at \(switchedAt) s, too late to hear it in a 3 s clip")
        let after = Self.crossings(samples, rate: rate, from: heard, to: until)
        let expected = Int((until - heard) * 1760)
        #expect(
            abs(after - expected) <= 10,
            "880 Hz from \(heard) s, the switch at \(switchedAt) s, heard from \(String(describing: heardAt)) s: \(after) crossings in \(until - heard) s; per 0.1 s: \(stride(from: 0.0, to: 3.0, by: 0.1).map { Self.crossings(samples, rate: rate, from: $0, to: $0 + 0.1) }), \(samples.count) samples"
        )
    }

    @Test("a track chosen while paused, then a seek while still paused: no hang, and the new track plays (from 1 s)")
    func switchWhilePaused() async throws {
        let wav = try TestMedia.scratchDirectory().appendingPathComponent("sound.wav")
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.twoLanguages)),
            videoSink: FrameSink(synchronized: false),
            audioOutput: .element(
                .bin(
                    "audioconvert ! audio/x-raw,format=S16LE,channels=1 ! wavenc ! filesink sync=false location=\(wav.path)"
                )))
        player.shouldAutoplay = false
        let recorder = EventRecorder(player)
        try await player.prepareToPlay()
        try await player.pause()
        let tracks = player.audioTracks
        try player.selectAudioTrack(tracks[1])
        #expect(player.currentAudioTrack == tracks[1])
        try await recorder.waitFor("the switch announced") { $0 == .audioTrackChanged(tracks[1]) }
        // GStreamer 1.22's playbin deadlocked here when the switch went to it in PAUSED.
        try await withDeadline(.seconds(10), "the seek after the switch") {
            try await player.seek(to: .seconds(1), option: .exact)
        }
        try await player.play()
        _ = try await recorder.waitForFinish()
        await player.shutdown()
        let data = try Data(contentsOf: wav)
        let samples = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let rate = 44100
        let heard = Self.crossings(samples, rate: rate, from: 0.5, to: 1.0)
        #expect(abs(heard - 880) <= 10, "880 Hz (the commentary) from the start: \(heard) crossings in 0.5 s")
    }
}
