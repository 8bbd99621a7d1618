import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// Image, text and drawn overlays and subtitle files, each on its own: real decoding (GStreamer),
/// real text (Pango), real bad inputs.
@Suite("Overlay kinds")
struct OverlayKindsTests {
    @Test("a PNG keeps its size, colour and transparency; a JPEG decodes too")
    func images() async throws {
        let png = try await ImageOverlay(contentsOf: try await TestMedia.url(for: TestMedia.translucentRedPNG))
        #expect(png.image.size == VideoSize(width: 40, height: 30))
        #expect(Array(png.image.pixels.prefix(4)) == [255, 0, 0, 128])
        let jpeg = try await ImageOverlay(contentsOf: try await TestMedia.url(for: TestMedia.barsJPEG))
        #expect(jpeg.image.size == VideoSize(width: 64, height: 48))
        // The first SMPTE bar is white (JPEG is lossy: close, not exact).
        let first = RGBAColor(
            red: jpeg.image.pixels[4 * 64 + 4], green: jpeg.image.pixels[4 * 64 + 5],
            blue: jpeg.image.pixels[4 * 64 + 6], alpha: jpeg.image.pixels[4 * 64 + 7])
        #expect(first.isClose(to: RGBAColor(red: 192, green: 192, blue: 192), tolerance: 70), "\(first)")
    }

