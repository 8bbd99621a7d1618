import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// Overlays on real frames: placement through scaling modes, timed captions, live removal,
/// hit tests through letterboxing, a failing overlay.
@Suite("Overlay compositing")
struct OverlayCompositingTests {
    /// Frames as (presentation time, whether `probe` saw its colour), recorded on the streaming thread.
    final class ColorLog: Sendable {
        private let entries = Locked<[(time: Duration?, hit: Bool)]>([])
        private let waitlist = Waitlist()
        let probe: @Sendable (borrowing VideoFrame) -> Bool

        init(_ probe: @escaping @Sendable (borrowing VideoFrame) -> Bool) { self.probe = probe }

        func sink(size: VideoSize? = nil, synchronized: Bool = true) -> FrameSink {
            FrameSink(format: .rgba, size: size, synchronized: synchronized, dropsLateFrames: false) { [self] frame in
                let hit = probe(frame)
                entries.withLock { $0.append((frame.presentationTime, hit)) }
                waitlist.recheck()
            }
        }

        var all: [(time: Duration?, hit: Bool)] { entries.withLock { $0 } }

        func waitForFrames(_ count: Int) async throws {
            try await withDeadline(.seconds(10), "\(count) frames") { [self] in
                await waitlist.wait { self.all.count >= count }
            }
        }
    }

    /// A colour the SMPTE bars never show (they have a red bar, which scrolls through the numbered clip).
    static let orange = RGBAColor(red: 255, green: 128, blue: 0)

    static func square(_ color: RGBAColor, _ placement: OverlayPlacement, size: Int = 20) throws -> ImageOverlay {
        ImageOverlay(image: try OverlayBitmap(width: size, height: size, color: color), placement: placement)
    }

    @Test(
        "movie-space overlays follow the picture through the scaling mode; view-space ones stay on the view",
        arguments: [
            // 320x240 bars into 800x480. aspectFit: x2 at x 80; fill: x2.5 by x2; aspectFill: x2.5, 24 rows cropped.
            (ScalingMode.aspectFit, 300, 220), (.fill, 275, 220), (.aspectFill, 275, 215),
        ])
    func placementSpaces(mode: ScalingMode, x: Int, y: Int) async throws {
        let sink = FrameSink(format: .rgba, size: VideoSize(width: 800, height: 480))
        let player = MoviePlayer(source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: sink)
        player.shouldAutoplay = false
        player.scalingMode = mode
        player.backgroundColor = .black
        player.overlays.add(try Self.square(.red, .absolute(x: 100, y: 100)))
        player.overlays.add(try Self.square(.green, .absolute(x: 10, y: 10, width: 30, height: 30, in: .view)))
        try await player.prepareToPlay()
        let frame = try #require(sink.latestFrame())
        #expect(frame.color(atX: x, y: y).isClose(to: .red, tolerance: 40), "\(mode): \(frame.color(atX: x, y: y))")
        #expect(frame.color(atX: 25, y: 25).isClose(to: .green, tolerance: 40), "\(mode): view-space square")
        // Just outside the movie-space square, the movie (SMPTE's cyan/green bars around x 100-140).
        #expect(!frame.color(atX: x - 40, y: y).isClose(to: .red, tolerance: 60))
        let geometry = try #require(player.overlays.latestGeometry)
        #expect(geometry.viewSize == VideoSize(width: 800, height: 480))
        #expect(geometry.movieSize == VideoSize(width: 320, height: 240))
    }

