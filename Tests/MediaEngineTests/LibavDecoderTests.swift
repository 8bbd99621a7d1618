import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// The engine's own decoders (`meh264dec`, `meh265dec`): libavcodec behind GStreamer, handing
/// their pictures over without copying them. Their output is checked against avdec_h264's and
/// avdec_h265's, run by gst-launch-1.0 in another process on the same file.
@Suite("The engine's H.264 and H.265 decoders")
struct LibavDecoderTests {
    /// I420 pictures packed row after row (no padding), with the strides they came with.
    final class PackedFrames: Sendable {
        struct Frame: Sendable {
            let width: Int
            let height: Int
            let bytes: Data
            let strides: [Int]
            let presentationTime: Duration?
        }

        private let frames = Locked<[Frame]>([])

        var all: [Frame] { frames.withLock { $0 } }

        func sink() -> FrameSink {
            FrameSink(format: .i420, synchronized: false) { [self] frame in
                let packed = Self.pack(frame)
                frames.withLock { $0.append(packed) }
            }
        }

        private static func pack(_ frame: borrowing VideoFrame) -> Frame {
            var bytes = Data()
            var strides: [Int] = []
            for plane in 0..<frame.planeCount {
                let stride = frame.stride(ofPlane: plane)
                let rows = frame.rows(ofPlane: plane)
                let width = plane == 0 ? frame.width : (frame.width + 1) / 2
                frame.withBytes(ofPlane: plane) { span in
                    span.withUnsafeBytes { plane in
                        for row in 0..<rows {
                            bytes.append(contentsOf: plane[row * stride..<row * stride + width])
                        }
                    }
                }
                strides.append(stride)
            }
            return Frame(
                width: frame.width, height: frame.height, bytes: bytes, strides: strides,
                presentationTime: frame.presentationTime)
        }
    }

    /// Writes the raw frames it gets to a file: an output that does not read GstVideoMeta.
    struct RawFileSink: VideoSink {
        static var capabilities: VideoSinkCapabilities { [] }
        let path: String
        func makeOutput() throws(MediaError) -> VideoOutput {
            .element(ElementDescription(factory: "filesink", properties: ["location": .string(path), "sync": false]))
        }
    }

    /// avdec_h264's (or avdec_h265's) I420 pictures of an MP4 clip, back to back. Widths here are
    /// multiples of 8, so GStreamer's default I420 layout has no padding and the bytes are the
    /// packed pictures. Other formats are converted to I420 by `videoconvert`, as in the engine.
    private func avdecPictures(of clip: URL, codec: String = "h264") async throws -> Data {
        let result = try await ProcessRunner.runForData(
            "gst-launch-1.0",
            [
                "-q", "filesrc", "location=\(clip.path)", "!", "qtdemux", "!", "\(codec)parse", "!", "avdec_\(codec)",
                "!", "videoconvert", "!", "video/x-raw,format=I420", "!", "fdsink",
            ])
        try #require(result.status == 0, "\(result.standardError)")
        return result.standardOutput
    }

    private func playToEnd(_ clip: URL, into sink: any VideoSink) async throws -> MoviePlayer {
        let player = MoviePlayer(source: FileSource(url: clip), videoSink: sink, audioOutput: .discard)
        let recorder = EventRecorder(player)
        try await player.play()
        let (reason, error) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        #expect(error == nil)
        return player
    }

    @Test("H.264 is decoded by the engine's decoder; other codecs by GStreamer's; no video, no decoder")
    func chosenForH264Only() async throws {
        let h264 = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: NullVideoSink(),
            audioOutput: .discard)
        try await h264.prepareToPlay()
        #expect(h264.videoDecoder == "meh264dec")

