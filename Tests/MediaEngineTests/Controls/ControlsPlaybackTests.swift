import FileSource
import Foundation
import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// The controls drawn into real frames, and worked by clicks at their pixels.
@Suite("Controls in playback")
struct ControlsPlaybackTests {
    static let size = VideoSize(width: 640, height: 360)

    /// A prepared, paused player of a 10 s movie into an RGBA frames sink of 640x360, with the
    /// controls of `style`.
    static func player(
        _ style: MovieControlStyle, clip: TestMedia.Clip = TestMedia.longBars,
        onFrame: (@Sendable (borrowing VideoFrame) -> Void)? = nil
    ) async throws -> (MoviePlayer, FrameSink) {
        let sink = FrameSink(format: .rgba, size: size, onFrame: onFrame)
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: clip)), videoSink: sink, audioOutput: .discard)
        player.shouldAutoplay = false
        player.controlStyle = style
        try await player.prepareToPlay()
        try await player.pause()
        return (player, sink)
    }

    /// The centre of a control in the output frame, from the layout the engine uses for it.
    static func center(of element: String, style: MovieControlStyle) throws -> (x: Double, y: Double) {
        let layout = ControlsLayout(style: style, viewSize: size)
        for bar in layout.bars {
            if let rect = bar.elements[try #require(ControlsLayout.Element(rawValue: element))] {
                return (
                    Double(bar.canvas.x + rect.x) + Double(rect.width) / 2,
                    Double(bar.canvas.y + rect.y) + Double(rect.height) / 2
                )
            }
        }
        throw MediaError(.invalidArgument, "no \(element) in the \(style) style")
    }

    static func brightness(_ color: RGBAColor) -> Int { (Int(color.red) + Int(color.green) + Int(color.blue)) / 3 }

    @Test("the fullscreen style draws its two bars over the paused frame, with the movie's times; none draws nothing")
    func drawn() async throws {
        let (player, sink) = try await Self.player(.fullscreen)
        let frame = try #require(sink.latestFrame())
        try frame.pngData().write(to: URL(fileURLWithPath: "/tmp/controls-fullscreen.png"))
        let (_, plain) = try await Self.player(.none)
        let movie = try #require(plain.latestFrame())
        // The bars' bodies darken the movie under them.
        let layout = ControlsLayout(style: .fullscreen, viewSize: Self.size)
        let bottom = try #require(layout.bottom)
        let top = try #require(layout.topLeading)
        let scrubber = try #require(bottom.elements[.scrubber])
        for (x, y) in [(scrubber.x + 4, bottom.canvas.y + bottom.body.y + 2)] {
            #expect(
                Self.brightness(frame.color(atX: x, y: y)) * 10 < Self.brightness(movie.color(atX: x, y: y)) * 6,
                "at (\(x), \(y)): \(frame.color(atX: x, y: y)) over \(movie.color(atX: x, y: y))")
        }
        // The Done label, white over the black beside the 4:3 movie.
        let done = try #require(top.elements[.done])
        var doneWhites = 0
        for x in done.x..<(done.x + done.width) {
            for y in done.y..<(done.y + done.height) where Self.brightness(frame.color(atX: x, y: y)) > 200 {
                doneWhites += 1
            }
        }
        #expect(doneWhites > 20, "Done is drawn")
        // The play button's triangle is white; outside the bars the movie is untouched.
        let play = try Self.center(of: "play-pause", style: .fullscreen)
        #expect(Self.brightness(frame.color(atX: Int(play.x), y: Int(play.y))) > 220)
        #expect(frame.color(atX: 320, y: 180).isClose(to: movie.color(atX: 320, y: 180), tolerance: 4))
        // The remaining time is the movie's: the label's area has white text pixels in it.
        let remaining = try #require(bottom.elements[.remaining])
        var whites = 0
        for x in remaining.x..<(remaining.x + remaining.width) {
            for y in remaining.y..<(remaining.y + remaining.height)
            where Self.brightness(frame.color(atX: x, y: bottom.canvas.y + y)) > 200 {
                whites += 1
            }
        }
        #expect(whites > 20, "the remaining time is drawn")
        #expect(player.controlStyle == .fullscreen && player.movieControlMode == .default)
    }

    @Test(
        "volume only: the speaker and the slider in a short bar at the bottom middle, nothing else; a click sets the volume"
    )
    func volumeOnly() async throws {
        let sink = FrameSink(format: .rgba, size: Self.size)
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.longBars)), videoSink: sink,
            audioOutput: .discard)
        player.shouldAutoplay = false
        player.movieControlMode = .volumeOnly
        player.volume = 0.5
        let recorder = EventRecorder(player)
        try await player.prepareToPlay()
        try await player.pause()
        let layout = ControlsLayout(kind: .volumeOnly, viewSize: Self.size)
        let bar = try #require(layout.bottom)
        let track = try #require(layout.track(of: .volume, in: bar))
        let y = bar.canvas.y + track.y + track.height / 2
        // The filled half of the track is white; the other half lighter than the bar's body.
        try await Self.waitForFrame(sink, "the volume slider") { frame in
            Self.brightness(frame.color(atX: bar.canvas.x + track.x + track.width / 4, y: y)) > 200
        }
        let frame = try #require(sink.latestFrame())
        try frame.pngData().write(to: URL(fileURLWithPath: "/tmp/controls-volume-only.png"))
        #expect(Self.brightness(frame.color(atX: bar.canvas.x + track.x + track.width * 7 / 8, y: y)) < 200)
        // The speaker, left of the track: white pixels in its middle column.
        let speakerX = bar.canvas.x + layout.barHeight / 4 + layout.barHeight / 3
        #expect(
            (bar.canvas.y..<(bar.canvas.y + layout.barHeight)).contains { row in
                Self.brightness(frame.color(atX: speakerX, y: row)) > 200
            })
        // Nothing where the other sets have play/pause and the Done button: the black left of the movie.
        #expect(Self.brightness(frame.color(atX: 30, y: bar.canvas.y + layout.barHeight / 2)) < 20)
        #expect(Self.brightness(frame.color(atX: 30, y: 20)) < 20)
        player.sendPointer(x: Double(bar.canvas.x + track.x) + Double(track.width) / 4, y: Double(y))
        try await recorder.waitFor("the volume") {
            if case .volumeChanged(let volume) = $0 { abs(volume - 0.25) < 0.02 } else { false }
        }
        try await Self.waitForFrame(sink, "the slider at a quarter") { frame in
            Self.brightness(frame.color(atX: bar.canvas.x + track.x + track.width * 3 / 8, y: y)) < 200
        }
        await player.shutdown()
    }

    /// Clicks as a pointer does: it moves there first, which brings back controls that faded (3 s
    /// without input while playing: a busy machine held this test up that long between two
    /// clicks, and the second only brought the controls back), and clicks once a frame has drawn
    /// them there.
    static func click(_ player: MoviePlayer, x: Double, y: Double) async throws {
        player.pointerMoved()
        try await withDeadline(.seconds(5), "the controls under the pointer") {
            while player.overlays.hitTest(viewX: x, y: y) == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        player.sendPointer(x: x, y: y)
    }

    /// Waits until the latest frame satisfies `condition`.
    static func waitForFrame(
        _ sink: FrameSink, _ what: String, _ condition: @escaping @Sendable (VideoImage) -> Bool
    ) async throws {
        try await withDeadline(.seconds(5), what) {
            while !(sink.latestFrame().map(condition) ?? false) { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    @Test("clicks on the controls do what the buttons say and post what the same calls post")
    func clicks() async throws {
        let (player, sink) = try await Self.player(.fullscreen)
        let recorder = EventRecorder(player)
        let play = try Self.center(of: "play-pause", style: .fullscreen)
        let centre = (x: Int(play.x), y: Int(play.y))
        try await Self.click(player, x: play.x, y: play.y)
        try await recorder.waitFor("playing") { $0.playbackState == .playing }
        // While playing, the button is a pause sign: dark between its two bars.
        try await Self.waitForFrame(sink, "the pause sign") {
            Self.brightness($0.color(atX: centre.x, y: centre.y)) < 120
        }
        try await Self.click(player, x: play.x, y: play.y)
        try await recorder.waitFor("paused") { $0.playbackState == .paused }
        // Paused, the frame is shown again with the play sign: white in its middle.
        try await Self.waitForFrame(sink, "the play sign") {
            Self.brightness($0.color(atX: centre.x, y: centre.y)) > 200
        }

        let scrubber = try Self.center(of: "scrubber", style: .fullscreen)
        try await Self.click(player, x: scrubber.x, y: scrubber.y)
        try await recorder.waitFor("a seek to the middle") {
            if case .seekCompleted(let time) = $0 {
                time.isClose(to: .seconds(30), within: .milliseconds(700))
            } else {
                false
            }
        }
        let forward = try Self.center(of: "seek-forward", style: .fullscreen)
        try await Self.click(player, x: forward.x, y: forward.y)
        try await recorder.waitFor("a seek 10 s on") {
            if case .seekCompleted(let time) = $0 {
                time.isClose(to: .seconds(40), within: .milliseconds(800))
            } else {
                false
            }
        }

        let layout = ControlsLayout(style: .fullscreen, viewSize: Self.size)
        let bottom = try #require(layout.bottom)
        let volume = try #require(layout.track(of: .volume, in: bottom))
        try await Self.click(
            player, x: Double(volume.x) + Double(volume.width) / 4, y: Double(bottom.canvas.y + volume.y))
        try await recorder.waitFor("the volume") {
            if case .volumeChanged(let volume) = $0 { abs(volume - 0.25) < 0.02 } else { false }
        }
        #expect(abs(player.volume - 0.25) < 0.02)

        let aspect = try Self.center(of: "aspect", style: .fullscreen)
        try await Self.click(player, x: aspect.x, y: aspect.y)
        try await recorder.waitFor("aspect fill") { $0 == .scalingModeChanged(.aspectFill) }
        #expect(player.scalingMode == .aspectFill)

        let done = try Self.center(of: "done", style: .fullscreen)
        try await Self.click(player, x: done.x, y: done.y)
        try await Task.sleep(for: .milliseconds(300))
        #expect(player.playbackState == .paused)
        let events = recorder.events
        #expect(!events.contains { $0.finish != nil }, "Done posts no finish")
        #expect(!events.contains { if case .overlayRegionActivated = $0 { true } else { false } }, "\(events)")
    }

    @Test("while playing, the controls fade out after 3 s without input and come back on pointer motion")
    func fading() async throws {
        // The pause sign's left bar, over the black bar beside the 4:3 movie: white while the
        // controls show, black when they are gone.
        let play = try Self.center(of: "play-pause", style: .embedded)
        let layout = ControlsLayout(style: .embedded, viewSize: Self.size)
        let bar = (x: Int(play.x - Double(layout.barHeight) * 0.42 * 0.23), y: Int(play.y))
        let shown = { @Sendable (frame: VideoImage) in Self.brightness(frame.color(atX: bar.x, y: bar.y)) > 200 }
        let hidden = { @Sendable (frame: VideoImage) in Self.brightness(frame.color(atX: bar.x, y: bar.y)) < 30 }
        // When the first frame without the controls reached the sink (once the pause sign has
        // been seen), read on the streaming thread: the test's own polling can be late by a
        // second on a loaded machine.
        let firstHidden = Locked<(armed: Bool, at: ContinuousClock.Instant?)>((false, nil))
        let (player, sink) = try await Self.player(.embedded) { frame in
            guard firstHidden.withLock({ $0.armed && $0.at == nil }),
                Self.brightness(frame.color(atX: bar.x, y: bar.y)) < 30
            else { return }
            let now = ContinuousClock.now
            firstHidden.withLock { $0.at = $0.at ?? now }
        }
        let start = ContinuousClock.now
        try await player.play()
        try await Self.waitForFrame(sink, "the pause sign", shown)
        firstHidden.withLock { $0.armed = true }
        try await Self.waitForFrame(sink, "the controls gone", hidden)
        let gone = try #require(firstHidden.withLock { $0.at }) - start
        #expect(gone >= .milliseconds(2900) && gone < .seconds(5), "gone after \(gone)")
        player.pointerMoved()
        try await Self.waitForFrame(sink, "the controls back", shown)
    }

    @Test("the track menu lists the movie's audio and subtitle tracks; a choice in it selects the track and closes it")
    func trackMenu() async throws {
        let (player, sink) = try await Self.player(.fullscreen, clip: TestMedia.twoLanguages)
        let recorder = EventRecorder(player)
        #expect(player.audioTracks.count == 2)
        let button = try Self.center(of: "tracks", style: .fullscreen)
        player.sendPointer(x: button.x, y: button.y)
        var snapshot = ControlsSnapshot()
        snapshot.audioTracks = player.audioTracks
        snapshot.currentAudioTrack = player.currentAudioTrack?.index
        snapshot.isTrackMenuOpen = true
        let menu = try #require(
            TrackMenu(layout: ControlsLayout(style: .fullscreen, viewSize: Self.size), snapshot: snapshot))
        #expect(menu.rows.map(\.text) == ["Audio", "English", "Commentary", "Subtitles", "Off"])
        let panel = (x: Self.size.width - menu.right - menu.size.width, y: menu.top)
        // The paused frame is shown again with the menu open: its panel darkens the movie's red
        // bar (above its first row, where no text is).
        try await Self.waitForFrame(sink, "the menu") { frame in
            Self.brightness(frame.color(atX: panel.x + 15, y: panel.y + 3)) < 50
        }
        try sink.latestFrame()?.pngData().write(to: URL(fileURLWithPath: "/tmp/controls-track-menu.png"))
        let commentary = try #require(menu.rows.first { $0.text == "Commentary" })
        player.sendPointer(
            x: Double(panel.x + commentary.rect.x + commentary.rect.width / 2),
            y: Double(panel.y + commentary.rect.y + commentary.rect.height / 2))
        try await recorder.waitFor("the commentary") {
            if case .audioTrackChanged(let track) = $0 { track.index == 1 } else { false }
        }
        #expect(player.currentAudioTrack?.title == "Commentary")
        // The menu closed, and the paused frame is shown again without it.
        try await Self.waitForFrame(sink, "the menu closed") { frame in
            Self.brightness(frame.color(atX: panel.x + 15, y: panel.y + 3)) > 60
        }
    }
}
