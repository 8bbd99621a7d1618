import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// The images sink, checked by decoding the files it writes and reading their frame numbers.
@Suite("Images sink")
struct ImageFileSinkTests {
    /// Decodes a PNG or JPEG with gst-launch-1.0 into raw RGB and reads its frame number.
    private func frameNumber(of file: URL, width: Int = 320, height: Int = 240) async throws -> Int? {
        let raw = file.deletingPathExtension().appendingPathExtension("rgb")
        let decode = file.pathExtension == "png" ? "pngdec" : "jpegdec"
        let result = try await ProcessRunner.run(
            "gst-launch-1.0",
            [
                "-q", "filesrc", "location=\(file.path)", "!", decode, "!", "videoconvert", "!",
                "video/x-raw,format=RGB", "!",
                "filesink", "location=\(raw.path)",
            ])
        guard result.status == 0 else { throw TestMediaError(message: result.standardError) }
        let bytes = [UInt8](try Data(contentsOf: raw))
        return FrameNumber.read(width: width) { x, y in
            let offset = (y * width + x) * 3
            return RGBAColor(red: bytes[offset], green: bytes[offset + 1], blue: bytes[offset + 2])
        }
    }

    private func play(_ sink: ImageFileSink) async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: sink,
            audioOutput: .discard)
        let recorder = EventRecorder(player)
        try await player.play()
        _ = try await recorder.waitForFinish()
    }

    @Test("every Nth frame becomes a PNG, in order")
    func everyNth() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sink = ImageFileSink(folder: folder, format: .png, selection: .everyNthFrame(15))
        try await play(sink)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["frame-00000.png", "frame-00001.png", "frame-00002.png", "frame-00003.png"])
        var numbers: [Int?] = []
        for index in 0..<4 { numbers.append(try await frameNumber(of: sink.file(index))) }
        #expect(numbers == [0, 15, 30, 45])
    }

    @Test("the frames at given times become JPEGs, at a chosen size")
    func atTimes() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sink = ImageFileSink(
            folder: folder, format: .jpeg(quality: 95), selection: .times([.milliseconds(500), .milliseconds(1510)]),
            size: VideoSize(width: 320, height: 240))
        try await play(sink)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["frame-00000.jpg", "frame-00001.jpg"])
        #expect(try await frameNumber(of: sink.file(0)) == 15)
        #expect(try await frameNumber(of: sink.file(1)) == 45)
    }

    @Test("a folder that is not there is a typed error")
    func badFolder() async throws {
        let sink = ImageFileSink(folder: URL(fileURLWithPath: "/nonexistent/folder"), selection: .everyNthFrame(1))
        #expect { try sink.makeOutput() } throws: { ($0 as? MediaError)?.code == .invalidArgument }
        #expect {
            try ImageFileSink(folder: URL(fileURLWithPath: "/tmp"), selection: .everyNthFrame(0)).makeOutput()
        } throws: {
            ($0 as? MediaError)?.code == .invalidArgument
        }
    }
}
