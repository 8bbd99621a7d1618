import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// The thumbnail generator on clips whose frames carry their numbers in their pixels.
@Suite("Thumbnail generator", .serialized)
struct ThumbnailGeneratorTests {
    /// The time of frame `n` of a 30 fps clip, plus `offset` milliseconds.
    private func time(ofFrame n: Int, plus offset: Int = 0) -> Duration {
        .nanoseconds(Int64(n) * 1_000_000_000 / 30) + .milliseconds(offset)
    }

    /// A generator with one pipeline unless told otherwise: the suite runs beside playback tests
    /// that time real frames, and needs no more decoding threads than what it checks.
    private func generator(_ clip: TestMedia.Clip, maximumSize: VideoSize? = nil, pipelines: Int = 1) async throws
        -> ThumbnailGenerator
    {
        ThumbnailGenerator(
            source: FileSource(url: try await TestMedia.url(for: clip)), maximumSize: maximumSize, pipelines: pipelines)
    }

    @Test("an exact thumbnail shows the frame on screen at the time asked for")
    func exactFrame() async throws {
        let generator = try await generator(TestMedia.numbered)
        for frame in [0, 1, 9, 10, 17, 33, 59] {
            for offset in [0, 20] {
                let image = try await generator.image(at: time(ofFrame: frame, plus: offset), option: .exact)
                #expect(FrameNumber.read(image) == frame, "frame \(frame) + \(offset) ms")
                #expect(image.presentationTime == time(ofFrame: frame), "frame \(frame) + \(offset) ms")
                #expect(image.format == .rgba && image.width == 320 && image.height == 240)
            }
        }
        await generator.shutdown()
    }

    @Test("a keyframe thumbnail shows the keyframe at or before the time, and its time")
    func keyframe() async throws {
        let generator = try await generator(TestMedia.numbered)
        for frame in [0, 9, 10, 27, 59] {
            let image = try await generator.image(at: time(ofFrame: frame, plus: 5), option: .nearestKeyFrame)
            let keyframe = frame / 10 * 10  // the clip has a keyframe every 10 frames
            #expect(FrameNumber.read(image) == keyframe, "frame \(frame)")
            #expect(image.presentationTime == time(ofFrame: keyframe), "frame \(frame)")
        }
        await generator.shutdown()
    }

    @Test("with sound in the file, a keyframe thumbnail still lands on the video keyframe")
    func keyframeWithAudio() async throws {
        let generator = try await generator(TestMedia.numberedWithAudio)
        for frame in [15, 27, 44] {
            let image = try await generator.image(at: time(ofFrame: frame, plus: 5), option: .nearestKeyFrame)
            #expect(FrameNumber.read(image) == frame / 10 * 10, "frame \(frame)")
            #expect(image.presentationTime == time(ofFrame: frame / 10 * 10), "frame \(frame)")
        }
        await generator.shutdown()
    }

    @Test("a keyframe thumbnail decodes one picture, with sound in the file too")
    func keyframeDecodesOnePicture() async throws {
        for clip in [TestMedia.numbered, TestMedia.numberedWithAudio] {
            let generator = try await generator(clip)
            _ = try await generator.image(at: .milliseconds(100), option: .nearestKeyFrame)  // opens the pipeline
            let before = generator.picturesDecoded
            for frame in [19, 38, 55] {
                _ = try await generator.image(at: time(ofFrame: frame), option: .nearestKeyFrame)
            }
            #expect(generator.picturesDecoded - before == 3, "\(clip.pipeline.suffix(40))")
            await generator.shutdown()
        }
    }

    @Test("the size fits the maximum by the display aspect ratio: square and non-square pixels")
    func sizes() async throws {
        let bars = try await generator(TestMedia.numbered, maximumSize: VideoSize(width: 100, height: 100))
        let small = try await bars.image(at: .zero)
        #expect(small.width == 100 && small.height == 75)
        await bars.shutdown()
        // 200x100 stored with 2:1 pixels: 400x100 shown; fitted into 200x200, 200x50.
        let wide = try await generator(TestMedia.anamorphic, maximumSize: VideoSize(width: 200, height: 200))
        let anamorphic = try await wide.image(at: .zero)
        #expect(anamorphic.width == 200 && anamorphic.height == 50)
        await wide.shutdown()
        // Without a maximum: the display size, never the stored one.
        let full = try await generator(TestMedia.anamorphic)
        let shown = try await full.image(at: .zero)
        #expect(shown.width == 400 && shown.height == 100)
        await full.shutdown()
    }