    @Test("overlays partly outside the frame are cropped; odd positions keep their colour")
    func edgesAndOddPositions() async throws {
        let sink = FrameSink(format: .rgba)
        let player = MoviePlayer(source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: sink)
        player.shouldAutoplay = false
        player.overlays.add(try Self.square(Self.orange, .absolute(x: -10, y: -15, width: 30, height: 30)))
        player.overlays.add(try Self.square(Self.orange, .absolute(x: 305, y: 225, width: 30, height: 30)))
        player.overlays.add(try Self.square(.red, .absolute(x: 101, y: 61, width: 21, height: 21)))
        try await player.prepareToPlay()
        let frame = try #require(sink.latestFrame())
        #expect(frame.color(atX: 2, y: 2).isClose(to: Self.orange, tolerance: 40), "top left corner")
        #expect(frame.color(atX: 17, y: 12).isClose(to: Self.orange, tolerance: 40), "last covered pixel")
        #expect(!frame.color(atX: 24, y: 20).isClose(to: Self.orange, tolerance: 60), "beyond the square")
        #expect(frame.color(atX: 318, y: 238).isClose(to: Self.orange, tolerance: 40), "bottom right corner")
        #expect(
            frame.color(atX: 111, y: 71).isClose(to: .red, tolerance: 40),
            "odd position: \(frame.color(atX: 111, y: 71))")
        #expect(frame.color(atX: 102, y: 62).isClose(to: .red, tolerance: 50), "odd position, near its corner")
    }

    @Test("a timed caption shows only inside its time range")
    func timedCaption() async throws {
        let caption = try TextOverlay(
            cues: [TextCue(start: .milliseconds(500), end: .seconds(1), text: "CAPTION")],
            style: Self.captionStyle)
        try await Self.expectCaptionShownFromHalfToOneSecond(caption)
    }

    /// A green box behind the text: easy to find, and no green in the bottom rows of the bars.
    static let captionStyle = TextStyle(font: "Sans Bold 16", color: .white, outline: nil, background: .green)

    /// Plays the numbered clip (60 frames) with `caption`, drawn in ``captionStyle``, and expects
    /// its green box in the bottom rows of the frames from 0.5 s to 1 s and of no other frame.
    static func expectCaptionShownFromHalfToOneSecond(_ caption: TextOverlay) async throws {
        let log = ColorLog { frame in
            (0..<32).contains { column in
                frame.color(atX: column * 10, y: 215).isClose(to: .green, tolerance: 40)
            }
        }
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)),
            videoSink: log.sink(synchronized: false), audioOutput: .discard)
        player.overlays.add(caption)
        let recorder = EventRecorder(player)
        try await player.play()
        _ = try await recorder.waitForFinish()
        let frames = log.all
        #expect(frames.count == 60)
        #expect(frames.contains { $0.hit })
        for frame in frames {
            let time = try #require(frame.time)
            let inside = time >= .milliseconds(500) && time < .seconds(1)
            #expect(frame.hit == inside, "frame at \(time): caption \(frame.hit ? "shown" : "hidden")")
        }
    }

    @Test("adding and removing an overlay while playing changes the next frames and drops none")
    func addAndRemoveWhilePlaying() async throws {
        let log = ColorLog { frame in frame.color(atX: 160, y: 120).isClose(to: Self.orange, tolerance: 40) }
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: log.sink(),
            audioOutput: .discard)
        // Looping, so that frames keep coming however late this task gets to run on a busy machine.
        player.repeatMode = .one
        try await player.play()
        try await log.waitForFrames(5)
        let addedAt = log.all.count
        let id = player.overlays.add(try Self.square(Self.orange, .absolute(x: 140, y: 100, width: 40, height: 40)))
        try await log.waitForFrames(addedAt + 10)
        let removedAt = log.all.count
        player.overlays.remove(id)
        try await log.waitForFrames(removedAt + 10)
        player.stop()
        let frames = log.all
        // Frames already composited when it changed may still be queued (two at most).
        #expect(frames.prefix(addedAt).allSatisfy { !$0.hit }, "before it was added, the movie")
        #expect(frames[(addedAt + 2)..<removedAt].allSatisfy { $0.hit }, "while it is there, the square")
        #expect(frames.dropFirst(removedAt + 2).allSatisfy { !$0.hit }, "after removal, the movie again")
        // No frame dropped: each follows the one before by one frame interval, or starts the next pass.
        let times = frames.compactMap(\.time)
        #expect(times.count == frames.count)
        for (previous, next) in zip(times, times.dropFirst()) {
            let isNext = abs((next - previous) / .milliseconds(1) - 1000.0 / 30) < 2
            let isLoop = next == .zero && previous > .milliseconds(1900)
            #expect(isNext || isLoop, "\(previous) -> \(next)")
        }
    }

    @Test("a click on the view maps through aspect-fit bars to the overlay's region")
    func hitTest() async throws {
        let sink = FrameSink(format: .rgba, size: VideoSize(width: 800, height: 480))
        let player = MoviePlayer(source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: sink)
        player.shouldAutoplay = false
        let tabs = try DrawingOverlay(
            size: VideoSize(width: 100, height: 20), placement: .absolute(x: 0, y: 220),
            hitRegions: [
                OverlayHitRegion(id: "left", rect: ViewRect(x: 0, y: 0, width: 50, height: 20)),
                OverlayHitRegion(id: "right", rect: ViewRect(x: 50, y: 0, width: 50, height: 20)),
            ]
        ) { canvas, _ in canvas.clear(to: RGBAColor(red: 40, green: 40, blue: 40)) }
        let id = player.overlays.add(tabs)
        let recorder = EventRecorder(player)
        try await player.prepareToPlay()
        // Movie (0, 220)-(100, 240) is view (80, 440)-(280, 480): twice as big, 80 pixels in.
        let right = try #require(player.sendPointer(x: 230, y: 460))
        #expect(right.overlay == id && right.region == "right")
        #expect(abs(right.point.x - 75) < 0.01 && abs(right.point.y - 10) < 0.01, "\(right.point)")
        #expect(player.sendPointer(x: 100, y: 450)?.region == "left")
        #expect(player.sendPointer(x: 40, y: 460) == nil, "on the bar beside the movie")
        #expect(player.sendPointer(x: 300, y: 460) == nil, "beside the overlay")
        #expect(player.sendPointer(x: 230, y: 400) == nil, "above the overlay")
        // Both hits' events, in order (waiting for the first only and counting raced the second).
        try await recorder.waitUntil("both regions' events") { events in
            events.contains {
                if case .overlayRegionActivated(id, "left", _) = $0 { true } else { false }
            }
        }
        let activations = recorder.events.filter { if case .overlayRegionActivated = $0 { true } else { false } }
        #expect(
            activations.first
                == .overlayRegionActivated(overlay: id, region: "right", point: OverlayPoint(x: 75, y: 10)))
        #expect(activations.count == 2, "\(activations)")
    }

    @Test("an overlay that throws is skipped with one error event; playback and other overlays go on")
    func failingOverlay() async throws {
        struct Broken: Error {}
        let log = ColorLog { frame in frame.color(atX: 20, y: 20).isClose(to: Self.orange, tolerance: 40) }
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)),
            videoSink: log.sink(synchronized: false), audioOutput: .discard)
        let broken = player.overlays.add(
            try DrawingOverlay(size: VideoSize(width: 10, height: 10), redraw: .everyFrame) { _, _ in throw Broken() })
        player.overlays.add(try Self.square(Self.orange, .absolute(x: 10, y: 10)))
        let recorder = EventRecorder(player)
        try await player.play()
        let (reason, error) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded && error == nil)
        #expect(log.all.count == 60 && log.all.allSatisfy { $0.hit }, "the other overlay is drawn on every frame")
        let failures = recorder.events.compactMap { event -> (VideoOverlays.ID, MediaError)? in
            if case .overlayFailed(let id, let error) = event { (id, error) } else { nil }
        }
        #expect(failures.count == 1)
        #expect(failures.first?.0 == broken && failures.first?.1.code == .overlayFailed)
    }
}
