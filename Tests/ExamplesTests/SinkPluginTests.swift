import Foundation
import MediaTestSupport
import Testing

/// Sink plugins loaded at run time by `mediaplay --plugin-dir`: the barcode example built as a
/// shared library and used, and the files a plugin folder must refuse.
@Suite("Sink plugins", .serialized)
struct SinkPluginTests {
    /// 60 frames alternating white and black (videotestsrc's blink), so each column of a
    /// barcode is known.
    static let blink = TestMedia.Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=60 pattern=blink ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc speed-preset=ultrafast key-int-max=10 ! h264parse ! mp4mux faststart=true ! filesink location=LOCATION
            """)

    /// Builds the barcode plugin into a new folder with `Examples/custom-sink/build-plugin.sh`.
    static func buildPlugin(_ flags: [String] = []) async throws -> URL {
        let folder = try TestMedia.scratchDirectory()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/custom-sink/build-plugin.sh").standardizedFileURL.path
        let result = try await ProcessRunner.run(script, [folder.path, BuildProducts.directory.path] + flags)
        guard result.status == 0 else {
            throw TestMediaError(message: "build-plugin.sh failed: \(result.standardError)")
        }
        return folder
    }

    /// Compiles `source` into a sink plugin beside the barcode example (`build-plugin.sh` with the
    /// file as one more source), against the engine as this test run built it.
    static func compilePlugin(with source: String) async throws -> ProcessRunner.Result {
        let folder = try TestMedia.scratchDirectory()
        let file = folder.appendingPathComponent("Extra.swift")
        try Data(source.utf8).write(to: file)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/custom-sink/build-plugin.sh").standardizedFileURL.path
        return try await ProcessRunner.run(script, [folder.path, BuildProducts.directory.path, file.path])
    }

    /// The RGB bytes of a PNG, decoded by GStreamer.
    static func rgb(ofPNG file: URL) async throws -> [UInt8] {
        let raw = file.deletingPathExtension().appendingPathExtension("rgb")
        let result = try await ProcessRunner.run(
            "/usr/bin/gst-launch-1.0",
            [
                "-q", "filesrc", "location=\(file.path)", "!", "pngdec", "!", "videoconvert", "!",
                "video/x-raw,format=RGB", "!", "filesink", "location=\(raw.path)",
            ])
        guard result.status == 0 else { throw TestMediaError(message: "pngdec: \(result.standardError)") }
        return [UInt8](try Data(contentsOf: raw))
    }

    @Test("mediaplay loads the barcode plugin: one column per frame, in each frame's average colour")
    func barcode() async throws {
        let plugins = try await Self.buildPlugin()
        let clip = try await TestMedia.url(for: Self.blink)
        let output = try TestMedia.scratchDirectory().appendingPathComponent("barcode.png")
        let listed = try await ProcessRunner.run(
            BuildProducts.executable("mediaplay"), ["--plugin-dir", plugins.path, "--list-sinks"])
        #expect(listed.standardError.contains("plugin libbarcode-sink.so: loaded (barcode)"), "\(listed.standardError)")
        #expect(listed.standardOutput.contains("barcode    frames"))
        let played = try await ProcessRunner.run(
            BuildProducts.executable("mediaplay"),
            ["--plugin-dir", plugins.path, "--sink", "barcode:file=\(output.path),height=4", clip.path])
        #expect(played.status == 0, "\(played.standardError)")
        let header = [UInt8](try Data(contentsOf: output).prefix(24))
        let width = header[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = header[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 60 && height == 4)
        let pixels = try await Self.rgb(ofPNG: output)
        // The first row: black, white, black, ... (blink's frames, each averaged), every row alike.
        let reds = (0..<60).map { pixels[$0 * 3] }
        #expect(reds.enumerated().allSatisfy { $0.offset % 2 == 0 ? $0.element < 50 : $0.element > 150 }, "\(reds)")
        #expect(pixels.count == 60 * 4 * 3 && Array(pixels[(3 * 60 * 3)...]) == Array(pixels[..<(60 * 3)]))
    }

    @Test("a plugin folder's files that are not plugins for this engine are refused, one by one, and the rest load")
    func refusals() async throws {
        let folder = try await Self.buildPlugin()
        let wrong = try await Self.buildPlugin(["-D", "WRONG_ABI"])
        try FileManager.default.moveItem(
            at: wrong.appendingPathComponent("libbarcode-sink.so"), to: folder.appendingPathComponent("libwrong-abi.so")
        )
        try Data("not a library".utf8).write(to: folder.appendingPathComponent("libjunk.so"))
        let empty = folder.appendingPathComponent("empty.swift")
        try Data("public func nothing() {}\n".utf8).write(to: empty)
        let built = try await ProcessRunner.run(
            "/usr/bin/env",
            ["swiftc", "-emit-library", empty.path, "-o", folder.appendingPathComponent("libno-entry.so").path])
        #expect(built.status == 0, "\(built.standardError)")
        let result = try await ProcessRunner.run(
            BuildProducts.executable("mediaplay"), ["--plugin-dir", folder.path, "--list-sinks"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.contains("mediaplay: plugin libbarcode-sink.so: loaded (barcode)"), "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("mediaplay: plugin libjunk.so: refused: not a shared library") }, "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("mediaplay: plugin libno-entry.so: refused: not a sink plugin") }, "\(lines)")
        #expect(
            lines.contains(
                "mediaplay: plugin libwrong-abi.so: refused: built for sink plugin ABI 4; this engine loads ABI 3 (rebuild it)"
            ), "\(lines)")
        #expect(result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("barcode ") }.count == 1)
    }

    @Test("capabilities declared on a sink's instance, which nothing would read, do not compile; on its type they do")
    func instanceCapabilitiesDoNotCompile() async throws {
        let onInstance = """
            import MediaEngineCore

            struct InstanceCapabilitiesSink: VideoSink {
                var capabilities: VideoSinkCapabilities { .window }
                func makeOutput() throws(MediaError) -> VideoOutput { .frames(FrameConsumer { _ in }) }
            }

            struct ConformedInExtension {}
            extension ConformedInExtension: VideoSink {
                var capabilities: VideoSinkCapabilities { .external }
                func makeOutput() throws(MediaError) -> VideoOutput { .frames(FrameConsumer { _ in }) }
            }
            """
        let refused = try await Self.compilePlugin(with: onInstance)
        #expect(refused.status != 0)
        for name in ["InstanceCapabilitiesSink", "ConformedInExtension"] {
            #expect(
                refused.standardError.contains("type '\(name)' does not conform to protocol 'VideoSink'"),
                "\(refused.standardError)")
        }
        #expect(
            refused.standardError.contains("candidate operates on an instance, not a type as required"),
            "\(refused.standardError)")
        // The same sinks with `static` added compile.
        let onType = onInstance.replacingOccurrences(of: "    var capabilities", with: "    static var capabilities")
        let built = try await Self.compilePlugin(with: onType)
        #expect(built.status == 0, "\(built.standardError)")
    }

    @Test("a missing plugin folder is a typed error")
    func missingFolder() async throws {
        let result = try await ProcessRunner.run(
            BuildProducts.executable("mediaplay"), ["--plugin-dir", "/nonexistent/plugins", "--list-sinks"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("fileNotFound"), "\(result.standardError)")
    }
}
