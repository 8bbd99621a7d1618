import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// The window sink on a virtual X server (Xvfb, no window manager), checked by screenshots.
@Suite("Window sink", .serialized)
struct WindowSinkTests {
    /// A player of `clip` in a window of its own on `display`, not playing by itself, without
    /// the controls such a window shows by default (these tests look at the movie's pixels).
    static func windowPlayer(_ clip: TestMedia.Clip, on display: VirtualDisplay) async throws -> MoviePlayer {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: clip)),
            videoSink: WindowSink(display: display.name), audioOutput: .discard)
        player.shouldAutoplay = false
        player.controlStyle = .none
        return player
    }

    static let orange = RGBAColor(red: 255, green: 128, blue: 0)

    private func expect(_ shot: Screenshot, _ x: Int, _ y: Int, _ color: RGBAColor, _ note: String) {
        let seen = shot.color(atX: x, y: y)
        #expect(seen.isClose(to: color, tolerance: 40), "\(note): (\(x), \(y)) is \(seen), not \(color)")
    }

    @Test("the player's own window shows the movie at its natural size")
    func ownWindow() async throws {
        let display = try await VirtualDisplay()
        let player = try await Self.windowPlayer(TestMedia.bars, on: display)
        try await withShutdown(of: player) {
            try await player.prepareToPlay()
            let shot = try await display.screenshot()
            expect(shot, 20, 20, .white, "first bar")
            expect(shot, 300, 20, .blue, "last bar")
            expect(shot, 400, 20, .black, "outside the 320x240 window: the empty screen")
        }
        withExtendedLifetime(display) {}
    }

    @Test("a click on the window (xdotool) lands in an overlay's hit region")
    func clickOnOverlay() async throws {
        let display = try await VirtualDisplay()
        let player = try await Self.windowPlayer(TestMedia.bars, on: display)
        try await withShutdown(of: player) {
            // Two 60x40 buttons side by side at (180, 20) on the 320x240 movie, in its own window at (0, 0).
            let buttons = try DrawingOverlay(
                size: VideoSize(width: 120, height: 40), placement: .absolute(x: 180, y: 20),
                hitRegions: [
                    OverlayHitRegion(id: "play", rect: ViewRect(x: 0, y: 0, width: 60, height: 40)),
                    OverlayHitRegion(id: "stop", rect: ViewRect(x: 60, y: 0, width: 60, height: 40)),
                ]
            ) { canvas, _ in
                canvas.fill(ViewRect(x: 0, y: 0, width: 60, height: 40), with: Self.orange)
                canvas.fill(ViewRect(x: 60, y: 0, width: 60, height: 40), with: .black)
            }
            let id = player.overlays.add(buttons)
            let recorder = EventRecorder(player)
            try await player.prepareToPlay()
            let shot = try await display.screenshot()
            expect(shot, 200, 40, Self.orange, "the play button is drawn")
            try await display.click(atX: 270, y: 50)
            try await recorder.waitFor("the stop region", within: .seconds(5)) {
                if case .overlayRegionActivated(id, "stop", let point) = $0 {
                    abs(point.x - 90) < 2 && abs(point.y - 30) < 2
                } else {
                    false
                }
            }
            try await display.click(atX: 100, y: 200)  // on the movie, not on a button: nothing
            try await display.click(atX: 190, y: 25)
            try await recorder.waitFor("the play region", within: .seconds(5)) {
                if case .overlayRegionActivated(id, "play", _) = $0 { true } else { false }
            }
            #expect(recorder.events.filter { if case .overlayRegionActivated = $0 { true } else { false } }.count == 2)
        }
        withExtendedLifetime(display) {}
    }

    @Test(
        "keys typed into the player's window (xdotool) are announced with their names and Shift, as notifications too")
    func keys() async throws {
        let display = try await VirtualDisplay()
        let player = try await Self.windowPlayer(TestMedia.bars, on: display)
        try await withShutdown(of: player) {
            let recorder = EventRecorder(player)
            let (notified, delivery) = AsyncStream.makeStream(of: PlayerEvent.self)
            let observer = NotificationCenter.default.addObserver(
                forName: .moviePlayerWindowKeyPressed, object: player, queue: nil
            ) { note in
                if let event = note.playerEvent { delivery.yield(event) }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            try await player.prepareToPlay()
            // With no window manager the keyboard goes to the window under the pointer: the player's,
            // at the screen's top left.
            let typed = try await ProcessRunner.run(
                "xdotool", ["mousemove", "20", "20", "key", "space", "shift+Right", "q"],
                environment: ["DISPLAY": display.name])
            #expect(typed.status == 0, "\(typed.standardError)")
            // Shift is a key of its own, pressed before Right.
            let expected: [PlayerEvent] = [
                .windowKeyPressed("space", shift: false), .windowKeyPressed("Shift_L", shift: false),
                .windowKeyPressed("Right", shift: true), .windowKeyPressed("q", shift: false),
            ]
            try await recorder.waitUntil("four keys") { events in
                events.filter { if case .windowKeyPressed = $0 { true } else { false } }.count == 4
            }
            #expect(recorder.events.filter { if case .windowKeyPressed = $0 { true } else { false } } == expected)
            let notifications = try await withDeadline(.seconds(5), "four notifications") {
                var seen: [PlayerEvent] = []
                for await event in notified {
                    seen.append(event)
                    if seen.count == 4 { break }
                }
                return seen
            }
            #expect(notifications == expected)
            #expect(player.playbackState == .stopped, "nothing in the player acts on a key")
        }
        withExtendedLifetime(display) {}
    }

    @Test("no key is lost while the window is resized: each of 100 keys typed between resizes is announced once")
    func keysWhileResizing() async throws {
        // ximagesink 1.22 redraws a resized window and then drains its connection's events,
        // throwing away a key press that came meanwhile; the player's window reads its keys
        // over a connection of its own.
        let display = try await VirtualDisplay()
        let player = try await Self.windowPlayer(TestMedia.bars, on: display)
        try await withShutdown(of: player) {
            let recorder = EventRecorder(player)
            try await player.prepareToPlay()
            let search = try await ProcessRunner.run(
                "xdotool", ["search", "--name", "swift-media-engine"], environment: ["DISPLAY": display.name])
            let window = try #require(search.standardOutput.split(separator: "\n").first.map(String.init), "no window")
            var commands = ["mousemove", "20", "20"]
            for _ in 0..<50 {
                commands += [
                    "windowsize", window, "200", "150", "key", "a", "windowsize", window, "160", "120", "key", "b",
                ]
            }
            let typed = try await ProcessRunner.run("xdotool", commands, environment: ["DISPLAY": display.name])
            #expect(typed.status == 0, "\(typed.standardError)")
            @Sendable func keys(_ events: [PlayerEvent]) -> [String] {
                events.compactMap { if case .windowKeyPressed(let key, _) = $0 { key } else { nil } }
            }
            // Every key comes, or the wait ends with what came.
            try? await recorder.waitUntil("100 keys", within: .seconds(5)) { keys($0).count >= 100 }
            #expect(keys(recorder.events) == Array(repeating: ["a", "b"], count: 50).flatMap { $0 })
        }
        withExtendedLifetime(display) {}
    }

    @Test("fullscreen fits the movie to the screen with bars in the background colour, and back")
    func fullscreen() async throws {
        let display = try await VirtualDisplay()
        let player = try await Self.windowPlayer(TestMedia.wideBars, on: display)
        try await withShutdown(of: player) {
            player.backgroundColor = Self.orange
            let recorder = EventRecorder(player)
            try await player.prepareToPlay()
            try await player.setFullscreen(true, animated: true)
            #expect(player.isFullscreen)
            // The screen is 640x480 and the movie 16:9: 640x360 between 60-pixel bars.
            try await player.seek(to: .zero)  // show the frame again at its new size
            let full = try await display.screenshot()
            expect(full, 320, 20, Self.orange, "bar above")
            expect(full, 320, 460, Self.orange, "bar below")
            expect(full, 20, 100, .white, "first bar, scaled up")
            expect(full, 620, 100, .blue, "last bar, scaled up")
            try await player.setFullscreen(false, animated: false)
            #expect(!player.isFullscreen)
            try await player.seek(to: .zero)
            let windowed = try await display.screenshot()
            expect(windowed, 20, 20, .white, "back in the 320x180 window")
            expect(windowed, 400, 300, .black, "the rest of the screen empty again")
            try await recorder.waitFor { $0 == .didExitFullscreen }
            let fullscreenEvents = Self.fullscreenEvents(recorder.events)
            #expect(
                fullscreenEvents == [
                    .willEnterFullscreen(animationDuration: .milliseconds(300)), .didEnterFullscreen,
                    .willExitFullscreen(animationDuration: .zero), .didExitFullscreen,
                ])
        }
        withExtendedLifetime(display) {}
    }

    @Test("embedded in an app's window, the movie fills the view frame, the background colour the rest")
    func embedded() async throws {
        let display = try await VirtualDisplay()
        let app = try display.launch("xlogo", ["-geometry", "400x300+0+0", "-bg", "green", "-fg", "green"])
        defer { app.terminate() }
        let handle = try await display.drawingArea(ofWindowNamed: "xlogo")
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)),
            videoSink: WindowSink(display: display.name),
            audioOutput: .discard)
        try await withShutdown(of: player) {
            player.shouldAutoplay = false
            player.windowHandle = handle
            player.backgroundColor = Self.orange
            // A 4:3 movie in a 16:9 view frame at (40, 30): 240x180 between 40-pixel orange bars.
            player.viewFrame = ViewRect(x: 40, y: 30, width: 320, height: 180)
            try await player.prepareToPlay()
            let shot = try await display.screenshot()
            expect(shot, 60, 100, Self.orange, "left bar inside the view frame")
            expect(shot, 340, 100, Self.orange, "right bar inside the view frame")
            expect(shot, 90, 60, .white, "first bar of the movie")
            expect(shot, 310, 60, .blue, "last bar of the movie")
            expect(shot, 20, 250, Self.orange, "the background colour around the view frame")
            expect(shot, 380, 280, Self.orange, "the background colour to the window's far corner")
            expect(shot, 500, 400, .black, "outside the app's window: the empty screen")
            await #expect { try await player.setFullscreen(true, animated: false) } throws: {
                ($0 as? MediaError)?.code == .unsupportedOperation
            }
        }
        withExtendedLifetime(display) {}
    }
}