    @Test("a missing, empty, garbage or truncated picture is a typed error")
    func badImages() async throws {
        let folder = try TestMedia.scratchDirectory()
        let garbage = folder.appendingPathComponent("garbage.png")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: garbage)
        let empty = folder.appendingPathComponent("empty.png")
        try Data().write(to: empty)
        let png = try Data(contentsOf: try await TestMedia.url(for: TestMedia.translucentRedPNG))
        let truncated = folder.appendingPathComponent("truncated.png")
        try png.prefix(png.count / 2).write(to: truncated)
        let cases: [(URL, MediaError.Code)] = [
            (folder.appendingPathComponent("missing.png"), .fileNotFound), (empty, .emptyFile), (folder, .isDirectory),
            (garbage, .notAnImage), (truncated, .notAnImage),
        ]
        for (url, code) in cases {
            let start = ContinuousClock.now
            do {
                _ = try await ImageOverlay(contentsOf: url)
                Issue.record("\(url.lastPathComponent) was accepted")
            } catch {
                #expect(error.code == code, "\(url.lastPathComponent): \(error)")
            }
            // A typed error from the decoder, never its 5-second timeout giving up (GStreamer's
            // typefinding alone took up to 3 s here while the whole suite ran on 2 cores).
            #expect(ContinuousClock.now - start < .milliseconds(4500).scaled)
        }
    }

    @Test("text is drawn with Pango in its colour, with an outline and a box")
    func text() throws {
        let style = TextStyle(
            font: "Sans Bold 30", color: .white, outline: .init(color: .black, width: 3),
            background: RGBAColor(red: 0, green: 0, blue: 255, alpha: 255))
        let overlay = try TextOverlay(text: "Hello", style: style)
        let bitmap = try #require(
            try overlay.bitmap(for: OverlayRenderRequest(frameSize: VideoSize(width: 320, height: 240), time: nil)))
        #expect(bitmap.width > 60 && bitmap.width < 200 && bitmap.height > 30 && bitmap.height < 80, "\(bitmap.size)")
        var colors: [String: Int] = [:]
        for index in stride(from: 0, to: bitmap.pixels.count, by: 4) {
            let pixel = RGBAColor(
                red: bitmap.pixels[index], green: bitmap.pixels[index + 1], blue: bitmap.pixels[index + 2],
                alpha: bitmap.pixels[index + 3])
            if pixel.isClose(to: .white, tolerance: 10) { colors["white", default: 0] += 1 }
            if pixel.isClose(to: .black, tolerance: 10) { colors["black", default: 0] += 1 }
            if pixel.isClose(to: RGBAColor(red: 0, green: 0, blue: 255), tolerance: 10) {
                colors["box", default: 0] += 1
            }
        }
        #expect(
            colors["white", default: 0] > 50 && colors["black", default: 0] > 50 && colors["box", default: 0] > 500,
            "\(colors)")
        // A longer text is wider; the same text comes back as the same bitmap (drawn once).
        let again = try overlay.bitmap(
            for: OverlayRenderRequest(frameSize: VideoSize(width: 320, height: 240), time: nil))
        #expect(again === bitmap)
        overlay.text = "Hello, world"
        let wider = try #require(
            try overlay.bitmap(for: OverlayRenderRequest(frameSize: VideoSize(width: 320, height: 240), time: nil)))
        #expect(wider.width > bitmap.width)
    }

    @Test("an empty font description or broken markup is refused")
    func badText() {
        #expect(throws: MediaError.self) { _ = try TextOverlay(text: "x", style: TextStyle(font: "  ")) }
        do {
            _ = try TextOverlay(text: "<b>open", style: TextStyle(isMarkup: true))
            Issue.record("broken markup was accepted")
        } catch {
            #expect(error.code == .overlayFailed)
        }
        do {
            _ = try TextOverlay(text: "x", style: TextStyle(font: ""))
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }

    @Test("SRT and WebVTT captions become cues; garbage and missing files are typed errors")
    func subtitles() async throws {
        let srt = """
            1
            00:00:00,500 --> 00:00:01,000
            <i>First</i> line
            second line

            2
            00:00:01,250 --> 00:00:02,000
            Fish &amp; chips

            """
        let cues = try SubtitleParser.cues(parsing: Array(srt.utf8))
        #expect(
            cues == [
                TextCue(start: .milliseconds(500), end: .seconds(1), text: "First line\nsecond line"),
                TextCue(start: .milliseconds(1250), end: .seconds(2), text: "Fish & chips"),
            ])
        let vtt =
            "WEBVTT - captions\r\n\r\nNOTE made by hand\r\n\r\nintro\r\n00:00.100 --> 00:00.900 align:start\r\n<v Ann>Hi</v>\r\n\r\n01:00:00.000 --> 01:00:01.500\r\nLater\r\n"
        let vttCues = try SubtitleParser.cues(parsing: Array(vtt.utf8))
        #expect(
            vttCues == [
                TextCue(start: .milliseconds(100), end: .milliseconds(900), text: "Hi"),
                TextCue(start: .seconds(3600), end: .milliseconds(3_601_500), text: "Later"),
            ])
        let folder = try TestMedia.scratchDirectory()
        let garbage = folder.appendingPathComponent("garbage.srt")
        try Data([0xFF, 0xFE, 0x00, 0x41, 0x80]).write(to: garbage)
        let prose = folder.appendingPathComponent("prose.vtt")
        try Data("just some words\nno timings here\n".utf8).write(to: prose)
        let backwards = folder.appendingPathComponent("backwards.srt")
        try Data("1\n00:00:02,000 --> 00:00:01,000\nx\n".utf8).write(to: backwards)
        for (url, code) in [
            (garbage, MediaError.Code.invalidSubtitles), (prose, .invalidSubtitles), (backwards, .invalidSubtitles),
            (folder.appendingPathComponent("none.srt"), .fileNotFound),
        ] {
            do {
                _ = try TextOverlay(subtitlesAt: url)
                Issue.record("\(url.lastPathComponent) was accepted")
            } catch {
                #expect(error.code == code, "\(url.lastPathComponent): \(error)")
            }
        }
        // The overlay shows each cue only during its time.
        let overlay = try TextOverlay(cues: cues)
        #expect(overlay.text(at: .milliseconds(400)) == nil)
        #expect(overlay.text(at: .milliseconds(500)) == "First line\nsecond line")
        #expect(overlay.text(at: .milliseconds(1100)) == nil)
        #expect(overlay.text(at: .milliseconds(1999)) == "Fish & chips")
    }

    @Test("a drawing overlay draws on demand; invalidate draws again")
    func drawing() throws {
        let count = Counter()
        let overlay = try DrawingOverlay(size: VideoSize(width: 10, height: 10)) { canvas, _ in
            count.increment()
            canvas.fill(ViewRect(x: 2, y: 2, width: 4, height: 4), with: .blue)
        }
        let request = OverlayRenderRequest(frameSize: VideoSize(width: 320, height: 240), time: nil)
        let first = try #require(try overlay.bitmap(for: request))
        #expect(try overlay.bitmap(for: request) === first)
        #expect(count.value == 1)
        #expect(Array(first.pixels[(3 * 10 + 3) * 4..<(3 * 10 + 3) * 4 + 4]) == [0, 0, 255, 255])
        #expect(first.pixels[3] == 0)  // outside the square: transparent
        overlay.invalidate()
        _ = try overlay.bitmap(for: request)
        #expect(count.value == 2)
        #expect(throws: MediaError.self) { _ = try DrawingOverlay(size: VideoSize(width: 0, height: 5)) { _, _ in } }
    }

    @Test("overlays can be brought to the front and sent to the back")
    func reorder() throws {
        let overlays = MoviePlayer(source: URISource(uri: "file:///nowhere.mp4")).overlays
        let image = try OverlayBitmap(width: 1, height: 1, color: .red)
        let a = overlays.add(ImageOverlay(image: image))
        let b = overlays.add(ImageOverlay(image: image))
        let c = overlays.add(ImageOverlay(image: image, zOrder: 1))
        #expect(overlays.all.map(\.id) == [a, b, c])
        #expect(overlays.bringToFront(a))
        #expect(overlays.all.map(\.id) == [b, a, c])  // in front of b, still under c's higher z-order
        #expect(overlays.sendToBack(a))
        #expect(overlays.all.map(\.id) == [a, b, c])
        #expect(overlays[c] != nil)
        overlays.remove(c)
        #expect(overlays[c] == nil && !overlays.bringToFront(c))
    }
}

/// A thread-safe counter for closures the engine calls.
final class Counter: Sendable {
    private let count = Locked(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
