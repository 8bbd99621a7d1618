import FileSource
import MediaEngine
import MediaTestSupport
import Testing

/// Scaling modes, background colour and orientation, read from the pixels of frames delivered
/// at a size whose shape differs from the movie's. The movie is 320x240 SMPTE bars: seven
/// vertical bars (white, yellow, cyan, green, magenta, red, blue), 45.7 pixels each.
@Suite("Scaling and orientation")
struct ScalingTests {
    static let yellow = RGBAColor(red: 255, green: 255, blue: 0)
    static let magenta = RGBAColor(red: 255, green: 0, blue: 255)
    static let orange = RGBAColor(red: 255, green: 128, blue: 0)
    static let cyan = RGBAColor(red: 0, green: 255, blue: 255)

    private func frame(
        _ mode: ScalingMode, size: VideoSize, background: RGBAColor = .black, clip: TestMedia.Clip = TestMedia.bars,
        tile: VideoWallTile? = nil
    ) async throws -> VideoImage {
        let sink = FrameSink(format: .rgba, size: size)
        let player = MoviePlayer(source: FileSource(url: try await TestMedia.url(for: clip)), videoSink: sink)
        player.shouldAutoplay = false
        player.scalingMode = mode
        player.wallTile = tile
        player.backgroundColor = background
        try await player.prepareToPlay()
        let image = try #require(sink.latestFrame())
        #expect(image.width == size.width && image.height == size.height)
        return image
    }

    private func expect(_ image: VideoImage, _ x: Int, _ y: Int, _ color: RGBAColor, _ note: String) {
        let seen = image.color(atX: x, y: y)
        #expect(seen.isClose(to: color, tolerance: 40), "\(note): (\(x), \(y)) is \(seen), not \(color)")
    }

    @Test("aspect fit: the whole picture, bars in the background colour")
    func aspectFit() async throws {
        // 4:3 in a square: 160x120 with 20-pixel bars above and below.
        let square = try await frame(.aspectFit, size: VideoSize(width: 160, height: 160), background: Self.orange)
        expect(square, 80, 8, Self.orange, "top bar")
        expect(square, 80, 152, Self.orange, "bottom bar")
        expect(square, 5, 80, .white, "first bar at the left edge")
        expect(square, 155, 80, .blue, "last bar at the right edge")
        // 4:3 in 8:3: 160x120 with 80-pixel bars left and right.
        let wide = try await frame(.aspectFit, size: VideoSize(width: 320, height: 120), background: Self.orange)
        expect(wide, 40, 60, Self.orange, "left bar")
        expect(wide, 280, 60, Self.orange, "right bar")
        expect(wide, 85, 60, .white, "first bar")
    }

    @Test("aspect fill: no bars, the overflow cropped")
    func aspectFill() async throws {
        // 4:3 filling a square: the middle 240x240 of the picture, scaled to 160x160.
        let image = try await frame(.aspectFill, size: VideoSize(width: 160, height: 160), background: Self.orange)
        expect(image, 0, 20, .white, "left edge: source x 40, the white bar")
        expect(image, 159, 20, .blue, "right edge: source x 279, the blue bar")
        expect(image, 5, 20, Self.yellow, "source x 48: already the yellow bar")
        expect(image, 80, 2, .green, "no bar at the top: the middle (green) bar")
    }

    @Test("fill: stretched to the whole output")
    func fill() async throws {
        let image = try await frame(.fill, size: VideoSize(width: 160, height: 160), background: Self.orange)
        expect(image, 2, 2, .white, "top left")
        expect(image, 157, 2, .blue, "top right")
        expect(image, 80, 20, .green, "middle")
    }

