import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// Movies cut short, played: a warning with the playable part when prepared, `playableDuration`
/// saying how much is there, and `truncatedMovie` (never `playbackEnded`) when playback reaches
/// the cut, for every layout and wherever the cut falls.
@Suite("Truncated movies, played")
struct TruncationPlaybackTests {
    /// Plays `url` to its finish and returns the recorder, the truncation announced and the
    /// playable duration the player reported once prepared.
    private func play(_ url: URL, synchronized: Bool) async throws -> (
        EventRecorder, MovieTruncation?, Duration, Duration?
    ) {
        let player = MoviePlayer(
            source: FileSource(url: url), videoSink: NullVideoSink(synchronized: synchronized),
            audioOutput: synchronized ? .automatic : .discard)
        let recorder = EventRecorder(player)
        player.shouldAutoplay = false
        try await player.prepareToPlay()
        let (truncation, playable, duration) = (player.truncation, player.playableDuration, player.duration)
        try await player.play()
        _ = try await recorder.waitForFinish()
        await player.shutdown()
        return (recorder, truncation, playable, duration)
    }

    @Test(
        "a fast-start MP4 with interleaved sound and video, cut in its media data, is told as truncated",
        arguments: [0.01, 0.5, 0.99])
    func fastStartMP4(fraction: Double) async throws {
        let url = try await TestMedia.cut(TestMedia.barsWithAudio, keeping: fraction)
        // The middle cut plays at the clock's pace with its sound, the others flat out.
        let (recorder, truncation, playable, duration) = try await play(url, synchronized: fraction == 0.5)
        try check(recorder, truncation, playable, duration, fraction: fraction)
    }

    @Test("a WebM file with sound and video, cut in its clusters, is told as truncated", arguments: [0.5, 0.9])
    func webM(fraction: Double) async throws {
        let url = try await TestMedia.cut(TestMedia.barsWithAudioWebM, keeping: fraction)
        let (recorder, truncation, playable, duration) = try await play(url, synchronized: false)
        try check(recorder, truncation, playable, duration, fraction: fraction)
    }

    private func check(
        _ recorder: EventRecorder, _ truncation: MovieTruncation?, _ playable: Duration, _ duration: Duration?,
        fraction: Double, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let truncation = try #require(truncation, "no truncation at \(fraction)", sourceLocation: sourceLocation)
        let duration = try #require(duration, sourceLocation: sourceLocation)
        #expect(playable == truncation.playableDuration, sourceLocation: sourceLocation)
        #expect(playable < duration, "\(truncation)", sourceLocation: sourceLocation)
        #expect(
            playable.inSeconds <= duration.inSeconds * fraction + 0.1, "\(truncation)", sourceLocation: sourceLocation)
        let events = recorder.events
        let warning = PlayerEvent.truncationDetected(playable: playable, duration: duration)
        #expect(events.contains(warning), "\(events)", sourceLocation: sourceLocation)
        let finish = try #require(events.compactMap(\.finish).last, sourceLocation: sourceLocation)
        #expect(finish.0 == .playbackError, "\(events)", sourceLocation: sourceLocation)
        #expect(finish.1?.code == .truncatedMovie, "\(String(describing: finish.1))", sourceLocation: sourceLocation)
        #expect(!events.contains { $0.finish?.0 == .playbackEnded }, sourceLocation: sourceLocation)
    }

    @Test("an MP4 whose moov box was at the end and is cut off fails preparation with truncatedMovie")
    func moovAtEnd() async throws {
        let url = try await TestMedia.cut(TestMedia.barsWithAudioMoovAtEnd, keeping: 0.5)
        let player = MoviePlayer(source: FileSource(url: url), videoSink: NullVideoSink(), audioOutput: .discard)
        await #expect(throws: MediaError.self) { try await player.prepareToPlay() }
        do { try await player.prepareToPlay() } catch { #expect(error.code == .truncatedMovie, "\(error)") }
        await player.shutdown()
    }

    @Test("a whole movie: no warning, playableDuration is the duration, and it ends normally")
    func whole() async throws {
        let url = try await TestMedia.url(for: TestMedia.barsWithAudio)
        let (recorder, truncation, playable, duration) = try await play(url, synchronized: false)
        #expect(truncation == nil)
        #expect(playable == duration)
        #expect(!recorder.events.contains { if case .truncationDetected = $0 { true } else { false } })
        #expect(recorder.events.compactMap(\.finish).last?.0 == .playbackEnded)
    }

    @Test("the warning has its notification, with the event in userInfo")
    func notification() async throws {
        let event = PlayerEvent.truncationDetected(playable: .seconds(1), duration: .seconds(2))
        #expect(event.notificationName == .moviePlayerTruncationDetected)
        #expect(event.description == "truncationDetected(playable: 1.0 seconds, duration: 2.0 seconds)")
    }
}
