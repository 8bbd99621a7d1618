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

    /// A player of `clip` in a window of its own on `display`, sound discarded, its view frame
    /// ``window``.
    static func player(of clip: TestMedia.Clip = TestMedia.longBars, on display: VirtualDisplay) async throws
        -> MoviePlayer
    {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: clip)), videoSink: WindowSink(display: display.name),
            audioOutput: .discard)
        player.viewFrame = ViewRect(x: 0, y: 0, width: window.width, height: window.height)
        return player
    }

    @Test("play, fade, motion, fullscreen and Done by mouse in the player's window, with the events the calls post")
    func mouse() async throws {
        let display = try await VirtualDisplay(width: 800, height: 600)
        let player = try await Self.player(on: display)
        try await withShutdown(of: player) {
            player.shouldAutoplay = false
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

    /// Saves what the screen shows to `path`, for a person to look at.
    static func save(_ display: VirtualDisplay, to path: String) async throws {
        try await display.screenshot().pngData().write(to: URL(fileURLWithPath: path))
    }

    @Test("unasked, a window of the player's own shows the fullscreen controls, as MPMoviePlayerController does")
    func shownUnasked() async throws {
        let display = try await VirtualDisplay(width: 800, height: 600)
        let player = try await Self.player(on: display)
        #expect(player.controlStyle == .fullscreen && player.movieControlMode == .default, "unasked")
        player.shouldAutoplay = false
        try await withShutdown(of: player) {
            try await player.prepareToPlay()
            let play = try Self.center(of: .playPause, style: .fullscreen, in: Self.window)
            let done = try Self.center(of: .done, style: .fullscreen, in: Self.window)
            let aspect = try Self.center(of: .aspect, style: .fullscreen, in: Self.window)
            try await Self.waitForScreen(display, "the fullscreen set") { shot in
                Self.brightness(shot.color(atX: play.x, y: play.y)) > 200
                    && (done.x - 20..<done.x + 20).contains { Self.brightness(shot.color(atX: $0, y: done.y)) > 200 }
                    && Self.brightness(shot.color(atX: aspect.x, y: aspect.y)) > 200
            }
            try await Self.save(display, to: "/tmp/controls-default-window.png")
        }
        withExtendedLifetime(display) {}
    }

    /// Whether the player's own window is on `display`.
    static func ownWindowShown(on display: VirtualDisplay) async throws -> Bool {
        let search = try await ProcessRunner.run(
            "xdotool", ["search", "--onlyvisible", "--name", "^swift-media-engine$"],
            environment: ["DISPLAY": display.name])
        return search.status == 0 && !search.standardOutput.isEmpty
    }

    @Test("Done as MPMoviePlayerViewController's (finishPlayback): playback finishes with userExited, the window goes")
    func doneFinishesPlayback() async throws {
        let display = try await VirtualDisplay(width: 800, height: 600)
        let player = try await Self.player(on: display)
        try await withShutdown(of: player) {
            player.doneButtonBehavior = .finishPlayback
            #expect(player.doneButtonBehavior == .finishPlayback)
            player.isFullscreen = true
            let recorder = EventRecorder(player)
            try await player.play()
            try await recorder.waitFor("fullscreen") { $0 == .didEnterFullscreen }
            // The controls show for 3 s after playback starts: Done is white in its middle.
            let done = try Self.center(of: .done, style: .fullscreen, in: VideoSize(width: 800, height: 600))
            try await Self.waitForScreen(display, "Done") { shot in
                (done.x - 20..<done.x + 20).contains { Self.brightness(shot.color(atX: $0, y: done.y)) > 200 }
            }
            try await Self.save(display, to: "/tmp/controls-done-fullscreen.png")
            try await display.click(atX: done.x, y: done.y)
            let (reason, error) = try await recorder.waitForFinish()
            #expect(reason == .userExited && error == nil)
            try await recorder.waitFor("out of fullscreen") { $0 == .didExitFullscreen }
            #expect(player.playbackState == .stopped && !player.isFullscreen)
            #expect(recorder.events.filter { $0.finish != nil }.count == 1)
            #expect(!recorder.events.contains { $0.playbackState == .paused }, "stopped, not paused")
            #expect(
                WindowSinkTests.fullscreenEvents(recorder.events).suffix(2) == [
                    .willExitFullscreen(animationDuration: .zero), .didExitFullscreen,
                ])
            // Dismissed: the window closes, as the seed's view controller goes.
            try await withDeadline(.seconds(5), "the window to close") {
                while try await Self.ownWindowShown(on: display) { try await Task.sleep(for: .milliseconds(50)) }
            }
            try await Self.save(display, to: "/tmp/controls-done-finished.png")
            // The next movie opens a window again and plays in it.
            try await player.play()
            try await recorder.waitFor("playing again") { $0.playbackState == .playing }
            #expect(try await Self.ownWindowShown(on: display))
            try await Self.waitForScreen(display, "the movie again") { shot in
                shot.color(atX: 320, y: 100).isClose(to: RGBAColor(red: 0, green: 255, blue: 0), tolerance: 60)
            }
            try await Self.save(display, to: "/tmp/controls-done-again.png")
        }
        withExtendedLifetime(display) {}
    }

    @Test("in an app's window, setFullscreen, the isFullscreen setter and the controls' toggle refuse fullscreen alike")
    func fullscreenInAnAppsWindow() async throws {
        let display = try await VirtualDisplay()
        let app = try display.launch(
            "xlogo", ["-geometry", "\(Self.window.width)x\(Self.window.height)+0+0", "-bg", "green", "-fg", "green"])
        defer { app.terminate() }
        let handle = try await display.drawingArea(ofWindowNamed: "xlogo")
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.longBars)),
            videoSink: WindowSink(display: display.name), audioOutput: .discard)
        try await withShutdown(of: player) {
            player.shouldAutoplay = false
            player.windowHandle = handle
            #expect(player.controlStyle == .none, "an app's window has controls of its own")
            player.controlStyle = .embedded
            let recorder = EventRecorder(player)
            try await player.prepareToPlay()
            let toggle = try Self.center(of: .fullscreenToggle, style: .embedded, in: Self.window)
            // The toggle's top left corner, white on the bar.
            try await Self.waitForScreen(display, "the embedded controls") { shot in
                (toggle.x - 9..<toggle.x - 5).contains { x in
                    (toggle.y - 9..<toggle.y - 5).contains { Self.brightness(shot.color(atX: x, y: $0)) > 200 }
                }
            }
            try await Self.save(display, to: "/tmp/controls-app-window.png")

            var thrown: MediaError?
            do throws(MediaError) { try await player.setFullscreen(true, animated: true) } catch { thrown = error }
            let error = try #require(thrown)
            #expect(
                error.code == .unsupportedOperation && error.message.contains("the app makes its window fullscreen"))
            player.isFullscreen = true
            #expect(!player.isFullscreen)
            // The toggle, clicked in the app's window: the app's toolkit gets the click and
            // passes it on (sendPointer), as the README says for an app's window.
            player.sendPointer(x: Double(toggle.x), y: Double(toggle.y))
            let refusals = { @Sendable (events: [PlayerEvent]) in
                events.compactMap { if case .fullscreenRefused(let error) = $0 { error } else { nil } }
            }
            try await recorder.waitUntil("three refusals") { refusals($0).count == 3 }
            #expect(refusals(recorder.events).allSatisfy { $0.code == error.code && $0.message == error.message })
            #expect(WindowSinkTests.fullscreenEvents(recorder.events).isEmpty)
            #expect(!player.isFullscreen)
        }
        withExtendedLifetime(display) {}
    }
}