    @Test("a video wall's tile shows its part of the picture fitted to the whole wall, the bezels hidden")
    func wallTiles() async throws {
        let half = VideoSize(width: 160, height: 240)
        // Two screens side by side: the left one shows source x 0-160, the right one 160-320.
        let left = try await frame(.fill, size: half, tile: VideoWallTile(row: 0, column: 0, rows: 1, columns: 2))
        expect(left, 5, 40, .white, "left tile, source x 5")
        expect(left, 150, 40, .green, "left tile, source x 150")
        let right = try await frame(.fill, size: half, tile: VideoWallTile(row: 0, column: 1, rows: 1, columns: 2))
        expect(right, 20, 40, .green, "right tile, source x 180")
        expect(right, 40, 40, Self.magenta, "right tile, source x 200")
        expect(right, 155, 40, .blue, "right tile, source x 315")
        // 40 pixels of bezel: the wall is 360 wide; what falls behind the frames is not shown.
        let bezelled = VideoWallTile(row: 0, column: 1, rows: 1, columns: 2, bezelWidth: 40)
        let behind = try await frame(.fill, size: half, tile: bezelled)
        expect(behind, 20, 40, Self.magenta, "right tile after the bezel: wall x 220, source x 196")
        let beforeBezel = try await frame(
            .fill, size: half, tile: VideoWallTile(row: 0, column: 0, rows: 1, columns: 2, bezelWidth: 40))
        expect(beforeBezel, 150, 40, Self.cyan, "left tile, wall x 150, source x 133")
        // Two by two: the bottom row's tiles show the lower half.
        let quarter = VideoSize(width: 160, height: 120)
        let bottomRight = try await frame(
            .fill, size: quarter, tile: VideoWallTile(row: 1, column: 1, rows: 2, columns: 2))
        expect(bottomRight, 155, 5, .blue, "bottom right tile's top right: source (315, 125)")
        let bottomLeft = try await frame(
            .fill, size: quarter, tile: VideoWallTile(row: 1, column: 0, rows: 2, columns: 2))
        expect(bottomLeft, 5, 5, .white, "bottom left tile's top left: source (5, 125)")
        // Out of range: the last row and column.
        #expect(
            VideoWallTile(row: 9, column: -1, rows: 2, columns: 3)
                == VideoWallTile(row: 1, column: 0, rows: 2, columns: 3))
    }

    @Test("none: the natural size, centred and cropped")
    func none() async throws {
        // 320x240 in 160x160 unscaled: source x 80-240, y 40-200.
        let image = try await frame(.none, size: VideoSize(width: 160, height: 160), background: Self.orange)
        expect(image, 2, 20, Self.yellow, "left edge: source x 82")
        expect(image, 157, 20, .red, "right edge: source x 237")
        // And a larger output gets bars.
        let larger = try await frame(.none, size: VideoSize(width: 400, height: 300), background: Self.orange)
        expect(larger, 20, 150, Self.orange, "left bar")
        expect(larger, 45, 100, .white, "picture starts at x 40")
        expect(larger, 200, 10, Self.orange, "top bar")
    }

    @Test("the pixel aspect ratio is respected: a 2:1 anamorphic picture fits as 4:1")
    func pixelAspectRatio() async throws {
        // 200x100 stored, 400x100 shown; in 200x200 that is 200x50, with bars above and below.
        let image = try await frame(
            .aspectFit, size: VideoSize(width: 200, height: 200), background: Self.orange, clip: TestMedia.anamorphic)
        expect(image, 100, 60, Self.orange, "bar above the 50-pixel-high picture")
        expect(image, 100, 140, Self.orange, "bar below it")
        expect(image, 5, 90, .white, "picture")
    }

    @Test("changing the mode while playing applies to the next frames and announces it")
    func liveChange() async throws {
        let frames = FrameRecorder()
        let sink = frames.sink(format: .rgba, size: VideoSize(width: 160, height: 160))
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: sink)
        player.backgroundColor = Self.orange
        player.repeatMode = .one  // frames keep coming however long the checks below wait
        let recorder = EventRecorder(player)
        try await player.play()
        #expect(player.scalingMode == .aspectFit)
        player.scalingMode = .fill
        try await recorder.waitFor { $0 == .scalingModeChanged(.fill) }
        // The event is the decision; the scaler takes the mode from the player's thread, a frame
        // or two later on a busy machine. Within a second of frames (the clip repeats), the bar
        // must be gone. The clip's bars scroll, so any bar colour may be there; the orange bar may not.
        var top = RGBAColor(red: 0, green: 0, blue: 0)
        for _ in 0..<30 {
            try await frames.waitForFrames(frames.records.count + 1)
            top = try #require(sink.latestFrame()).color(atX: 80, y: 8)
            if !top.isClose(to: Self.orange, tolerance: 40) { break }
        }
        #expect(!top.isClose(to: Self.orange, tolerance: 40), "still a bar at the top: \(top)")
        player.stop()
    }

    @Test("a portrait movie tagged to be turned plays upright")
    func portrait() async throws {
        let sink = FrameSink(format: .rgba)
        let player = MoviePlayer(source: FileSource(url: try await TestMedia.portraitBars()), videoSink: sink)
        player.shouldAutoplay = false
        try await player.prepareToPlay()
        #expect(player.naturalSize == VideoSize(width: 240, height: 320))
        let image = try #require(sink.latestFrame())
        #expect(image.width == 240 && image.height == 320)
        // Turned a quarter clockwise: the bars' top row (white ... blue, left to right) is now
        // the right-hand column, top to bottom.
        expect(image, 230, 10, .white, "top right")
        expect(image, 230, 310, .blue, "bottom right")
    }

    @Test(
        "the player can turn and mirror the picture itself",
        arguments: [
            (VideoOrientation.rotate180, 5, 200, RGBAColor.blue), (.flipHorizontal, 5, 20, .blue),
            (.identity, 5, 20, .white),
        ])
    func orientation(orientation: VideoOrientation, x: Int, y: Int, color: RGBAColor) async throws {
        let sink = FrameSink(format: .rgba)
        let player = MoviePlayer(source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: sink)
        player.shouldAutoplay = false
        player.videoOrientation = orientation
        try await player.prepareToPlay()
        let image = try #require(sink.latestFrame())
        expect(image, x, y, color, "\(orientation)")
    }

    @Test("identity ignores the orientation tag")
    func ignoringTheTag() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.portraitBars()), videoSink: NullVideoSink())
        player.shouldAutoplay = false
        player.videoOrientation = .identity
        try await player.prepareToPlay()
        #expect(player.naturalSize == VideoSize(width: 320, height: 240))
    }
}
