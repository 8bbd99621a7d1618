import FileSource
import MediaEngine
import MediaTestSupport
import Testing

/// The overlay protocol and the compositing in the video bin, with a square drawn by a test double.
@Suite("Overlay basics")
struct OverlayBasicsTests {
    struct Square: VideoOverlay {
        let bitmap: OverlayBitmap
        var placement: OverlayPlacement
        var opacity: Double = 1
        var zOrder: Int = 0

        init(_ color: RGBAColor, at x: Int, _ y: Int, size: Int = 40, opacity: Double = 1, zOrder: Int = 0) throws {
            bitmap = try OverlayBitmap(width: size, height: size, color: color)
            placement = .absolute(x: x, y: y)
            self.opacity = opacity
            self.zOrder = zOrder
        }

        func bitmap(for request: OverlayRenderRequest) -> OverlayBitmap? { bitmap }
    }

    private func preparedFrame(with overlays: [any VideoOverlay]) async throws -> VideoImage {
        let sink = FrameSink(format: .rgba)
        let player = MoviePlayer(source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: sink)
        player.shouldAutoplay = false
        for overlay in overlays { player.overlays.add(overlay) }
        try await player.prepareToPlay()
        return try #require(sink.latestFrame())
    }

    @Test("an opaque red square shows red where it is and the movie elsewhere")
    func opaqueSquare() async throws {
        let frame = try await preparedFrame(with: [try Square(.red, at: 100, 60)])
        #expect(frame.color(atX: 120, y: 80).isClose(to: .red, tolerance: 30))
        // Outside the square: the movie's white and blue bars.
        #expect(frame.color(atX: 20, y: 80).isClose(to: .white, tolerance: 30))
        #expect(frame.color(atX: 300, y: 80).isClose(to: .blue, tolerance: 30))
    }

    @Test("opacity blends; z-order decides which overlay is on top")
    func opacityAndOrder() async throws {
        // Over the white bar (x 0-45): half-transparent black gives mid grey.
        let frame = try await preparedFrame(with: [
            try Square(.black, at: 2, 100, opacity: 0.5),
            try Square(.green, at: 150, 60, zOrder: 2),
            try Square(.red, at: 170, 60, zOrder: 1),
        ])
        let grey = frame.color(atX: 20, y: 120)
        #expect(grey.isClose(to: RGBAColor(red: 128, green: 128, blue: 128), tolerance: 30), "\(grey)")
        // Green (z 2) over red (z 1) where they overlap (x 170-190), red beyond.
        #expect(frame.color(atX: 180, y: 80).isClose(to: .green, tolerance: 40))
        #expect(frame.color(atX: 200, y: 80).isClose(to: .red, tolerance: 40))
    }

    @Test("overlays can be removed; the list reports them bottom first")
    func list() throws {
        let player = MoviePlayer(source: URISource(uri: "file:///nowhere.mp4"))
        let top = player.overlays.add(try Square(.red, at: 0, 0, zOrder: 5))
        let bottom = player.overlays.add(try Square(.green, at: 0, 0, zOrder: -1))
        #expect(player.overlays.all.map(\.id) == [bottom, top])
        #expect(player.overlays.remove(top))
        #expect(!player.overlays.remove(top))
        #expect(player.overlays.all.map(\.id) == [bottom])
    }

    @Test("placement resolves anchors, offsets and fractions")
    func placement() {
        let frame = VideoSize(width: 320, height: 240)
        let natural = VideoSize(width: 40, height: 20)
        #expect(OverlayPlacement.absolute(x: 5, y: 6).rectangle(in: frame, natural: natural) == (5, 6, 40, 20))
        let corner = OverlayPlacement(anchor: .bottomRight, x: .pixels(10), y: .pixels(10))
        #expect(corner.rectangle(in: frame, natural: natural) == (270, 210, 40, 20))
        let banner = OverlayPlacement(anchor: .bottom, width: .fraction(0.5))
        #expect(banner.rectangle(in: frame, natural: natural) == (80, 160, 160, 80))
        let centred = OverlayPlacement(anchor: .center)
        #expect(centred.rectangle(in: frame, natural: natural) == (140, 110, 40, 20))
    }

    @Test("a bitmap needs width * height * 4 bytes")
    func bitmapSize() {
        #expect(throws: MediaError.self) { try OverlayBitmap(width: 2, height: 2, rgba: [0, 0, 0]) }
        #expect(throws: MediaError.self) { try OverlayBitmap(width: 0, height: 2, color: .red) }
    }
}
