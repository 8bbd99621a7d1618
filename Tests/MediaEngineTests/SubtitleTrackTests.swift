import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// A movie's own subtitle track drawn over it: chosen while playing, its cues shown at their
/// times in the player's text style, and hidden again.
@Suite("Subtitle tracks")
struct SubtitleTrackTests {
    /// The brightest luma in the bottom third of a frame (where captions go), and the frame's time.
    struct Seen: Sendable {
        let time: Duration
        let brightest: UInt8
    }

    /// A frames sink that keeps, for each frame, its time and the brightest luma in its bottom
    /// third (where captions are drawn).
    static func captionSink(_ seen: Locked<[Seen]>) -> FrameSink {
        FrameSink(format: .i420, dropsLateFrames: false) { frame in
            guard let time = frame.presentationTime else { return }
            let stride = frame.stride(ofPlane: 0)
            let brightest = frame.withBytes(ofPlane: 0) { span in
                span.withUnsafeBytes { bytes in
                    (frame.height * 2 / 3..<frame.height).map { row in
                        bytes[(row * stride)..<(row * stride + frame.width)].max() ?? 0
                    }.max() ?? 0
                }
            }
            seen.withLock { $0.append(Seen(time: time, brightest: brightest)) }
        }
    }

    static func player(_ seen: Locked<[Seen]>) async throws -> MoviePlayer {
        let sink = captionSink(seen)
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.subtitledBlack()), videoSink: sink, audioOutput: .discard)
        player.shouldAutoplay = false
        return player
    }

    @Test("a chosen subtitle track is drawn at its cues' times, plain text from SRT's markup, and hidden with nil")
    func drawn() async throws {
        let seen = Locked<[Seen]>([])
        let player = try await Self.player(seen)
        try await player.prepareToPlay()
        #expect(player.subtitleTracks.count == 1 && player.currentSubtitleTrack == nil)
        let recorder = EventRecorder(player)
        let track = try #require(player.subtitleTracks.first)
        try player.selectSubtitleTrack(track)
        #expect(player.currentSubtitleTrack == track)
        #expect(player.overlays.all.contains { ($0.overlay as? TextOverlay) === player.subtitleOverlay })
        try await player.play()
        _ = try await recorder.waitForFinish()
        #expect(recorder.events.contains(.subtitleTrackChanged(track)))
        #expect(player.subtitleOverlay.cues.map(\.text) == ["Hello subtitles", "Second line"])
        let frames = seen.withLock { $0 }
        #expect(frames.count == 60)
        func brightest(_ from: Int, _ to: Int) -> [UInt8] {
            frames.filter { (Duration.milliseconds(from)..<Duration.milliseconds(to)).contains($0.time) }.map(
                \.brightest)
        }
        // Black frames: a caption is the only bright thing.
        #expect(brightest(300, 850).allSatisfy { $0 > 200 }, "first cue drawn")
        #expect(brightest(1200, 1750).allSatisfy { $0 > 200 }, "second cue drawn")
        #expect(brightest(0, 180).allSatisfy { $0 < 40 }, "nothing before the first cue")
        #expect(brightest(950, 1080).allSatisfy { $0 < 40 }, "nothing between cues")

        try player.selectSubtitleTrack(nil)
        #expect(player.currentSubtitleTrack == nil)
        #expect(!player.overlays.all.contains { ($0.overlay as? TextOverlay) === player.subtitleOverlay })
    }

    @Test("without a chosen track nothing is drawn; a track the movie lacks, or an audio track, is refused")
    func notChosen() async throws {
        let seen = Locked<[Seen]>([])
        let player = try await Self.player(seen)
        let early = MediaTrack(kind: .subtitle, index: 0)
        #expect(throws: MediaError.self) { try player.selectSubtitleTrack(early) }
        try await player.prepareToPlay()
        let other = MediaTrack(kind: .subtitle, index: 3)
        #expect(throws: MediaError.self) { try player.selectSubtitleTrack(other) }
        let recorder = EventRecorder(player)
        try await player.play()
        _ = try await recorder.waitForFinish()
        let frames = seen.withLock { $0 }
        #expect(frames.count == 60 && frames.allSatisfy { $0.brightest < 40 })
    }
}
