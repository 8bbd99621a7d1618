import FileSource
import MediaEngine
import MediaTestSupport
import Testing

/// The overlays' blend, sample by sample, on the formats the decoders produce. A frame with
/// overlays is compared with the same frame without: every luma and chroma sample must be the
/// movie's where no overlay covers it, and the blend's formula where one does, so a row or
/// column off, a wrong chroma position, a skipped or half-copied row, or a wrong order of
/// overlapping overlays each shows. The decoder's pictures are read-only, so the scaler copies
/// them while it blends; a scaled frame is the scaler's own, blended where it is.
@Suite("Overlay blend, sample by sample")
struct OverlayBlendExactnessTests {
    struct Picture: VideoOverlay {
        let bitmap: OverlayBitmap
        var placement: OverlayPlacement
        var opacity: Double
        var zOrder: Int

        func bitmap(for request: OverlayRenderRequest) -> OverlayBitmap? { bitmap }
    }

    /// Colours far from the bars' and from each other.
    static let palette: [RGBAColor] = [
        RGBAColor(red: 255, green: 128, blue: 0), RGBAColor(red: 20, green: 20, blue: 120),
        RGBAColor(red: 240, green: 240, blue: 240), RGBAColor(red: 0, green: 90, blue: 40),
    ]

    /// A picture whose colour and alpha change from pixel to pixel, with rows and columns that are
    /// fully transparent (rows 5-8, columns 20-23) and alpha 255 and 0 among the rest.
    static func pattern(width: Int, height: Int) throws -> OverlayBitmap {
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let color = palette[(x / 3 + y / 2) % palette.count]
                let transparent = (5...8).contains(y) || (20...23).contains(x)
                let alpha = transparent ? 0 : [255, 0, 128, 37, 200, 90, 255, 1][(x * 3 + y * 5) % 8]
                let offset = (y * width + x) * 4
                rgba[offset] = color.red
                rgba[offset + 1] = color.green
                rgba[offset + 2] = color.blue
                rgba[offset + 3] = UInt8(alpha)
            }
        }
        return try OverlayBitmap(width: width, height: height, rgba: rgba)
    }

    /// The overlays of the test, bottom first: a 45x33 picture at an odd position at 70 %
    /// opacity; a 31x27 one overlapping it, above it; one half outside the top left corner; two
    /// at half opacity past the bottom right of a 320x240 frame and of a 401x301 one (the second
    /// wholly outside the first); and one opaque 8x8 square of each palette colour, at even
    /// positions, from which the colours' own samples are read.
    static func overlays(in space: OverlayPlacement.Space) throws -> [(
        picture: Picture, x: Int, y: Int, width: Int, height: Int
    )] {
        var overlays: [(Picture, Int, Int, Int, Int)] = []
        func add(_ bitmap: OverlayBitmap, x: Int, y: Int, opacity: Double) {
            let picture = Picture(
                bitmap: bitmap, placement: .absolute(x: x, y: y, in: space), opacity: opacity, zOrder: overlays.count)
            overlays.append((picture, x, y, bitmap.width, bitmap.height))
        }
        add(try pattern(width: 45, height: 33), x: 101, y: 61, opacity: 0.7)
        add(try pattern(width: 31, height: 27), x: 130, y: 80, opacity: 1)
        add(try pattern(width: 25, height: 19), x: -11, y: -7, opacity: 1)
        add(try pattern(width: 29, height: 23), x: 305, y: 227, opacity: 0.5)
        add(try pattern(width: 29, height: 23), x: 390, y: 290, opacity: 0.5)
        for (index, color) in palette.enumerated() {
            add(try OverlayBitmap(width: 8, height: 8, color: color), x: 200 + index * 16, y: 20, opacity: 1)
        }
        return overlays
    }

    static func preparedFrame(format: PixelFormat, size: VideoSize?, overlays: [Picture]) async throws -> VideoImage {
        let sink = FrameSink(format: format, size: size)
        let player = MoviePlayer(source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: sink)
        player.shouldAutoplay = false
        for overlay in overlays { player.overlays.add(overlay) }
        try await player.prepareToPlay()
        let frame = try #require(sink.latestFrame())
        await player.shutdown()
        return frame
    }

    /// The blend's formula: (source * alpha + destination * (255 - alpha)) / 255, rounded, with
    /// the picture's alpha scaled by its opacity first.
    static func mix(_ source: Int, _ destination: Int, alpha: Int, opacity: Double) -> Int {
        let scale = Int(min(max(opacity, 0), 1) * 256 + 0.5)
        let a = scale >= 256 ? alpha : (alpha * scale) >> 8
        return (source * a + destination * (255 - a) + 127) / 255
    }

    @Test(
        "every sample is the movie's or the blend's",
        arguments: [
            (PixelFormat.i420, nil), (.nv12, nil),
            // Scaled (320x240 into 401x301): the scaler's own frame, odd sized, blended in place.
            (.i420, VideoSize(width: 401, height: 301)),
        ] as [(PixelFormat, VideoSize?)])
    func exact(format: PixelFormat, size: VideoSize?) async throws {
        let overlays = try Self.overlays(in: size == nil ? .movie : .view)
        let movie = try await Self.preparedFrame(format: format, size: size, overlays: [])
        let blended = try await Self.preparedFrame(format: format, size: size, overlays: overlays.map(\.picture))
        let (frameWidth, frameHeight) = (blended.width, blended.height)
        #expect(frameWidth == size?.width ?? 320 && frameHeight == size?.height ?? 240)
        #expect(movie.width == frameWidth && movie.height == frameHeight && movie.planes.count == blended.planes.count)

        // The sample of each palette colour, read from its opaque square.
        func sample(_ plane: Int, _ x: Int, _ y: Int, in image: VideoImage) -> Int {
            if format == .nv12 && plane > 0 {
                return Int(image.planes[1][y * image.strides[1] + x * 2 + plane - 1])
            }
            return Int(image.planes[plane][y * image.strides[plane] + x])
        }
        let paletteSamples = Self.palette.indices.map { index in
            (0..<3).map { plane in
                plane == 0
                    ? sample(0, 202 + index * 16, 22, in: blended)
                    : sample(plane, (202 + index * 16) / 2, 11, in: blended)
            }
        }
        // The bitmap's pixel at (x, y) of overlay `index`: palette entry and alpha.
        func pixel(_ overlay: Int, _ x: Int, _ y: Int) -> (color: Int, alpha: Int) {
            let pixels = overlays[overlay].picture.bitmap.pixels
            let width = overlays[overlay].width
            let alpha = Int(pixels[(y * width + x) * 4 + 3])
            let color = Self.palette.firstIndex {
                $0.red == pixels[(y * width + x) * 4] && $0.green == pixels[(y * width + x) * 4 + 1]
                    && $0.blue == pixels[(y * width + x) * 4 + 2]
            }
            return (color ?? 0, alpha)
        }
        // What sample (x, y) of `plane` must be: the movie's, then each overlay covering the
        // frame pixel it is sampled at (chroma: the top left pixel of its 2x2 block), in order.
        func expected(_ plane: Int, _ x: Int, _ y: Int) -> Int {
            var value = sample(plane, x, y, in: movie)
            let (frameX, frameY) = plane == 0 ? (x, y) : (x * 2, y * 2)
            for (index, overlay) in overlays.enumerated() {
                let column = frameX - overlay.x
                let row = frameY - overlay.y
                guard column >= 0, column < overlay.width, row >= 0, row < overlay.height else { continue }
                let (color, alpha) = pixel(index, column, row)
                value = Self.mix(
                    paletteSamples[color][plane], value, alpha: alpha, opacity: overlay.picture.opacity)
            }
            return value
        }
        var mismatches: [String] = []
        var covered = 0
        for plane in 0..<3 {
            let (width, height) =
                plane == 0 ? (frameWidth, frameHeight) : ((frameWidth + 1) / 2, (frameHeight + 1) / 2)
            for y in 0..<height {
                for x in 0..<width {
                    let want = expected(plane, x, y)
                    let got = sample(plane, x, y, in: blended)
                    if want != sample(plane, x, y, in: movie) { covered += 1 }
                    // The overlay's colours come through GStreamer's RGB-to-YUV conversion of
                    // each pixel; one step of rounding either way is allowed.
                    if abs(got - want) > 1 && mismatches.count < 20 {
                        mismatches.append("plane \(plane) (\(x), \(y)): \(got), expected \(want)")
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(format), \(String(describing: size)): \(mismatches)")
        // The overlays changed a good part of what they cover (not a test of nothing).
        #expect(covered > 2000, "\(format): \(covered) samples changed")
    }
}
