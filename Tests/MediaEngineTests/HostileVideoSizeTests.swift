import FileSource
import MediaEngine
import MediaTestSupport
import Testing

/// Sizes a file alone can ask for that the scaler cannot build as they come: interlaced pictures
/// fitted a few rows tall, outputs of a few pixels, absurd pixel aspect ratios. Every case must
/// end in a clean run (every frame delivered at the size asked, a sensible natural size) or a
/// typed error, never a crash. Before the scaler clamped its sizes, these died with
/// `gst_video_resampler_init: assertion 'out_size != 0'` and `free(): invalid size`.
@Suite("Hostile video sizes")
struct HostileVideoSizeTests {
    /// What a run to the end gave.
    struct Run {
        let reason: FinishReason
        let error: MediaError?
        let frames: Int
        let naturalSize: VideoSize
        let lastFrame: VideoImage?
    }

    /// Plays `clip` into a frames sink of `size` (RGBA), as fast as it decodes, to the end.
    private func run(
        _ clip: TestMedia.Clip, size: VideoSize?, mode: ScalingMode = .aspectFit, format: PixelFormat = .rgba
    ) async throws -> Run {
        let sink = FrameSink(format: format, size: size, synchronized: false)
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: clip)), videoSink: sink, audioOutput: .discard)
        player.scalingMode = mode
        let recorder = EventRecorder(player)
        try? await player.play()
        let (reason, error) = try await recorder.waitForFinish(within: .seconds(20))
        return Run(
            reason: reason, error: error, frames: sink.framesDelivered, naturalSize: player.naturalSize,
            lastFrame: sink.latestFrame())
    }

    /// Expects a clean run of `frames` frames of `size`.
    private func expectClean(_ run: Run, frames: Int, size: VideoSize, _ note: String) {
        #expect(run.reason == .playbackEnded, "\(note): \(String(describing: run.error))")
        #expect(run.frames == frames, "\(note): \(run.frames) of \(frames) frames")
        if let image = run.lastFrame {
            #expect(image.width == size.width && image.height == size.height, "\(note): \(image.width)x\(image.height)")
        } else {
            Issue.record("\(note): no frame")
        }
    }

    /// Expects the SMPTE bars stretched over the whole frame (``ScalingMode/fill``): the last
    /// frame is a P-frame, right only if the decoder kept its reference pictures.
    private func expectBars(_ image: VideoImage?) {
        guard let image else { return }
        for (x, color) in [(20, RGBAColor.white), (300, .blue)] {
            let seen = image.color(atX: x, y: 20)
            #expect(seen.isClose(to: color, tolerance: 40), "(\(x), 20) is \(seen), not \(color)")
        }
    }

    @Test(
        "an interlaced movie with a 100:1 display aspect, fitted about 3 rows tall, plays to the end",
        arguments: ScalingMode.allCases)
    func interlacedHundredToOne(mode: ScalingMode) async throws {
        let size = VideoSize(width: 320, height: 240)
        let run = try await run(TestMedia.interlacedHundredToOne, size: size, mode: mode)
        expectClean(run, frames: 15, size: size, "\(mode)")
        // 18000x180 as shown, wider than any sink allocates: clamped to 16384 wide, same shape.
        #expect(run.naturalSize == VideoSize(width: 16384, height: 164), "\(mode)")
    }

    @Test("an interlaced movie into frames of a few pixels plays to the end, in every mode")
    func interlacedIntoTinyFrames() async throws {
        for side in 1...5 {
            for mode in ScalingMode.allCases {
                let size = VideoSize(width: side, height: side)
                let run = try await run(TestMedia.interlacedBall, size: size, mode: mode)
                expectClean(run, frames: 20, size: size, "\(size) \(mode)")
            }
        }
        for size in [
            VideoSize(width: 320, height: 1), VideoSize(width: 1, height: 240), VideoSize(width: 7, height: 3),
        ] {
            let run = try await run(TestMedia.interlacedBall, size: size, mode: .aspectFit)
            expectClean(run, frames: 20, size: size, "\(size)")
        }
    }

    @Test("a progressive movie into frames of a few pixels plays to the end, in every mode")
    func progressiveIntoTinyFrames() async throws {
        for size in [VideoSize(width: 1, height: 1), VideoSize(width: 3, height: 3), VideoSize(width: 1, height: 240)] {
            for mode in ScalingMode.allCases {
                let run = try await run(TestMedia.wideBars, size: size, mode: mode)
                expectClean(run, frames: 30, size: size, "\(size) \(mode)")
            }
        }
    }

    @Test(
        "absurd pixel aspect ratios: every frame, a natural size a sink can allocate",
        arguments: [
            // Stored 320x240, shown 20,971,200x240: clamped to 16384 wide, and at least a row high.
            (TestMedia.extremelyWidePixels, VideoSize(width: 16384, height: 1)),
            // Stored 320x240, shown 0.005 pixels wide: clamped to a column 240 high.
            (TestMedia.extremelyTallPixels, VideoSize(width: 1, height: 240)),
        ])
    func absurdPixelAspectRatios(clip: TestMedia.Clip, naturalSize: VideoSize) async throws {
        let natural = try await run(clip, size: nil)
        expectClean(natural, frames: 15, size: VideoSize(width: 320, height: 240), "movie's own size")
        #expect(natural.naturalSize == naturalSize)
        // Frames asked for at the (clamped) natural size, as a sink that shows the movie as it
        // is meant to be seen does: every frame, at that size.
        for format in [PixelFormat.rgba, .i420] {
            let clamped = try await run(clip, size: naturalSize, format: format)
            expectClean(clamped, frames: 15, size: naturalSize, "the natural size, \(format)")
        }
        for mode in ScalingMode.allCases {
            let size = VideoSize(width: 320, height: 240)
            let run = try await run(clip, size: size, mode: mode)
            expectClean(run, frames: 15, size: size, "\(mode)")
            if mode == .fill { expectBars(run.lastFrame) }
        }
    }
}