extension WindowSinkTests {
    /// A player of `clip` into a window of its own on `display`, on the orange background, not
    /// playing by itself.
    static func orangeWindowPlayer(_ clip: TestMedia.Clip, on display: VirtualDisplay) async throws -> MoviePlayer {
        let player = try await Self.windowPlayer(clip, on: display)
        player.backgroundColor = orange
        return player
    }

    /// The fullscreen events among `events`, in order.
    static func fullscreenEvents(_ events: [PlayerEvent]) -> [PlayerEvent] {
        events.filter {
            switch $0 {
            case .willEnterFullscreen, .didEnterFullscreen, .willExitFullscreen, .didExitFullscreen: true
            default: false
            }
        }
    }

    @Test("fullscreen set before preparation: the window opens fullscreen when the movie is ready")
    func fullscreenBeforePreparation() async throws {
        let display = try await VirtualDisplay()
        let player = try await Self.orangeWindowPlayer(TestMedia.wideBars, on: display)
        try await withShutdown(of: player) {
            let recorder = EventRecorder(player)
            player.isFullscreen = true
            #expect(player.isFullscreen, "the request is kept until the window opens")
            try await player.prepareToPlay()
            try await recorder.waitFor { $0 == .didEnterFullscreen }
            #expect(player.isFullscreen)
            try await player.seek(to: .zero)  // the frame again, at the screen's size
            let shot = try await display.screenshot()
            expect(shot, 320, 20, Self.orange, "bar above, across the 640x480 screen")
            expect(shot, 620, 100, .blue, "last bar, at the screen's right edge")
            let fullscreenEvents = Self.fullscreenEvents(recorder.events)
            #expect(fullscreenEvents == [.willEnterFullscreen(animationDuration: .zero), .didEnterFullscreen])
            player.isFullscreen = false
            try await recorder.waitFor { $0 == .didExitFullscreen }
            #expect(!player.isFullscreen)
        }
        withExtendedLifetime(display) {}
    }

