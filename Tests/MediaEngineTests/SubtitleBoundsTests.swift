import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// Subtitle files at and past the parser's bounds (``SubtitleParser/maximumFileSize``,
/// ``SubtitleParser/maximumCueCount``, ``SubtitleParser/maximumLineLength``), made in a scratch
/// folder: each loads or fails typed, quickly, without growing the process.
@Suite("Subtitle files at their bounds")
struct SubtitleBoundsTests {
    static func error(_ body: () throws(MediaError) -> [TextCue]) -> MediaError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    static func elapsed(_ body: () -> Void) -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        body()
        return clock.now - start
    }

    @Test("a 15 MB line, and a 100 MB file, are tooLarge before they are decoded")
    func longLine() throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = folder.appendingPathComponent("line.srt")
        var bytes = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: 15 << 20)
        try Data(bytes).write(to: line)
        var failure: MediaError?
        let time = Self.elapsed {
            failure = Self.error { () throws(MediaError) in try SubtitleParser.cues(contentsOf: line) }
        }
        #expect(failure?.code == .tooLarge, "\(String(describing: failure))")
        #expect(failure?.message.contains("line 3 of the subtitles is longer than 65536 bytes") == true)
        #expect(time < .seconds(1), "\(time)")
        // 100 MB (sparse): refused by its size, unread.
        let huge = folder.appendingPathComponent("huge.srt")
        _ = FileManager.default.createFile(atPath: huge.path, contents: Data("1\n".utf8))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let refused = Self.error { () throws(MediaError) in try SubtitleParser.cues(contentsOf: huge) }
        #expect(refused?.code == .tooLarge, "\(String(describing: refused))")
        // A line of exactly the limit is read.
        let longest =
            Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8)
            + [UInt8](repeating: UInt8(ascii: "b"), count: SubtitleParser.maximumLineLength) + [0x0D, 0x0A]
        let cues = try SubtitleParser.cues(parsing: longest)
        #expect(cues.first?.text.utf8.count == SubtitleParser.maximumLineLength)
    }

    @Test("700,000 tiny cues in 16 MB are tooLarge at once; 16,000 load, in time linear in their count")
    func manyCues() throws {
        let cue = Array("0:00.000-->0:01.000\nx\n\n".utf8)
        var many = Array("WEBVTT\n\n".utf8)
        many.reserveCapacity(8 + cue.count * 700_000)
        for _ in 0..<700_000 { many += cue }
        #expect(many.count < SubtitleParser.maximumFileSize)
        var failure: MediaError?
        let refusal = Self.elapsed {
            failure = Self.error { () throws(MediaError) in try SubtitleParser.cues(parsing: many) }
        }
        #expect(failure?.code == .tooLarge, "\(String(describing: failure))")
        #expect(failure?.message == "the subtitles hold more than 200000 cues")
        #expect(refusal < .seconds(1), "\(refusal)")
        // Cues with tags and entities, in SRT with CRLF: sixteen times the cues take about sixteen
        // times as long (3.9-6.5x for each fourfold step, measured alone), where a quadratic step
        // would take 256. The faster of two runs of each, a bound of 64x, and no absolute bound:
        // the suite shares two cores with other tests and builds.
        func srt(_ count: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            for index in 0..<count {
                bytes += Array("\(index + 1)\r\n00:00:01,000 --> 00:00:02,000\r\n<i>a &amp; b</i>\r\n\r\n".utf8)
            }
            return bytes
        }
        var cues: [TextCue] = []
        func fastest(_ bytes: [UInt8]) -> Duration {
            (0..<2).map { _ in Self.elapsed { cues = (try? SubtitleParser.cues(parsing: bytes)) ?? [] } }.min()!
        }
        let smallTime = fastest(srt(1_000))
        #expect(cues.count == 1_000)
        let largeTime = fastest(srt(16_000))
        #expect(cues.count == 16_000)
        #expect(cues.last?.text == "a & b")
        #expect(largeTime < smallTime * 64, "1,000 cues: \(smallTime), 16,000: \(largeTime)")
    }

    @Test("two million empty lines are read one at a time")
    func emptyLines() throws {
        var bytes = [UInt8](repeating: 0x0A, count: 2_000_000)
        bytes += Array("1\n00:00:01,000 --> 00:00:02,000\nlast\n".utf8)
        var cues: [TextCue] = []
        let time = Self.elapsed { cues = (try? SubtitleParser.cues(parsing: bytes)) ?? [] }
        #expect(cues.map(\.text) == ["last"])
        #expect(time < .seconds(5), "\(time)")
    }

    @Test("invalid UTF-8 is invalidSubtitles, never a trap")
    func invalidUTF8() {
        let timing = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8)
        let bad: [[UInt8]] = [
            [0xFF, 0xFE],  // not UTF-8 at all (UTF-16's byte order mark)
            [0xC3],  // a sequence cut at the end of the file
            [0xC0, 0xAF],  // an overlong '/'
            [0xED, 0xA0, 0x80],  // a UTF-16 surrogate
            [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
            [0x80, 0x80, 0x80],  // continuation bytes alone
            Array("caf".utf8) + [0xE9],  // Latin-1
        ]
        for tail in bad {
            for bytes in [timing + tail, [0xEF, 0xBB, 0xBF] + timing + tail + [0x0A], tail + [0x0A] + timing] {
                let failure = Self.error { () throws(MediaError) in try SubtitleParser.cues(parsing: bytes) }
                #expect(failure?.code == .invalidSubtitles, "\(tail): \(String(describing: failure))")
            }
        }
        // A BOM cut short is not one: not UTF-8 either.
        #expect(
            Self.error { () throws(MediaError) in try SubtitleParser.cues(parsing: [0xEF, 0xBB]) }?.code
                == .invalidSubtitles)
    }
}
