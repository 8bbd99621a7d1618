import FileSource
import Foundation
import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// The controls in the player's own window on a virtual X server, worked with xdotool as a
/// person would, and checked by screenshots.
@Suite("Controls in a window", .serialized)
struct WindowControlsTests {
    static let window = VideoSize(width: 640, height: 360)

    /// The centre of a control of `style` in a window (or screen) of `size`.
    static func center(of element: ControlsLayout.Element, style: MovieControlStyle, in size: VideoSize) throws -> (
        x: Int, y: Int
    ) {
        let layout = ControlsLayout(style: style, viewSize: size)
        for bar in layout.bars {
            if let rect = bar.elements[element] {
                return (bar.canvas.x + rect.x + rect.width / 2, bar.canvas.y + rect.y + rect.height / 2)
            }
        }
        throw MediaError(.invalidArgument, "no \(element) in the \(style) style")
    }

    static func brightness(_ color: RGBAColor) -> Int { (Int(color.red) + Int(color.green) + Int(color.blue)) / 3 }

    /// Waits until a screenshot satisfies `condition`.
    static func waitForScreen(
        _ display: VirtualDisplay, _ what: String, _ condition: @escaping @Sendable (Screenshot) -> Bool
    ) async throws {
        try await withDeadline(.seconds(8), what) {
            while true {
                if let shot = try? await display.screenshot(), condition(shot) { return }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    @Test("play, fade, motion, fullscreen and Done by mouse in the player's window, with the events the calls post")
    func mouse() async throws {
        let display = try await VirtualDisplay(width: 800, height: 600)
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.longBars)),
            videoSink: WindowSink(display: display.name), audioOutput: .discard)
        try await withShutdown(of: player) {
            player.shouldAutoplay = false
            player.viewFrame = ViewRect(x: 0, y: 0, width: Self.window.width, height: Self.window.height)
            player.controlStyle = .fullscreen
            let recorder = EventRecorder(player)
            try await player.prepareToPlay()

            // The play sign, white over the black beside the 4:3 movie; the pause sign's gap is dark.
            let play = try Self.center(of: .playPause, style: .fullscreen, in: Self.window)
            try await Self.waitForScreen(display, "the controls") {
                Self.brightness($0.color(atX: play.x, y: play.y)) > 200
            }
            try await display.click(atX: play.x, y: play.y)
            try await recorder.waitFor("playing") { $0.playbackState == .playing }
            try await Self.waitForScreen(display, "the pause sign") {
                Self.brightness($0.color(atX: play.x, y: play.y)) < 100
            }

            // Left alone (the pointer still), the controls go; the pointer moving brings them back.
            let pauseBar = (x: play.x - 4, y: play.y)
            try await Self.waitForScreen(display, "the controls gone") {
                Self.brightness($0.color(atX: pauseBar.x, y: pauseBar.y)) < 30
            }
            let moved = try await ProcessRunner.run(
                "xdotool", ["mousemove", "300", "200"], environment: ["DISPLAY": display.name])
            #expect(moved.status == 0)
            try await Self.waitForScreen(display, "the controls back") {
                Self.brightness($0.color(atX: pauseBar.x, y: pauseBar.y)) > 200
            }

            // The fullscreen toggle fills the 800x600 screen; there, Done pauses and comes back.
            let toggle = try Self.center(of: .fullscreenToggle, style: .fullscreen, in: Self.window)
            try await display.click(atX: toggle.x, y: toggle.y)
            try await recorder.waitFor("fullscreen") { $0 == .didEnterFullscreen }
            #expect(player.isFullscreen)
            let screen = VideoSize(width: 800, height: 600)
            let done = try Self.center(of: .done, style: .fullscreen, in: screen)
            // The movie fills the screen (not the 640x360 view frame, which is for the window):
            // the colour bars reach its right edge, and the controls are laid out for it.
            try await Self.waitForScreen(display, "the movie over the whole screen") {
                let edge = $0.color(atX: 790, y: 250)
                return max(edge.red, edge.green, edge.blue) > 150
            }
            try await display.click(atX: done.x, y: done.y)
            try await recorder.waitFor("out of fullscreen") { $0 == .didExitFullscreen }
            try await recorder.waitFor("paused") { $0.playbackState == .paused }
            #expect(!player.isFullscreen && player.playbackState == .paused)
            #expect(!recorder.events.contains { $0.finish != nil }, "Done posts no finish")
            #expect(
                WindowSinkTests.fullscreenEvents(recorder.events) == [
                    .willEnterFullscreen(animationDuration: .milliseconds(300)), .didEnterFullscreen,
                    .willExitFullscreen(animationDuration: .milliseconds(300)), .didExitFullscreen,
                ])
        }
        withExtendedLifetime(display) {}
    }
}