    /// Five seconds of a tone, Vorbis in Ogg: time to look at the window twice while it plays.
    static let fiveSecondsOfSound = TestMedia.Clip(
        fileExtension: "ogg",
        pipeline: """
            audiotestsrc num-buffers=216 wave=sine ! audio/x-raw,rate=44100,channels=1 ! audioconvert ! vorbisenc ! \
            oggmux ! filesink location=LOCATION
            """)

    @Test("a movie without video shows the background colour in the player's window, not an empty screen")
    func audioOnlyShowsBackground() async throws {
        let display = try await VirtualDisplay()
        let player = try await Self.orangeWindowPlayer(Self.fiveSecondsOfSound, on: display)
        try await withShutdown(of: player) {
            let recorder = EventRecorder(player)
            try await player.play()
            #expect(player.movieMediaTypes == [.audio])
            try await Task.sleep(for: .milliseconds(300))
            let shot = try await display.screenshot()
            expect(shot, 20, 20, Self.orange, "the window, in the background colour")
            expect(shot, 600, 450, .black, "the rest of the screen")
            player.backgroundColor = RGBAColor(red: 0, green: 0, blue: 255)
            try await Task.sleep(for: .milliseconds(300))
            expect(try await display.screenshot(), 20, 20, .blue, "a new background colour, while playing")
            player.stop()
            try await recorder.waitFor { $0 == .playbackDidFinish(.userExited, nil) }
        }
        withExtendedLifetime(display) {}
    }