    @Test("a rotated movie's thumbnail is upright, fitted after turning")
    func rotated() async throws {
        let generator = ThumbnailGenerator(
            source: FileSource(url: try await TestMedia.portraitBars()),
            maximumSize: VideoSize(width: 120, height: 120),
            pipelines: 1)
        let image = try await generator.image(at: .milliseconds(500))
        #expect(image.width == 90 && image.height == 120)
        // Turned a quarter clockwise: the bars' top row (white ... blue) is the right-hand column.
        #expect(image.color(atX: 86, y: 4).isClose(to: .white, tolerance: 40))
        #expect(image.color(atX: 86, y: 116).isClose(to: .blue, tolerance: 40))
        await generator.shutdown()
    }

    @Test("a batch returns one result per time, in completion order, each frame right")
    func batch() async throws {
        let generator = try await generator(TestMedia.numbered, pipelines: 2)
        let frames = [50, 3, 27, 3, 44, 12, 59, 0, 31]
        var seen: [Duration: Int] = [:]
        for await result in generator.images(at: frames.map { time(ofFrame: $0) }, option: .exact) {
            let image = try #require(result.image, "\(result)")
            let frame = try #require(FrameNumber.read(image))
            #expect(result.requestedTime == time(ofFrame: frame))
            #expect(result.actualTime == result.requestedTime)
            seen[result.requestedTime, default: 0] += 1
        }
        #expect(seen.values.reduce(0, +) == frames.count)
        #expect(seen[time(ofFrame: 3)] == 2)
        await generator.shutdown()
    }

