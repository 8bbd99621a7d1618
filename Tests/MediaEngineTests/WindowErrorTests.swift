import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// An app's window that is not there, or goes away while the movie plays: the player reports a
/// typed error, and the X error never reaches Xlib's default handler (which exits the process).
@Suite("Window errors", .serialized)
struct WindowErrorTests {
    /// A window id no client of an Xvfb server can have: client 511's range, and Xvfb takes
    /// at most 256 clients.
    static let neverAWindow: UInt = 511 << 21 | 1

    @Test("a window id that names no window is refused with invalidWindow; a good one plays next")
    func nonexistentWindow() async throws {
        let display = try await VirtualDisplay()
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)),
            videoSink: WindowSink(display: display.name), audioOutput: .discard)
        try await withShutdown(of: player) {
            player.shouldAutoplay = false
            player.windowHandle = Self.neverAWindow
            let recorder = EventRecorder(player)
            await #expect { try await player.prepareToPlay() } throws: {
                ($0 as? MediaError)?.code == .invalidWindow
            }
            let (reason, error) = try await recorder.waitForFinish()
            #expect(reason == .playbackError)
            #expect(error?.code == .invalidWindow)

            let app = try display.launch("xlogo", ["-geometry", "320x240+0+0", "-bg", "green", "-fg", "green"])
            defer { app.terminate() }
            player.windowHandle = try await display.drawingArea(ofWindowNamed: "xlogo")
            try await player.prepareToPlay()
            let shot = try await display.screenshot()
            let seen = shot.color(atX: 20, y: 20)
            #expect(
                seen.isClose(to: .white, tolerance: 40), "the movie's first bar is drawn in the app's window: \(seen)")
        }
        withExtendedLifetime(display) {}
    }

    @Test("the app's window destroyed while the movie plays ends playback with invalidWindow")
    func windowDestroyedWhilePlaying() async throws {
        let display = try await VirtualDisplay()
        let app = try display.launch("xlogo", ["-geometry", "320x240+0+0", "-bg", "green", "-fg", "green"])
        defer { app.terminate() }
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.longBars)),
            videoSink: WindowSink(display: display.name), audioOutput: .discard)
        try await withShutdown(of: player) {
            player.windowHandle = try await display.drawingArea(ofWindowNamed: "xlogo")
            let recorder = EventRecorder(player)
            try await player.prepareToPlay()
            try await recorder.waitFor("playing") { $0.playbackState == .playing }
            // The app goes away, and its windows with it, while frames keep coming.
            let kill = try await ProcessRunner.run(
                "xdotool", ["search", "--name", "^xlogo$", "windowkill"],
                environment: ["DISPLAY": display.name])
            #expect(kill.status == 0, "xdotool: \(kill.standardError)")
            let (reason, error) = try await recorder.waitForFinish()
            #expect(reason == .playbackError)
            #expect(error?.code == .invalidWindow)

            // The process is alive and the next movie plays, in the player's own window.
            player.windowHandle = nil
            player.source = FileSource(url: try await TestMedia.url(for: TestMedia.bars))
            player.shouldAutoplay = false
            try await player.prepareToPlay()
            let shot = try await display.screenshot()
            // Between the controls' bars, which a window of the player's own shows by default.
            let seen = shot.color(atX: 20, y: 100)
            #expect(seen.isClose(to: .white, tolerance: 40), "the next movie's first bar: \(seen)")
        }
        withExtendedLifetime(display) {}
    }
}
