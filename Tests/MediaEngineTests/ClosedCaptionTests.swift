import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// CEA-608 and CEA-708 captions carried in the video (A/53 SEI messages in H.264, as broadcast
/// and streaming video carries them): found as subtitle tracks, drawn in the player's text style
/// from the frame they come with, erased when the captions say, and again after a seek back.
@Suite("Closed captions")
struct ClosedCaptionTests {
    /// 3 s of black with the same timing on both standards, each opened on the first frames (so
    /// both are known when the movie is prepared): CC1's pop-on caption shows at frame 30 (1 s)
    /// and is erased at frame 60 (2 s); service 1 defines a hidden window on frame 0, writes its
    /// text and shows the window on frame 30, and hides it on frame 60.
    static func movie() async throws -> URL {
        var captions: [Int: CEA608Writer.Pair] = [:]
        ClosedCaptionMedia.schedule(CEA608Writer.control(0x14, 0x20), from: 0, into: &captions)
        let popOn = CEA608Writer.popOn(["Captions here"])
        // The first EOC is the pair before last: it shows the caption.
        ClosedCaptionMedia.schedule(popOn, from: 30 - (popOn.count - 2), into: &captions)
        ClosedCaptionMedia.schedule(CEA608Writer.eraseDisplayed(), from: 60, into: &captions)
        var services: [Int: [CEA708Writer.Triplet]] = [:]
        let window = CEA708Writer.defineWindow(0, rows: 2, columns: 32, visible: false)
        let shown = CEA708Writer.setCurrentWindow(0) + CEA708Writer.text("Service text") + CEA708Writer.display([0])
        let hidden = CEA708Writer.hide([0])
        ClosedCaptionMedia.schedule(CEA708Writer.triplets(service: 1, window), from: 0, into: &services)
        ClosedCaptionMedia.schedule(CEA708Writer.triplets(service: 1, shown, sequence: 1), from: 30, into: &services)
        ClosedCaptionMedia.schedule(CEA708Writer.triplets(service: 1, hidden, sequence: 2), from: 60, into: &services)
        return try await ClosedCaptionMedia.movie(frames: 90, captions: captions, services: services)
    }

    static let cc1 = MediaTrack(kind: .subtitle, index: 0, codec: "CEA-608", title: "CC1")
    static let service1 = MediaTrack(kind: .subtitle, index: 1, codec: "CEA-708", title: "Service 1")

    /// All 90 frames came, and a caption is drawn on those from 1 s to 2 s only (black frames:
    /// a caption is the only bright thing).
    static func check(_ frames: [SubtitleTrackTests.Seen], _ label: String) {
        func brightest(_ from: Int, _ to: Int) -> [UInt8] {
            frames.filter { (Duration.milliseconds(from)..<Duration.milliseconds(to)).contains($0.time) }.map(
                \.brightest)
        }
        #expect(frames.count == 90, "\(label): \(frames.count) frames")
        #expect(brightest(0, 990).allSatisfy { $0 < 40 }, "\(label): nothing before the caption")
        #expect(brightest(990, 1990).allSatisfy { $0 > 200 }, "\(label): the caption from its frame on")
        #expect(brightest(1990, 3000).allSatisfy { $0 < 40 }, "\(label): erased at 2 s")
    }

    @Test("CC1 is a subtitle track; chosen, its caption is drawn from 1 s to 2 s, and again after a seek back")
    func cea608() async throws {
        let seen = Locked<[SubtitleTrackTests.Seen]>([])
        let player = MoviePlayer(
            source: FileSource(url: try await Self.movie()), videoSink: SubtitleTrackTests.captionSink(seen),
            audioOutput: .discard)
        player.shouldAutoplay = false
        let recorder = EventRecorder(player)
        try await player.prepareToPlay()
        #expect(player.subtitleTracks == [Self.cc1, Self.service1])
        try await recorder.waitFor("the tracks announced") { $0 == .tracksAvailable([Self.cc1, Self.service1]) }
        try player.selectSubtitleTrack(Self.cc1)
        #expect(player.currentSubtitleTrack == Self.cc1)
        try await player.play()
        _ = try await recorder.waitForFinish()
        Self.check(seen.withLock { $0 }, "first play")
        #expect(player.subtitleOverlay.cues.map(\.text) == ["Captions here"])

        // Back to the start: the flush forgets the decoder's state, and the captions are decoded
        // afresh as the frames come again.
        seen.withLock { $0 = [] }
        try await player.seek(to: .zero)
        let again = EventRecorder(player)
        try await player.play()
        _ = try await again.waitForFinish()
        Self.check(seen.withLock { $0 }, "after a seek back")
    }

    @Test("CEA-708 service 1 is a subtitle track too; chosen, its window's text is drawn while the window shows")
    func cea708() async throws {
        let seen = Locked<[SubtitleTrackTests.Seen]>([])
        let player = MoviePlayer(
            source: FileSource(url: try await Self.movie()), videoSink: SubtitleTrackTests.captionSink(seen),
            audioOutput: .discard)
        player.shouldAutoplay = false
        try await player.prepareToPlay()
        try player.selectSubtitleTrack(Self.service1)
        #expect(player.currentSubtitleTrack == Self.service1)
        let recorder = EventRecorder(player)
        try await player.play()
        _ = try await recorder.waitForFinish()
        Self.check(seen.withLock { $0 }, "service 1")
        #expect(player.subtitleOverlay.cues.map(\.text) == ["Service text"])
    }

    @Test("in a queue, the next movie's channels are its tracks again once it plays")
    func queue() async throws {
        let movie = try await Self.movie()
        let player = MoviePlayer(source: FileSource(url: movie), videoSink: FrameSink { _ in }, audioOutput: .discard)
        try player.setQueue([FileSource(url: movie), FileSource(url: movie)])
        let recorder = EventRecorder(player)
        try await player.play()
        _ = try await recorder.waitForFinish()
        let events = recorder.events
        let changed = try #require(events.firstIndex(of: .queueItemChanged(1)), "\(events)")
        #expect(
            events[changed...].contains(.tracksAvailable([Self.cc1, Self.service1])),
            "the second movie's tracks: \(events[changed...])")
        #expect(player.subtitleTracks == [Self.cc1, Self.service1])
    }
}
