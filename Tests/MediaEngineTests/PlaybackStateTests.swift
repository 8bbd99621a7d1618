import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// MPMoviePlayerController's states around preparation: autoplay, prepared-and-paused.
@Suite("Playback states around preparation")
struct PlaybackStateTests {
    private func player(autoplay: Bool, clip: TestMedia.Clip = TestMedia.bars) async throws -> MoviePlayer {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: clip)), videoSink: NullVideoSink(),
            audioOutput: .discard)
        player.shouldAutoplay = autoplay
        return player
    }

    @Test("shouldAutoplay (the default) makes prepareToPlay() start a file; off, the movie waits, stopped")
    func autoplay() async throws {
        let player = try await player(autoplay: true)
        #expect(player.shouldAutoplay)
        let recorder = EventRecorder(player)
        try await player.prepareToPlay()
        try await recorder.waitFor("playing") { $0 == .playbackStateChanged(.playing) }

        let waiting = try await self.player(autoplay: false)
        let quiet = EventRecorder(waiting)
        try await waiting.prepareToPlay()
        #expect(waiting.isPreparedToPlay && waiting.playbackState == .stopped)
        #expect(waiting.currentPlaybackTime == .zero)
        #expect(!quiet.events.contains { if case .playbackStateChanged = $0 { true } else { false } })
        await player.shutdown()
        await waiting.shutdown()
    }

    @Test("pause() on a prepared movie that has not started makes it paused on its first frame; play() goes on")
    func preparedAndPaused() async throws {
        let player = try await player(autoplay: false)
        let recorder = EventRecorder(player)
        try await player.prepareToPlay()
        #expect(player.playbackState == .stopped)
        try await player.pause()
        #expect(player.playbackState == .paused)
        #expect(player.readyForDisplay && player.currentPlaybackTime == .zero)
        try await player.play()
        #expect(player.playbackState == .playing)
        let (reason, _) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        // After the end, pause() leaves the finished movie stopped.
        try await player.pause()
        #expect(player.playbackState == .stopped)
        let states = recorder.events.compactMap { event -> PlaybackState? in
            if case .playbackStateChanged(let state) = event { state } else { nil }
        }
        #expect(states == [.paused, .playing, .stopped])
    }

    @Test("pause() during preparation leaves the movie paused once prepared, even with autoplay")
    func pauseWhilePreparing() async throws {
        // A minute long: however late this task runs, autoplay cannot have played it to the end.
        let player = try await player(autoplay: true, clip: TestMedia.longBars)
        let recorder = EventRecorder(player)
        async let prepared: Void = player.prepareToPlay()
        // Preparation has begun once the source type is announced.
        try await recorder.waitFor("preparing") { $0 == .sourceTypeAvailable(.file) }
        try await player.pause()
        try await prepared
        #expect(player.playbackState == .paused, "\(recorder.events)")
        await player.shutdown()
    }

    @Test("a duration is announced once, not again when the demuxer revises it by a fraction of a frame")
    func durationOnce() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.barsWebM)), videoSink: NullVideoSink(),
            audioOutput: .discard)
        let recorder = EventRecorder(player)
        try await player.play()
        _ = try await recorder.waitForFinish()
        let durations = recorder.events.compactMap { event -> Duration? in
            if case .durationAvailable(let duration) = event { duration } else { nil }
        }
        #expect(durations == [.seconds(1)])
        #expect(player.duration == .seconds(1))
    }

    @Test("events print their times exact to the nanosecond")
    func eventTimes() {
        #expect(
            PlayerEvent.durationAvailable(.nanoseconds(10_000_333_333)).description
                == "durationAvailable(10.000333333 seconds)")
        #expect(PlayerEvent.seekCompleted(.seconds(2)).description == "seekCompleted(2.0 seconds)")
        #expect(PlayerEvent.seekCompleted(.milliseconds(1500)).description == "seekCompleted(1.5 seconds)")
        #expect(PlayerEvent.seekCompleted(.nanoseconds(-1)).description == "seekCompleted(-0.000000001 seconds)")
    }
}