    /// Ten seconds of 16:9 bars (320x180): room for a two-second animation while it plays.
    static let longWideBars = TestMedia.Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=300 pattern=smpte ! video/x-raw,format=I420,width=320,height=180,framerate=30/1 ! \
            x264enc speed-preset=ultrafast ! h264parse ! mp4mux faststart=true ! filesink location=LOCATION
            """)

    @Test("a change of scaling mode moves the picture to its new place over the animation's duration")
    func scalingModeAnimates() async throws {
        let display = try await VirtualDisplay()
        let player = try await Self.orangeWindowPlayer(Self.longWideBars, on: display)
        try await withShutdown(of: player) {
            try await player.prepareToPlay()
            try await player.setFullscreen(true, animated: false)
            try await player.play()
            try await Task.sleep(for: .milliseconds(300))
            // The 640x480 screen, the 16:9 movie fitted: 640x360 between 60-pixel bars.
            let fitted = try await display.screenshot()
            expect(fitted, 320, 45, Self.orange, "aspect fit: the bar above")
            player.scalingModeAnimationDuration = .seconds(2)
            let changed = ContinuousClock.now
            player.scalingMode = .aspectFill
            #expect(player.scalingMode == .aspectFill, "the mode is the new one at once")
            try await Task.sleep(until: changed + .milliseconds(700))
            let midway = try await display.screenshot()
            let elapsed = ContinuousClock.now - changed
            if elapsed < .milliseconds(1500) {
                // Between 35 % and 75 % of the way: bars of 39 to 15 pixels.
                expect(midway, 320, 8, Self.orange, "part of the way: a thinner bar above (\(elapsed) in)")
                let picture = midway.color(atX: 320, y: 50)
                #expect(
                    !picture.isClose(to: Self.orange, tolerance: 40),
                    "part of the way: the picture where the bar was: \(picture)")
            }
            try await Task.sleep(until: changed + .milliseconds(2400))
            let filled = try await display.screenshot()
            let top = filled.color(atX: 320, y: 8)
            #expect(!top.isClose(to: Self.orange, tolerance: 40), "aspect fill: the picture to the top, not \(top)")
            player.stop()
        }
        withExtendedLifetime(display) {}
    }
}
