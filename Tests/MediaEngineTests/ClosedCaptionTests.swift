import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// CEA-608 captions carried in the video (A/53 SEI messages in H.264, as broadcast and
/// streaming video carries them): found as a subtitle track, drawn in the player's text style
/// from the frame they come with, erased when the captions say, and again after a seek back.
@Suite("Closed captions")
struct ClosedCaptionTests {
    /// 3 s of black: CC1 is opened on the first frames (so the channel is known when the movie
    /// is prepared), a pop-on caption shows at frame 30 (1 s) and is erased at frame 60 (2 s).
    static func movie() async throws -> URL {
        var captions: [Int: CEA608Writer.Pair] = [:]
        ClosedCaptionMedia.schedule(CEA608Writer.control(0x14, 0x20), from: 0, into: &captions)
        let popOn = CEA608Writer.popOn(["Captions here"])
        // The first EOC is the pair before last: it shows the caption.
        ClosedCaptionMedia.schedule(popOn, from: 30 - (popOn.count - 2), into: &captions)
        ClosedCaptionMedia.schedule(CEA608Writer.eraseDisplayed(), from: 60, into: &captions)
        return try await ClosedCaptionMedia.movie(frames: 90, captions: captions, in: try TestMedia.scratchDirectory())
    }

    @Test(
        "the CC1 channel is a subtitle track; chosen, its caption is drawn from 1 s to 2 s, and again after a seek back"
    )
    func drawn() async throws {
        let seen = Locked<[SubtitleTrackTests.Seen]>([])
        let sink = FrameSink(format: .i420, dropsLateFrames: false) { frame in
            guard let time = frame.presentationTime else { return }
            let stride = frame.stride(ofPlane: 0)
            let brightest = frame.withBytes(ofPlane: 0) { span in
                span.withUnsafeBytes { bytes in
                    (frame.height * 2 / 3..<frame.height).map { row in
                        bytes[(row * stride)..<(row * stride + frame.width)].max() ?? 0
                    }.max() ?? 0
                }
            }
            seen.withLock { $0.append(.init(time: time, brightest: brightest)) }
        }
        let player = MoviePlayer(
            source: FileSource(url: try await Self.movie()), videoSink: sink, audioOutput: .discard)
        player.shouldAutoplay = false
        let recorder = EventRecorder(player)
        try await player.prepareToPlay()
        let track = MediaTrack(kind: .subtitle, index: 0, codec: "CEA-608", title: "CC1")
        #expect(player.subtitleTracks == [track])
        #expect(recorder.events.contains(.tracksAvailable([track])))
        try player.selectSubtitleTrack(track)
        #expect(player.currentSubtitleTrack == track)

        func check(_ frames: [SubtitleTrackTests.Seen], _ label: String) {
            func brightest(_ from: Int, _ to: Int) -> [UInt8] {
                frames.filter { (Duration.milliseconds(from)..<Duration.milliseconds(to)).contains($0.time) }.map(
                    \.brightest)
            }
            #expect(frames.count == 90, "\(label): \(frames.count) frames")
            #expect(brightest(0, 990).allSatisfy { $0 < 40 }, "\(label): nothing before the caption")
            #expect(brightest(990, 1990).allSatisfy { $0 > 200 }, "\(label): the caption from its frame on")
            #expect(brightest(1990, 3000).allSatisfy { $0 < 40 }, "\(label): erased at 2 s")
        }
        try await player.play()
        _ = try await recorder.waitForFinish()
        check(seen.withLock { $0 }, "first play")
        #expect(player.subtitleOverlay.cues.map(\.text) == ["Captions here"])

        // Back to the start: the flush forgets the decoder's state, and the captions are decoded
        // afresh as the frames come again.
        seen.withLock { $0 = [] }
        try await player.seek(to: .zero)
        let again = EventRecorder(player)
        try await player.play()
        _ = try await again.waitForFinish()
        check(seen.withLock { $0 }, "after a seek back")
    }
}
