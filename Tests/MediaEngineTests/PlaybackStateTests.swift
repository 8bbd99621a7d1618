import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// MPMoviePlayerController's states around preparation: autoplay, prepared-and-paused.
@Suite("Playback states around preparation")
struct PlaybackStateTests {
    private func player(autoplay: Bool) async throws -> MoviePlayer {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: NullVideoSink(),
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
        let player = try await player(autoplay: true)
        let recorder = EventRecorder(player)
        async let prepared: Void = player.prepareToPlay()
        // Preparation has begun once the source type is announced.
        try await recorder.waitFor("preparing") { $0 == .sourceTypeAvailable(.file) }
        try await player.pause()
        try await prepared
        #expect(player.playbackState == .paused)
        await player.shutdown()
    }
}
