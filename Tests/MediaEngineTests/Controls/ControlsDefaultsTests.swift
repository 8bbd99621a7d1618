import FileSource
import Foundation
import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// Which controls a player shows before the app says, and fullscreen where the output cannot
/// have it, without a display.
@Suite("Controls: defaults and refusals")
struct ControlsDefaultsTests {
    static func player(_ sink: any VideoSink) async throws -> MoviePlayer {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.longBars)), videoSink: sink,
            audioOutput: .discard)
        player.shouldAutoplay = false
        return player
    }

    /// The engine's own overlays among the player's: the controls' bars and menu, the
    /// sound-only indicator.
    static func engineOverlays(_ player: MoviePlayer) -> [String] {
        player.overlays.all.map { entry in
            switch entry.overlay {
            case is ControlsOverlay: "bar"
            case is TrackMenuOverlay: "menu"
            case is SoundOnlyIndicator: "sound"
            default: "other"
            }
        }
    }

    @Test(
        "the fullscreen set in a window of the player's own, none in frames or an app's window, until the app chooses")
    func followsTheOutput() async throws {
        let window = try await Self.player(WindowSink(display: ":9"))
        #expect(window.controlStyle == .fullscreen && window.movieControlMode == .default)
        #expect(Self.engineOverlays(window).sorted() == ["bar", "bar", "bar", "menu", "sound"])
        window.windowHandle = 0x40_0001
        #expect(window.controlStyle == .none && window.movieControlMode == .hidden, "an app's window")
        #expect(Self.engineOverlays(window) == ["sound"], "the indicator stays: an app's window shows the backdrop")
        window.windowHandle = nil
        #expect(window.controlStyle == .fullscreen)
        try await window.setVideoSink(FrameSink(format: .rgba))
        #expect(window.controlStyle == .none && window.overlays.all.isEmpty, "frames: nothing drawn unasked")

        let frames = try await Self.player(FrameSink(format: .rgba))
        #expect(frames.controlStyle == .none && frames.overlays.all.isEmpty)

        // Chosen by the app, a style stays whatever the output; choosing the default counts too.
        let chosen = try await Self.player(WindowSink(display: ":9"))
        chosen.controlStyle = .embedded
        chosen.windowHandle = 0x40_0001
        #expect(chosen.controlStyle == .embedded)
        try await chosen.setVideoSink(FrameSink(format: .rgba))
        #expect(chosen.controlStyle == .embedded)
        let kept = try await Self.player(WindowSink(display: ":9"))
        kept.controlStyle = .fullscreen
        kept.windowHandle = 0x40_0001
        #expect(kept.controlStyle == .fullscreen)
        kept.movieControlMode = .volumeOnly
        #expect(kept.movieControlMode == .volumeOnly && kept.controlStyle == .embedded)
        #expect(Self.engineOverlays(kept) == ["sound", "bar"])
    }

    @Test("the machine: only a window of the player's own may fill the screen; Done pauses unless told to finish")
    func machineDecisions() {
        var machine = PlayerMachine(
            source: URISource(uri: "file:///nothing.mp4"), videoSink: WindowSink(display: ":9"),
            audioOutput: .discard, seqnums: { 1 })
        #expect(machine.fullscreenRefusal == nil && machine.doneButtonBehavior == .exitFullscreen)
        machine.updatePresentation { $0.windowHandle = 0x40_0001 }
        #expect(machine.fullscreenRefusal?.message.contains("the app makes its window fullscreen") == true)
        var frames = PlayerMachine(
            source: URISource(uri: "file:///nothing.mp4"), videoSink: FrameSink(), audioOutput: .discard,
            seqnums: { 1 })
        #expect(frames.fullscreenRefusal?.code == .unsupportedOperation)
        frames.setDoneButtonBehavior(.finishPlayback)
        #expect(frames.doneButtonBehavior == .finishPlayback)
        // With nothing loaded, Done has nothing to pause or stop.
        #expect(frames.doneButtonPressed(position: nil) == .success)
        #expect(frames.takeOutput().events.isEmpty)
    }

    @Test("frames cannot fill the screen: setFullscreen throws, the setter and the toggle post the same refusal")
    func refusedForFrames() async throws {
        let sink = FrameSink(format: .rgba, size: ControlsPlaybackTests.size)
        let player = try await Self.player(sink)
        player.controlStyle = .embedded
        let recorder = EventRecorder(player)
        try await player.prepareToPlay()
        var thrown: MediaError?
        do { try await player.setFullscreen(true, animated: true) } catch { thrown = error }
        #expect(thrown?.code == .unsupportedOperation && thrown?.message.contains("cannot show fullscreen") == true)
        player.isFullscreen = true
        #expect(!player.isFullscreen)
        let toggle = try ControlsPlaybackTests.center(of: "fullscreen", style: .embedded)
        player.sendPointer(x: toggle.x, y: toggle.y)
        let refusals = { @Sendable (events: [PlayerEvent]) in
            events.compactMap { if case .fullscreenRefused(let error) = $0 { error } else { nil } }
        }
        try await recorder.waitUntil("three refusals") { refusals($0).count == 3 }
        #expect(refusals(recorder.events).allSatisfy { $0.code == thrown?.code && $0.message == thrown?.message })
        #expect(!recorder.events.contains { WindowSinkTests.fullscreenEvents([$0]).count == 1 })
        // Leaving fullscreen when not in it is nothing to refuse.
        try await player.setFullscreen(false, animated: false)
        player.isFullscreen = false
        await player.shutdown()
        #expect(refusals(recorder.events).count == 3)
    }
}