        let vp8 = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.barsWebM)), videoSink: NullVideoSink(),
            audioOutput: .discard)
        try await vp8.prepareToPlay()
        let vp8Decoder = try #require(vp8.videoDecoder)
        #expect(vp8Decoder.contains("vp8"))

        let sound = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.audioOnly)), videoSink: NullVideoSink(),
            audioOutput: .discard)
        try await sound.prepareToPlay()
        #expect(sound.videoDecoder == nil)
    }

    @Test(
        "only pictures that were keyframes going in are keyframes coming out, reordered or not",
        arguments: [
            (TestMedia.numbered, 60, Set([0, 10, 20, 30, 40, 50])),  // H.264, a keyframe every 10 (meh264dec)
            (TestMedia.ballWithBFrames, 45, Set([0, 15, 30])),  // H.264 with three B-frames between references
            (TestMedia.barsWebM, 30, Set([0])),  // VP8, one keyframe (vp8dec)
        ])
    func keyframes(clip: TestMedia.Clip, frames: Int, keyframes: Set<Int>) async throws {
        let recorder = FrameRecorder()
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: clip)), videoSink: recorder.sink(synchronized: false),
            audioOutput: .discard)
        let events = EventRecorder(player)
        try await player.play()
        _ = try await events.waitForFinish()
        let records = recorder.records
        #expect(records.count == frames)
        let marked = Set(records.enumerated().filter { $0.element.isKeyframe }.map(\.offset))
        #expect(marked == keyframes, "\(marked.sorted())")
    }

    @Test("its pictures are avdec_h264's bit for bit, in order through B-frames, and handed over uncopied")
    func sameAsAvdec() async throws {
        let clip = try await TestMedia.url(for: TestMedia.ballWithBFrames)
        let reference = try await avdecPictures(of: clip)
        let frames = PackedFrames()
        let player = try await playToEnd(clip, into: frames.sink())
        #expect(player.videoDecoder == "meh264dec")

        let ours = frames.all
        let pictureSize = 328 * 184 * 3 / 2
        #expect(reference.count == 45 * pictureSize)
        #expect(ours.count == 45)
        #expect(ours.allSatisfy { $0.width == 328 && $0.height == 184 })
        let mismatch = ours.indices.first { index in
            ours[index].bytes != reference.subdata(in: index * pictureSize..<(index + 1) * pictureSize)
        }
        #expect(mismatch == nil, "picture \(mismatch ?? -1) differs from avdec_h264's")
        let times = ours.compactMap(\.presentationTime)
        #expect(times.count == 45 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        // libav's own rows, wider than the picture (aligned for its SIMD code): the frames sink
        // got the decoder's pictures themselves, not copies in GStreamer's default layout.
        #expect(ours.allSatisfy { $0.strides[0] > 328 }, "strides \(ours.first?.strides ?? [])")
    }

    @Test("H.265 pictures are avdec_h265's bit for bit, through B-frames, handed over uncopied", arguments: [8, 10])
    func hevcSameAsAvdec(bits: Int) async throws {
        let clip = try await TestMedia.url(for: bits == 8 ? TestMedia.ballHEVC : TestMedia.ballHEVC10)
        let (width, height, count) = bits == 8 ? (328, 184, 45) : (320, 240, 20)
        let reference = try await avdecPictures(of: clip, codec: "h265")
        let frames = PackedFrames()
        let player = try await playToEnd(clip, into: frames.sink())
        #expect(player.videoDecoder == "meh265dec")
        let ours = frames.all
        let pictureSize = width * height * 3 / 2
        #expect(ours.count == count && reference.count == count * pictureSize)
        let mismatch = ours.indices.first { index in
            ours[index].bytes != reference.subdata(in: index * pictureSize..<(index + 1) * pictureSize)
        }
        #expect(mismatch == nil, "picture \(mismatch ?? -1) differs from avdec_h265's")
        if bits == 8 {
            // libav's own rows: the frames sink got the decoder's pictures themselves.
            #expect(ours.allSatisfy { $0.strides[0] > width }, "strides \(ours.first?.strides ?? [])")
        }
    }

    @Test("interlaced pictures are avdec_h264's too")
    func interlaced() async throws {
        let clip = try await TestMedia.url(for: TestMedia.interlacedBall)
        let reference = try await avdecPictures(of: clip)
        let frames = PackedFrames()
        _ = try await playToEnd(clip, into: frames.sink())
        let pictureSize = 320 * 240 * 3 / 2
        let ours = frames.all
        #expect(ours.count == 20 && reference.count == 20 * pictureSize)
        let mismatch = ours.indices.first { index in
            ours[index].bytes != reference.subdata(in: index * pictureSize..<(index + 1) * pictureSize)
        }
        #expect(mismatch == nil, "picture \(mismatch ?? -1) differs from avdec_h264's")
    }

    @Test("an output that does not read video metadata gets the same pictures, copied to the default layout")
    func copiedForPlainOutputs() async throws {
        let clip = try await TestMedia.url(for: TestMedia.ballWithBFrames)
        let reference = try await avdecPictures(of: clip)
        let scratch = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = scratch.appendingPathComponent("pictures.i420")
        _ = try await playToEnd(clip, into: RawFileSink(path: output.path))
        let written = try Data(contentsOf: output)
        #expect(written.count == reference.count)
        #expect(written == reference)
    }

    @Test("a stream that changes size mid-way: every picture of both parts, each at its size")
    func sizeChange() async throws {
        let small = try Data(contentsOf: try await TestMedia.url(for: TestMedia.smallBallStream))
        let large = try Data(contentsOf: try await TestMedia.url(for: TestMedia.largeBallStream))
        let scratch = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let joined = scratch.appendingPathComponent("joined.h264")
        try (small + large).write(to: joined)
        let frames = PackedFrames()
        let player = try await playToEnd(joined, into: frames.sink())
        #expect(player.videoDecoder == "meh264dec")
        let sizes = frames.all.map { "\($0.width)x\($0.height)" }
        #expect(sizes == Array(repeating: "160x120", count: 20) + Array(repeating: "320x240", count: 20))
    }

    /// The ball with B-frames with the middle of the file (the mdat's pictures) scrambled and the
    /// moov at the start intact, written into `scratch`: pictures libavcodec conceals, saying so.
    static func damagedMovie(in scratch: URL) async throws -> URL {
        var bytes = try Data(contentsOf: try await TestMedia.url(for: TestMedia.ballWithBFrames))
        for offset in stride(from: bytes.count * 2 / 5, to: bytes.count * 3 / 5, by: 7) { bytes[offset] ^= 0x5A }
        let damaged = scratch.appendingPathComponent("damaged.mp4")
        try bytes.write(to: damaged)
        return damaged
    }

    @Test("damaged access units are skipped or reported, never a crash or a hang")
    func damagedStream() async throws {
        let scratch = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let damaged = try await Self.damagedMovie(in: scratch)
        let frames = PackedFrames()
        let player = MoviePlayer(source: FileSource(url: damaged), videoSink: frames.sink(), audioOutput: .discard)
        let recorder = EventRecorder(player)
        try? await player.play()
        let (reason, error) = try await recorder.waitForFinish()
        // Either it played through, concealing what it could not decode, or it said why it stopped.
        #expect((reason == .playbackEnded && error == nil) || (reason == .playbackError && error != nil))
        #expect(!frames.all.isEmpty)
    }
}
