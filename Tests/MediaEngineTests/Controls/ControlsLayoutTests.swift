import Testing

@testable import MediaEngineCore

/// The controls' geometry and decisions without GStreamer: where each control goes for a style
/// and an output size, what a click on it asks for, when the bars show, and when they are drawn
/// again.
@Suite("Controls: layout and decisions")
struct ControlsLayoutTests {
    typealias Element = ControlsLayout.Element

    static func snapshot(
        playing: Bool = false, at position: Duration = .seconds(4), of duration: Duration? = .seconds(10)
    )
        -> ControlsSnapshot
    {
        var snapshot = ControlsSnapshot()
        snapshot.isPlaying = playing
        snapshot.position = position
        snapshot.duration = duration
        return snapshot
    }

    @Test("the fullscreen style at 1280x720: every control, inside its bar, none overlapping")
    func fullscreenLayout() throws {
        let layout = ControlsLayout(style: .fullscreen, viewSize: VideoSize(width: 1280, height: 720))
        let bottom = try #require(layout.bottom)
        let leading = try #require(layout.topLeading)
        let trailing = try #require(layout.topTrailing)
        #expect(
            Set(bottom.elements.keys) == [
                .seekBackward, .playPause, .seekForward, .elapsed, .scrubber, .remaining, .volume, .fullscreenToggle,
            ])
        #expect(Set(leading.elements.keys) == [.done] && Set(trailing.elements.keys) == [.tracks, .aspect])
        #expect(layout.barHeight == 72 && bottom.canvas.width == 1280)
        #expect(bottom.canvas.y + bottom.canvas.height == 720 && leading.canvas.y == 0 && trailing.canvas.y == 0)
        #expect(leading.canvas.x == 0 && trailing.canvas.x + trailing.canvas.width == 1280)
        // The top overlays cover their buttons and the margin, not the width of the view.
        #expect(leading.canvas.width + trailing.canvas.width < 400)
        for bar in layout.bars {
            let rects = Array(bar.elements.values)
            for rect in rects {
                #expect(
                    rect.x >= bar.body.x && rect.x + rect.width <= bar.body.x + bar.body.width, "\(rect) in \(bar.body)"
                )
                #expect(rect.y >= bar.body.y && rect.y + rect.height <= bar.body.y + bar.body.height)
                #expect(rect.x + rect.width <= bar.canvas.width && rect.y + rect.height <= bar.canvas.height)
            }
            for (i, a) in rects.enumerated() {
                for b in rects[(i + 1)...] {
                    #expect(a.x + a.width <= b.x || b.x + b.width <= a.x, "\(a) overlaps \(b)")
                }
            }
        }
        // The scrubber takes what is left, and is the widest control.
        let scrubber = try #require(bottom.elements[.scrubber])
        #expect(bottom.elements.values.allSatisfy { $0.width <= scrubber.width })
    }

    @Test("the embedded style has play/pause, the times, the scrubber and the fullscreen toggle only")
    func embeddedLayout() throws {
        let layout = ControlsLayout(style: .embedded, viewSize: VideoSize(width: 640, height: 360))
        #expect(layout.topLeading == nil && layout.topTrailing == nil)
        let bottom = try #require(layout.bottom)
        #expect(Set(bottom.elements.keys) == [.playPause, .elapsed, .scrubber, .remaining, .fullscreenToggle])
        #expect(layout.barHeight == 36)
        #expect(layout.hitRegions(of: bottom).map(\.id).sorted() == ["fullscreen", "play-pause", "scrubber"])
    }

    @Test("a narrow output drops the volume slider first, then the times; a tiny one has no controls")
    func narrowOutputs() throws {
        let medium = try #require(
            ControlsLayout(style: .fullscreen, viewSize: VideoSize(width: 300, height: 240)).bottom)
        #expect(medium.elements[.volume] == nil && medium.elements[.elapsed] != nil)
        let narrow = try #require(
            ControlsLayout(style: .fullscreen, viewSize: VideoSize(width: 220, height: 240)).bottom)
        #expect(
            narrow.elements[.volume] == nil && narrow.elements[.elapsed] == nil && narrow.elements[.scrubber] != nil)
        let tiny = ControlsLayout(style: .fullscreen, viewSize: VideoSize(width: 30, height: 20))
        #expect(tiny.bars.isEmpty)
        #expect(ControlsLayout(style: .none, viewSize: VideoSize(width: 1280, height: 720)).bottom == nil)
    }

    @Test("what a click asks for: play or pause, a seek to the clicked place, skips clamped to the movie")
    func actions() throws {
        let layout = ControlsLayout(style: .fullscreen, viewSize: VideoSize(width: 1280, height: 720))
        let bar = try #require(layout.bottom)
        let track = try #require(layout.track(of: .scrubber, in: bar))
        let middle = Double(track.x) + Double(track.width) / 2
        let action = { (element: Element, x: Double, snapshot: ControlsSnapshot) in
            ControlAction.of(element, atX: x, in: bar, layout: layout, snapshot: snapshot)
        }
        #expect(action(.playPause, 0, Self.snapshot(playing: true)) == .pause)
        #expect(action(.playPause, 0, Self.snapshot(playing: false)) == .play)
        #expect(action(.scrubber, middle, Self.snapshot()) == .seek(to: .seconds(5)))
        #expect(action(.scrubber, 0, Self.snapshot()) == .seek(to: .zero), "left of the track: the start")
        #expect(action(.scrubber, middle, Self.snapshot(of: nil)) == nil, "no duration, no scrubbing")
        #expect(action(.seekForward, 0, Self.snapshot(at: .seconds(4))) == .seek(to: .seconds(10)))
        #expect(action(.seekBackward, 0, Self.snapshot(at: .seconds(4))) == .seek(to: .zero))
        #expect(action(.seekForward, 0, Self.snapshot(at: .seconds(4), of: .seconds(60))) == .seek(to: .seconds(14)))
        var snapshot = Self.snapshot()
        #expect(action(.aspect, 0, snapshot) == .setScalingMode(.aspectFill))
        snapshot.scalingMode = .aspectFill
        #expect(action(.aspect, 0, snapshot) == .setScalingMode(.aspectFit))
        #expect(action(.fullscreenToggle, 0, snapshot) == .setFullscreen(true))
        snapshot.isFullscreen = true
        #expect(action(.fullscreenToggle, 0, snapshot) == .setFullscreen(false))
        #expect(action(.done, 0, snapshot) == .done)
        let volume = try #require(layout.track(of: .volume, in: bar))
        #expect(action(.volume, Double(volume.x + volume.width), snapshot) == .setVolume(1))
        #expect(action(.volume, Double(volume.x) + Double(volume.width) / 4, snapshot) == .setVolume(0.25))
    }

    @Test("the times read m:ss or h:mm:ss; the remaining time counts down")
    func clocks() throws {
        #expect(ControlsAppearance.clock(.zero) == "0:00")
        #expect(ControlsAppearance.clock(.milliseconds(65_900)) == "1:05")
        #expect(ControlsAppearance.clock(.seconds(3600 + 62)) == "1:01:02")
        let layout = ControlsLayout(style: .embedded, viewSize: VideoSize(width: 640, height: 360))
        let look = ControlsAppearance(layout: layout, position: .bottom, snapshot: Self.snapshot())
        #expect(look.elapsed == "0:04" && look.remaining == "-0:06")
        let unknown = ControlsAppearance(layout: layout, position: .bottom, snapshot: Self.snapshot(of: nil))
        #expect(unknown.remaining == "--:--" && unknown.played == 0)
    }

    @Test("a stream's buffered part and the played part are their shares of the scrubber's track")
    func bufferedPart() throws {
        let layout = ControlsLayout(style: .embedded, viewSize: VideoSize(width: 640, height: 360))
        let track = try #require(layout.bottom.flatMap { layout.track(of: .scrubber, in: $0) })
        var snapshot = Self.snapshot(at: .seconds(2), of: .seconds(10))
        snapshot.buffered = .seconds(6)
        let look = ControlsAppearance(layout: layout, position: .bottom, snapshot: snapshot)
        #expect(look.played == Int((Double(track.width) * 0.2).rounded()))
        #expect(look.buffered == Int((Double(track.width) * 0.6).rounded()))
        snapshot.buffered = nil
        #expect(ControlsAppearance(layout: layout, position: .bottom, snapshot: snapshot).buffered == 0, "a file")
    }

    @Test("only the scrubber and times moving may wait for the next redraw; a button's change may not")
    func redrawKinds() {
        let layout = ControlsLayout(style: .embedded, viewSize: VideoSize(width: 640, height: 360))
        let before = ControlsAppearance(layout: layout, position: .bottom, snapshot: Self.snapshot(playing: true))
        let later = ControlsAppearance(
            layout: layout, position: .bottom, snapshot: Self.snapshot(playing: true, at: .seconds(5)))
        #expect(before != later && before.differsOnlyInProgress(from: later))
        let paused = ControlsAppearance(layout: layout, position: .bottom, snapshot: Self.snapshot(playing: false))
        #expect(!before.differsOnlyInProgress(from: paused))
    }

    @Test("while playing the bars stay 3 s after the last input, then fade; while not playing they stay")
    func visibility() {
        #expect(ControlsVisibility.opacity(idle: .seconds(60), playing: false) == 1)
        #expect(ControlsVisibility.opacity(idle: .seconds(2), playing: true) == 1)
        let fading = ControlsVisibility.opacity(idle: .milliseconds(3200), playing: true)
        #expect(fading > 0.4 && fading < 0.6)
        #expect(ControlsVisibility.opacity(idle: .seconds(4), playing: true) == 0)
    }

    @Test("the legacy control modes map onto the controls shown: volume-only is a set of its own, read as embedded")
    func legacyModes() {
        #expect(MovieControlMode.default.controlStyle == .fullscreen)
        #expect(MovieControlMode.hidden.controlStyle == MovieControlStyle.none)
        #expect(MovieControlMode.volumeOnly.controlStyle == .embedded)
        #expect(MovieControlMode(.fullscreen) == .default && MovieControlMode(.embedded) == .default)
        #expect(MovieControlMode(MovieControlStyle.none) == .hidden)
        for mode in MovieControlMode.allCases { #expect(ControlsKind(mode).mode == mode) }
        #expect(ControlsKind(.volumeOnly) == .volumeOnly && ControlsKind.volumeOnly.style == .embedded)
        for style in MovieControlStyle.allCases { #expect(ControlsKind(style).style == style) }
        #expect(MovieControlStyle.default == .fullscreen && MovieControlStyle.default.rawValue == 2)
    }

    @Test("volume only: one short bar in the middle of the bottom with the speaker and the slider, and nothing else")
    func volumeOnlyLayout() throws {
        let layout = ControlsLayout(kind: .volumeOnly, viewSize: VideoSize(width: 640, height: 360))
        #expect(layout.topLeading == nil && layout.topTrailing == nil)
        let bottom = try #require(layout.bottom)
        #expect(Set(bottom.elements.keys) == [.volume])
        #expect(layout.hitRegions(of: bottom).map(\.id) == ["volume"])
        // 36 px high, five of that wide, centred as the overlay's bottom anchor centres it.
        #expect(bottom.canvas.width == 180 && bottom.canvas.x == 230 && bottom.canvas.y + bottom.canvas.height == 360)
        let track = try #require(layout.track(of: .volume, in: bottom))
        #expect(track.x > bottom.body.x + layout.barHeight / 2 && track.x + track.width < bottom.body.width)
        let action = ControlAction.of(
            .volume, atX: Double(track.x) + Double(track.width) / 2, in: bottom, layout: layout,
            snapshot: Self.snapshot())
        #expect(action == .setVolume(0.5))
        // Narrower than five bars: the bar keeps a margin each side.
        let narrow = try #require(
            ControlsLayout(kind: .volumeOnly, viewSize: VideoSize(width: 120, height: 240)).bottom)
        #expect(narrow.canvas.x >= 4 && narrow.canvas.x + narrow.canvas.width <= 116)
    }

    @Test("unasked, a window of the player's own shows the fullscreen set, every other output none")
    func defaultControls() {
        #expect(PlayerControls.defaultKind(for: WindowSink(display: ":9"), windowHandle: nil) == .fullscreen)
        #expect(PlayerControls.defaultKind(for: WindowSink(display: ":9"), windowHandle: 0x40_0001) == .none)
        #expect(PlayerControls.defaultKind(for: FrameSink(), windowHandle: nil) == .none)
        #expect(PlayerControls.defaultKind(for: NullVideoSink(), windowHandle: nil) == .none)
    }
}
