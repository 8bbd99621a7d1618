import FileSource
import MediaEngine
import MediaTestSupport
import Testing

/// The helpers for common work on frames: one frame in N, each frame's index, RGBA copies and
/// pixels of any delivered format, durations in seconds. Checked on real frames of the SMPTE
/// bars (320x240: white, yellow, cyan, green, magenta, red, blue, 45.7 pixels each) and of the
/// numbered bars, whose frame numbers are read from their pixels.
@Suite("Frame conveniences")
struct FrameConveniencesTests {
    /// The middle of each of the seven bars, in the top two thirds of the picture, and its colour.
    static let bars: [(x: Int, color: RGBAColor)] = [
        (22, .white), (68, RGBAColor(red: 255, green: 255, blue: 0)), (114, RGBAColor(red: 0, green: 255, blue: 255)),
        (160, .green), (205, RGBAColor(red: 255, green: 0, blue: 255)), (251, .red), (297, .blue),
    ]

    /// What a frame callback saw: the frame's own pixel reads and its RGBA copy.
    struct Seen: Sendable {
        let index: Int
        let number: Int?
        let colors: [RGBAColor]
        let rgba: VideoImage
    }

    @Test("a frames sink with every: 5 delivers frames 0, 5, ... 55 of 60, indexed 0 to 11, and playback ends normally")
    func everyNthFrame() async throws {
        let seen = Locked<[(index: Int, number: Int?)]>([])
        let sink = FrameSink(synchronized: false, every: 5) { frame in
            let record = (index: frame.index, number: FrameNumber.read(frame))
            seen.withLock { $0.append(record) }
        }
        #expect(sink.every == 5)
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: sink)
        let recorder = EventRecorder(player)
        try await player.play()
        let (reason, error) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded && error == nil)
        let frames = seen.withLock { $0 }
        #expect(frames.map(\.number) == Array(stride(from: 0, to: 60, by: 5)))
        #expect(frames.map(\.index) == Array(0..<12))
        #expect(sink.framesDelivered == 12)
    }

    @Test("the index counts on through a seek, while every-Nth counting starts again at the frame the seek lands on")
    func indexAcrossSeek() async throws {
        let seen = Locked<[(index: Int, number: Int?)]>([])
        let sink = FrameSink(synchronized: false, every: 5) { frame in
            let record = (index: frame.index, number: FrameNumber.read(frame))
            seen.withLock { $0.append(record) }
        }
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: sink)
        let recorder = EventRecorder(player)
        player.shouldAutoplay = false
        try await player.prepareToPlay()  // frame 0
        try await player.seek(to: .milliseconds(1100))  // frame 33: the count starts again there
        try await player.play()  // then 38, 43, 48, 53, 58
        _ = try await recorder.waitForFinish()
        let frames = seen.withLock { $0 }
        #expect(frames.map(\.number) == [0, 33, 38, 43, 48, 53, 58])
        #expect(frames.map(\.index) == Array(0..<7))
    }

    @Test("every N outside 1 to 2^32-1 is refused when the player builds the output")
    func everyOutOfRange() async throws {
        for every in [0, -1, FrameConsumer.largestEvery + 1] {
            let player = MoviePlayer(
                source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)),
                videoSink: FrameSink(every: every))
            await #expect("every: \(every)") {
                try await player.prepareToPlay()
            } throws: {
                ($0 as? MediaError)?.code == .invalidArgument
            }
        }
    }

    @Test(
        "color(atX:y:) and makeRGBAImage() give the bars' colours for every delivered format",
        arguments: PixelFormat.allCases)
    func rgbaFromEveryFormat(format: PixelFormat) async throws {
        let seen = Locked<Seen?>(nil)
        let sink = FrameSink(format: format) { frame in
            let colors = Self.bars.map { frame.color(atX: $0.x, y: 60) }
            let record = Seen(index: frame.index, number: nil, colors: colors, rgba: frame.makeRGBAImage())
            seen.withLock { $0 = $0 ?? record }
        }
        let player = MoviePlayer(source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: sink)
        player.shouldAutoplay = false
        try await player.prepareToPlay()
        let first = try #require(seen.withLock { $0 })
        #expect(first.index == 0)
        let rgba = first.rgba
        #expect(rgba.format == .rgba && rgba.width == 320 && rgba.height == 240)
        #expect(rgba.strides == [1280] && rgba.planes.count == 1 && rgba.planes[0].count == 1280 * 240)
        #expect(rgba.presentationTime == .zero)
        for (bar, color) in zip(Self.bars, first.colors) {
            #expect(color.isClose(to: bar.color, tolerance: 24), "\(format) frame at x \(bar.x): \(color)")
            let converted = rgba.color(atX: bar.x, y: 60)
            #expect(converted.isClose(to: bar.color, tolerance: 24), "\(format) RGBA copy at x \(bar.x): \(converted)")
        }
        // The latest frame (a copy in the sink's format) converts to the same pixels.
        let latest = try #require(sink.latestFrame())
        #expect(latest.format == format)
        #expect(latest.convertedToRGBA() == rgba)
    }

    @Test("Duration.inSeconds gives seconds as a Double, and a frame's time in seconds")
    func durationInSeconds() async throws {
        #expect(Duration.milliseconds(1500).inSeconds == 1.5)
        #expect(Duration.seconds(-2).inSeconds == -2)
        #expect(Duration.nanoseconds(1).inSeconds == 1e-9)
        #expect(Duration.zero.inSeconds == 0)
        let times = Locked<[Double]>([])
        let sink = FrameSink(synchronized: false) { frame in
            let seconds = frame.presentationTime?.inSeconds ?? -1
            times.withLock { $0.append(seconds) }
        }
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: sink)
        let recorder = EventRecorder(player)
        try await player.play()
        _ = try await recorder.waitForFinish()
        let seen = times.withLock { $0 }
        #expect(seen.count == 60)
        // Frame 30 of a 30 fps clip starts at one second.
        #expect(abs(seen[30] - 1.0) < 1e-6)
    }
}
