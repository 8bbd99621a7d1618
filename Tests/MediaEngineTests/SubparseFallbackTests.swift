import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// Subtitle files ``SubtitleParser`` does not read (SAMI, MicroDVD, MPL2, LRC, SRT in Latin-1),
/// read through GStreamer's `subparse` by ``TextOverlay/init(subtitlesAt:style:placement:)``:
/// their cues, a SAMI caption drawn on real frames in its time only, and the subtitle fuzz
/// regressions refused or read, typed, promptly.
@Suite("Subtitle files through subparse")
struct SubparseFallbackTests {
    /// Writes `bytes` into a scratch file named `name` and reads it as a caption overlay.
    static func cues(_ name: String, _ bytes: [UInt8]) throws -> [TextCue] {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return try TextOverlay(subtitlesAt: url).cues
    }

    @Test("SAMI, MicroDVD, MPL2, LRC and a Latin-1 SRT become cues")
    func formats() throws {
        let sami = """
            <SAMI><HEAD><TITLE>t</TITLE></HEAD><BODY>
            <SYNC Start=1000><P Class=ENCC>Hello SAMI
            <SYNC Start=2000><P Class=ENCC>&nbsp;
            <SYNC Start=3000><P Class=ENCC>Second line
            <SYNC Start=4000><P Class=ENCC>&nbsp;
            </BODY></SAMI>

            """
        #expect(
            try Self.cues("a.smi", Array(sami.utf8)) == [
                TextCue(start: .seconds(1), end: .seconds(2), text: "Hello SAMI"),
                TextCue(start: .seconds(3), end: .seconds(4), text: "Second line"),
            ])
        // MicroDVD counts frames, at subparse's default 24000/1001 fps: frame 24 is 1.001 s.
        let microDVD = try Self.cues("a.sub", Array("{24}{48}Hello MicroDVD\n{72}{96}Two|lines\n".utf8))
        #expect(microDVD.map(\.text) == ["Hello MicroDVD", "Two\nlines"])
        #expect(microDVD.first?.start == .milliseconds(1001))
        #expect(microDVD.first?.end == .milliseconds(2002))
        // MPL2 counts tenths of a second.
        #expect(
            try Self.cues("a.mpl", Array("[10][20]Hello MPL2\n[30][45]Second\n".utf8)) == [
                TextCue(start: .seconds(1), end: .seconds(2), text: "Hello MPL2"),
                TextCue(start: .seconds(3), end: .milliseconds(4500), text: "Second"),
            ])
        // LRC lines have a start only: each shows for SubtitleDelivery's default 4 seconds.
        let lrc = try Self.cues("a.lrc", Array("[ti:song]\n[00:01.00]Hello LRC\n[00:03.50]Second\n".utf8))
        #expect(lrc.map(\.text) == ["Hello LRC", "Second"])
        #expect(lrc.map(\.start) == [.seconds(1), .milliseconds(3500)])
        // SRT in Latin-1: "Café crème", "À bientôt".
        let latin1: [UInt8] =
            Array("1\r\n00:00:01,000 --> 00:00:02,000\r\nCaf".utf8) + [0xE9] + Array(" cr".utf8) + [0xE8]
            + Array("me\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\n".utf8) + [0xC0] + Array(" bient".utf8) + [0xF4]
            + Array("t\r\n".utf8)
        #expect(
            try Self.cues("latin1.srt", latin1) == [
                TextCue(start: .seconds(1), end: .seconds(2), text: "Café crème"),
                TextCue(start: .seconds(3), end: .seconds(4), text: "À bientôt"),
            ])
    }

    @Test("SRT and WebVTT in UTF-8 stay with SubtitleParser; what neither reads is invalidSubtitles")
    func choice() throws {
        #expect(SubtitleParser.recognises(Array("1\n00:00:01,000 --> 00:00:02,000\nx\n".utf8)))
        #expect(SubtitleParser.recognises(Array("WEBVTT\n".utf8)))
        #expect(!SubtitleParser.recognises(Array("{1}{2}x\n".utf8)))
        #expect(!SubtitleParser.recognises([0x31, 0x0A, 0xE9, 0x2D, 0x2D, 0x3E]))
        // An SRT error is SubtitleParser's, not hidden by a second parser.
        do {
            _ = try Self.cues("backwards.srt", Array("1\n00:00:02,000 --> 00:00:01,000\nx\n".utf8))
            Issue.record("a backwards cue was accepted")
        } catch let error as MediaError {
            #expect(error.code == .invalidSubtitles)
            #expect(!error.message.contains("subparse"), "\(error)")
        }
        do {
            _ = try Self.cues("prose.txt", Array("just some words\nno timings here\n".utf8))
            Issue.record("prose was accepted")
        } catch let error as MediaError {
            // subparse refuses it, or (prose that happens to look like one of its formats) finds no cue.
            #expect(error.code == .invalidSubtitles, "\(error)")
        }
    }

    @Test("every subtitle fuzz regression loads or fails typed, within a second, through the fallback too")
    func fuzzRegressions() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("FuzzRegressions/Inputs/Subtitles")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        #expect(!files.isEmpty)
        // The same bytes with SubtitleParser's markers broken (no `-->`, no WEBVTT, not UTF-8), so
        // that subparse reads each too.
        let scratch = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var inputs = files
        for file in files {
            var bytes = try [UInt8](Data(contentsOf: file))
            for index in bytes.indices where bytes[index] == UInt8(ascii: ">") { bytes[index] = 0xBB }
            let copy = scratch.appendingPathComponent("latin1-" + file.lastPathComponent)
            try Data(bytes).write(to: copy)
            inputs.append(copy)
        }
        for input in inputs {
            let clock = ContinuousClock()
            let start = clock.now
            do {
                _ = try TextOverlay(subtitlesAt: input)
            } catch {
                #expect([.invalidSubtitles, .tooLarge].contains(error.code), "\(input.lastPathComponent): \(error)")
            }
            #expect(clock.now - start < .seconds(1), "\(input.lastPathComponent)")
        }
    }

    @Test("a SAMI caption is drawn on the frames of its time only")
    func drawnOnFrames() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("caption.smi")
        try Data(
            """
            <SAMI><BODY>
            <SYNC Start=500><P>CAPTION
            <SYNC Start=1000><P>&nbsp;
            </BODY></SAMI>
            """.utf8
        ).write(to: url)
        // A green box behind the text, as in OverlayCompositingTests' timed caption.
        let caption = try TextOverlay(subtitlesAt: url, style: OverlayCompositingTests.captionStyle)
        try await OverlayCompositingTests.expectCaptionShownFromHalfToOneSecond(caption)
    }
}