    @Test("cancelling a batch of 50 in the middle: every time finishes once, the rest cancelled, promptly")
    func cancelMidway() async throws {
        let generator = try await generator(TestMedia.numbered, pipelines: 2)
        let times = (0..<50).map { time(ofFrame: ($0 * 7) % 60, plus: 3) }
        let results = generator.images(at: times, option: .exact)
        var collected: [ThumbnailResult] = []
        let clock = ContinuousClock()
        var cancelledAt: ContinuousClock.Instant?
        for await result in results {
            collected.append(result)
            if collected.count == 10 {
                cancelledAt = clock.now
                results.cancel()
            }
        }
        let afterCancel = clock.now - cancelledAt!
        #expect(collected.count == 50)
        #expect(
            collected.map(\.requestedTime).sorted() == times.sorted(), "every time once, none lost or reported twice")
        let cancelled = collected.filter { $0.error?.code == .cancelled }
        #expect(cancelled.count >= 30, "\(cancelled.count) cancelled")
        #expect(collected.allSatisfy { $0.image != nil || $0.error?.code == .cancelled })
        #expect(afterCancel < .seconds(1), "the rest finished \(afterCancel) after the cancel")
        await generator.shutdown()
    }

    @Test("cancelling the task that iterates cancels the batch; the iteration still gets every time")
    func taskCancellation() async throws {
        let generator = try await generator(TestMedia.numbered, pipelines: 2)
        let times = (0..<50).map { time(ofFrame: ($0 * 11) % 60) }
        let task = Task {
            var results: [ThumbnailResult] = []
            for await result in generator.images(at: times, option: .exact) {
                results.append(result)
                if results.count == 5 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return results
        }
        let results = await task.value
        #expect(results.count == 50)
        #expect(results.filter { $0.error?.code == .cancelled }.count >= 30)
        await generator.shutdown()
    }

    @Test("a batch of 10,000 times holds only a few images while its reader is slow")
    func bounded() async throws {
        let generator = try await generator(TestMedia.numbered)
        let results = generator.images(
            at: Array(repeating: .milliseconds(500), count: 10_000), option: .nearestKeyFrame)
        var iterator = results.makeAsyncIterator()
        for _ in 0..<20 {
            _ = await iterator.next()
            #expect(results.imagesHeld <= results.capacity)
        }
        #expect(results.capacity <= 8)
        results.cancel()
        var rest = 0
        while await iterator.next() != nil { rest += 1 }
        #expect(rest == 10_000 - 20)
        await generator.shutdown()
    }

    @Test("bad times: negative is invalidArgument, past the end is the last frame with its time")
    func badTimes() async throws {
        let generator = try await generator(TestMedia.numbered)
        await #expect(throws: MediaError.self) { try await generator.image(at: .milliseconds(-1)) }
        do {
            _ = try await generator.image(at: .milliseconds(-1))
        } catch {
            #expect(error.code == .invalidArgument)
        }
        for option in [SeekOption.exact, .nearestKeyFrame] {
            let last = try await generator.image(at: .seconds(60), option: option)
            let expected = option == .exact ? 59 : 50
            #expect(FrameNumber.read(last) == expected, "\(option)")
            #expect(last.presentationTime == time(ofFrame: expected), "\(option)")
        }
        // The batch goes on around a bad time.
        var codes: [String] = []
        for await result in generator.images(at: [.milliseconds(-5), .milliseconds(100), .seconds(9)]) {
            codes.append(result.error?.code.name ?? "ok")
        }
        #expect(codes.sorted() == ["invalidArgument", "ok", "ok"])
        await generator.shutdown()
    }

    @Test("a movie without video fails each request with noVideo")
    func audioOnly() async throws {
        let generator = try await generator(TestMedia.audioOnly)
        for await result in generator.images(at: [.zero, .milliseconds(500)]) {
            #expect(result.error?.code == .noVideo, "\(result)")
        }
        await generator.shutdown()
    }

    @Test("unreadable, damaged and cut files give each request the typed error")
    func badFiles() async throws {
        let inputs = try await BadInputs.make()
        for input in inputs.cases where !input.failsDuringPlayback {
            let generator = ThumbnailGenerator(source: FileSource(path: input.path), timeout: .seconds(5), pipelines: 1)
            var codes: [String] = []
            for await result in generator.images(at: [.zero, .milliseconds(300)]) {
                codes.append(result.error?.code.name ?? "ok")
            }
            #expect(codes == [input.expectedCode, input.expectedCode], "\(input.name)")
            await generator.shutdown()
        }
    }

    @Test("a file cut in half (moov first) still gives the pictures it has; the rest fail typed")
    func truncated() async throws {
        let inputs = try await BadInputs.make()
        let cut = try #require(inputs.cases.first { $0.failsDuringPlayback })
        let generator = ThumbnailGenerator(source: FileSource(path: cut.path), timeout: .seconds(5), pipelines: 1)
        let early = try await generator.image(at: .milliseconds(100))
        #expect(early.width == 320)
        do {
            _ = try await generator.image(at: .milliseconds(1900))
            Issue.record("a picture past the cut")
        } catch {
            #expect(error.code == .truncatedMovie, "\(error)")
        }
        await generator.shutdown()
    }

    @Test("PNG and JPEG: encoded, written, and decoded back to the same frame")
    func encoding() async throws {
        let generator = try await generator(TestMedia.numbered)
        let image = try await generator.image(at: time(ofFrame: 21))
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["t.png", "t.jpg"] {
            let file = folder.appendingPathComponent(name)
            try image.write(to: file)
            let raw = folder.appendingPathComponent(name + ".rgb")
            let result = try await ProcessRunner.run(
                "gst-launch-1.0",
                [
                    "-q", "filesrc", "location=\(file.path)", "!", "decodebin", "!", "videoconvert", "!",
                    "video/x-raw,format=RGB", "!", "filesink", "location=\(raw.path)",
                ])
            #expect(result.status == 0, "\(result.standardError)")
            let bytes = [UInt8](try Data(contentsOf: raw))
            #expect(bytes.count == 320 * 240 * 3)
            let number = FrameNumber.read(width: 320) { x, y in
                let offset = (y * 320 + x) * 3
                return RGBAColor(red: bytes[offset], green: bytes[offset + 1], blue: bytes[offset + 2])
            }
            #expect(number == 21, "\(name)")
        }
        #expect(throws: MediaError.self) { try image.jpegData(quality: 0) }
        #expect(try image.pngData().prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        await generator.shutdown()
    }

    @Test("thumbnails of a movie served over HTTP, exact and keyframe, with the source's settings applied")
    func overHTTP() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: try await TestMedia.url(for: TestMedia.numberedWithAudio), to: folder.appendingPathComponent("m.mp4"))
        let server = try await LoopbackHTTPServer(serving: folder)
        let settings = SourceSettings(properties: ["user-agent": .string("thumbnail-test")])
        let generator = ThumbnailGenerator(
            source: URISource(uri: server.url("m.mp4"), settings: settings), pipelines: 1)
        var frames: [Int?] = []
        for await result in generator.images(at: [time(ofFrame: 44), time(ofFrame: 13)], option: .exact) {
            frames.append(result.image.flatMap(FrameNumber.read))
        }
        #expect(frames.sorted { ($0 ?? -1) < ($1 ?? -1) } == [13, 44])
        let keyframe = try await generator.image(at: time(ofFrame: 37), option: .nearestKeyFrame)
        #expect(FrameNumber.read(keyframe) == 30)
        await generator.shutdown()
    }

    @Test("a reader slower than the pipelines' idle time still gets every result")
    func slowReader() async throws {
        let generator = try await generator(TestMedia.numbered)
        let results = generator.images(at: (0..<12).map { time(ofFrame: $0 * 5) }, option: .nearestKeyFrame)
        var iterator = results.makeAsyncIterator()
        _ = await iterator.next()
        // Longer than a worker stays idle (3 s): the batch, held back by its reader, must keep one.
        try await Task.sleep(for: .seconds(4))
        var count = 1
        while let result = await iterator.next() {
            #expect(result.image != nil, "\(result)")
            count += 1
        }
        #expect(count == 12)
        await generator.shutdown()
    }

    @Test("thumbnail pipelines, threads, encoders and files are all gone after shutdown (leaks tracer)")
    func leaveNothingBehind() async throws {
        let clip = try await TestMedia.url(for: TestMedia.numberedWithAudio).path
        let result = try await ProcessRunner.run(
            BuildProducts.executable("engine-leak-check"), ["thumbnails", "2", clip],
            environment: ["GST_TRACERS": "leaks", "GST_DEBUG": "GST_TRACER:7", "GST_DEBUG_NO_COLOR": "1"])
        #expect(result.status == 0, "\(result.standardError.suffix(2000))")
        let summaryLine = try #require(result.standardOutput.split(separator: "\n").last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(summaryLine.utf8)) as? [String: Any])
        #expect(summary["thumbnailThreads"] as? Int == 0, "\(summary)")
        #expect((summary["newDescriptors"] as? [String])?.isEmpty == true, "files or sockets left open: \(summary)")
        let alive = result.standardError.split(separator: "\n").filter {
            $0.contains("object-alive, type-name=(string)") && !$0.contains("%s")
        }
        #expect(alive.isEmpty, "leaked: \(alive.map { $0.split(separator: "object-alive, ").last ?? "" })")
    }

    @Test("cancelling one batch never cancels another batch of the same generator")
    func cancelOnlyItsOwn() async throws {
        let generator = try await generator(TestMedia.numbered, pipelines: 2)
        for _ in 0..<5 {
            let doomed = generator.images(at: (0..<30).map { time(ofFrame: $0 * 2) }, option: .exact)
            let kept = generator.images(at: (0..<12).map { time(ofFrame: $0 * 5) }, option: .nearestKeyFrame)
            async let keptResults: [ThumbnailResult] = {
                var results: [ThumbnailResult] = []
                for await result in kept { results.append(result) }
                return results
            }()
            var seen = 0
            for await _ in doomed {
                seen += 1
                if seen == 3 { doomed.cancel() }
            }
            let results = await keptResults
            #expect(seen == 30)
            #expect(
                results.count == 12 && results.allSatisfy { $0.image != nil }, "\(results.filter { $0.image == nil })")
        }
        await generator.shutdown()
    }
}
