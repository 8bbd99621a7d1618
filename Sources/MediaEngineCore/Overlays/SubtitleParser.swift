import Foundation

/// Reads SubRip (`.srt`) and WebVTT (`.vtt`) captions into ``TextCue``s. The format is told by
/// the content (WebVTT files start with `WEBVTT`), not the name. Styling tags (`<i>`, `<b>`,
/// `<c.red>`, `<v Name>`) are dropped and entities (`&amp;`, `&lt;`, `&gt;`, `&nbsp;`) decoded:
/// what remains is plain text drawn in the overlay's ``TextStyle``.
public enum SubtitleParser {
    /// The largest subtitle file read: 16 MiB, a hundred times a feature film's captions.
    public static let maximumFileSize = 16 << 20
    /// The most cues a file may hold (a feature film has 1,000-3,000; a day of word-by-word live
    /// captions about 100,000).
    public static let maximumCueCount = 200_000
    /// The longest line, in bytes: a caption is drawn on the picture, and a line of 64 KiB is
    /// already far more than fits.
    public static let maximumLineLength = 64 << 10

    /// Reads a subtitle file.
    /// - Parameter url: A file URL.
    /// - Returns: The cues, in the file's order.
    /// - Throws: The file errors (``MediaError/Code/fileNotFound`` and the rest),
    ///   ``MediaError/Code/tooLarge`` for a file over ``maximumFileSize`` or as
    ///   ``cues(parsing:)``, or ``MediaError/Code/invalidSubtitles`` when the content is not SRT
    ///   or WebVTT.
    public static func cues(contentsOf url: URL) throws(MediaError) -> [TextCue] {
        let bytes = try OverlayFile.read(url, kind: "subtitle file", limit: maximumFileSize)
        do {
            return try cues(parsing: bytes)
        } catch {
            throw MediaError(error.code, "\(url.path): \(error.message)")
        }
    }

    /// Whether `bytes` are what this parser reads, SubRip or WebVTT in UTF-8 (a BOM allowed): UTF-8
    /// text that starts with `WEBVTT` or holds a cue timing's `-->`. Other files (SAMI, MicroDVD,
    /// MPL2, LRC, another encoding) are for GStreamer's `subparse` (``TextOverlay/init(subtitlesAt:style:placement:)``).
    /// - Parameter bytes: A subtitle file's content.
    /// - Returns: True when ``cues(parsing:)`` is the parser for them (which may still find errors).
    public static func recognises(_ bytes: [UInt8]) -> Bool {
        var bytes = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        return text.hasPrefix("WEBVTT") || text.contains("-->")
    }

    /// Parses subtitle text, in memory bounded by the text's size: the lines are read one at a
    /// time, never collected.
    /// - Parameter bytes: UTF-8 SRT or WebVTT.
    /// - Returns: The cues.
    /// - Throws: ``MediaError/Code/tooLarge`` for more than ``maximumCueCount`` cues or a line
    ///   longer than ``maximumLineLength`` bytes (both found by a pass over the bytes, before
    ///   anything is decoded); ``MediaError/Code/invalidSubtitles`` for text that is not UTF-8,
    ///   not SRT or WebVTT.
    public static func cues(parsing bytes: [UInt8]) throws(MediaError) -> [TextCue] {
        var bytes = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        try checkBounds(bytes)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw MediaError(.invalidSubtitles, "the subtitles are not UTF-8 text")
        }
        var lines = LineReader(text: text)
        var header = lines
        let isWebVTT =
            header.next().map { $0 == "WEBVTT" || $0.hasPrefix("WEBVTT ") || $0.hasPrefix("WEBVTT\t") } ?? false
        if isWebVTT {
            lines = header
            lines.skipBlock()
        }
        var cues: [TextCue] = []
        while let first = lines.nextNonBlank() {
            if isWebVTT, first.hasPrefix("NOTE") || first == "STYLE" || first == "REGION" {
                lines.skipBlock()
                continue
            }
            // An optional identifier (SRT's number, WebVTT's cue id), then the timing line.
            let firstNumber = lines.number
            var timingLine = first
            if arrow(in: first) == nil {
                guard let next = lines.next(), arrow(in: next) != nil else {
                    throw MediaError(
                        .invalidSubtitles,
                        "line \(firstNumber) should be a cue timing (00:00:01,000 --> 00:00:02,000): '\(first)'")
                }
                timingLine = next
            }
            let (start, end) = try timing(timingLine, line: lines.number)
            var textLines: [String] = []
            while let line = lines.next(), !isBlank(line) { textLines.append(plain(line)) }
            cues.append(TextCue(start: start, end: end, text: textLines.joined(separator: "\n")))
        }
        guard !cues.isEmpty else { throw MediaError(.invalidSubtitles, "the subtitles hold no cues") }
        return cues
    }

    /// One pass over the bytes: the longest line and the number of cue timings (`-->`), each
    /// against its limit, so no later step (decoding, tag stripping, a cue array) can grow past
    /// them.
    private static func checkBounds(_ bytes: ArraySlice<UInt8>) throws(MediaError) {
        var lineStart = bytes.startIndex
        var line = 1
        var arrows = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                // CRLF is one line ending: its LF starts no new line.
                if !(byte == 0x0A && index > bytes.startIndex && bytes[index - 1] == 0x0D) { line += 1 }
                lineStart = index + 1
            } else if index - lineStart >= maximumLineLength {
                throw MediaError(
                    .tooLarge, "line \(line) of the subtitles is longer than \(maximumLineLength) bytes")
            } else if byte == UInt8(ascii: ">"), index - lineStart >= 2, bytes[index - 1] == UInt8(ascii: "-"),
                bytes[index - 2] == UInt8(ascii: "-")
            {
                arrows += 1
                guard arrows <= maximumCueCount else {
                    throw MediaError(.tooLarge, "the subtitles hold more than \(maximumCueCount) cues")
                }
            }
            index += 1
        }
    }

    private static func isBlank(_ line: Substring) -> Bool {
        line.utf8.isEmpty || line.allSatisfy(\.isWhitespace)
    }

    /// The lines of a text, one at a time: ended by LF, CRLF or CR (ASCII bytes that are always
    /// a grapheme break, so the lines are found in the UTF-8 view and are substrings of the
    /// text, not copies).
    private struct LineReader {
        let text: String
        var position: String.Index
        /// The number of the last line read, from 1.
        private(set) var number = 0

        init(text: String) {
            self.text = text
            position = text.utf8.startIndex
        }

        mutating func next() -> Substring? {
            let utf8 = text.utf8
            guard position < utf8.endIndex else { return nil }
            var end = position
            while end < utf8.endIndex, utf8[end] != 0x0A, utf8[end] != 0x0D { end = utf8.index(after: end) }
            let line = text[position..<end]
            if end < utf8.endIndex {
                let ending = utf8[end]
                end = utf8.index(after: end)
                if ending == 0x0D, end < utf8.endIndex, utf8[end] == 0x0A { end = utf8.index(after: end) }
            }
            position = end
            number += 1
            return line
        }

        mutating func nextNonBlank() -> Substring? {
            while let line = next() {
                if !isBlank(line) { return line }
            }
            return nil
        }

        /// Reads up to and including the next blank line.
        mutating func skipBlock() {
            while let line = next(), !isBlank(line) {}
        }
    }

    /// `00:00:01,000 --> 00:00:02,500` (SRT) or `00:01.000 --> 00:02.500 align:start` (WebVTT).
    /// Read in the line's UTF-8, without Foundation's string searches (which took 15 µs a cue).
    private static func timing(_ line: Substring, line number: Int) throws(MediaError) -> (Duration, Duration) {
        guard let arrow = arrow(in: line), Self.arrow(in: line[arrow.upperBound...]) == nil,
            let start = timestamp(trimmed(line[..<arrow.lowerBound])),
            let end = timestamp(
                trimmed(line[arrow.upperBound...]).prefix(while: { $0 != " " && $0 != "\t" }))
        else {
            throw MediaError(.invalidSubtitles, "line \(number) has a timing that cannot be read: '\(line)'")
        }
        guard end > start else {
            throw MediaError(.invalidSubtitles, "line \(number): the cue ends before it starts: '\(line)'")
        }
        return (start, end)
    }

    /// Where `-->` is in the line, found in its UTF-8.
    private static func arrow(in line: Substring) -> Range<String.Index>? {
        let utf8 = line.utf8
        var dashes = 0
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: ">"), dashes >= 2 {
                return utf8.index(index, offsetBy: -2)..<utf8.index(after: index)
            }
            dashes = byte == UInt8(ascii: "-") ? dashes + 1 : 0
            index = utf8.index(after: index)
        }
        return nil
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let start = text.drop(while: \.isWhitespace)
        var end = start.endIndex
        while end > start.startIndex, start[start.index(before: end)].isWhitespace { end = start.index(before: end) }
        return start[..<end]
    }

    /// The latest cue time accepted: what a GStreamer clock time (nanoseconds in 64 bits) can
    /// hold, about 292 years, rounded down to whole hours.
    static let latestTimestamp: Duration = .seconds(2_562_047 * 3600)

    /// `hh:mm:ss,mmm`, `hh:mm:ss.mmm` or `mm:ss.mmm`; nil for anything else, including numbers with
    /// signs, non-ASCII digits, or a time past ``latestTimestamp``.
    private static func timestamp(_ text: Substring) -> Duration? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3 else { return nil }
        let secondsField = fields[fields.count - 1].split(
            maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "," })
        guard secondsField.count == 2, secondsField[1].count == 3,
            let seconds = decimal(secondsField[0]), let millis = decimal(secondsField[1]),
            let minutes = decimal(fields[fields.count - 2]), seconds < 60, minutes < 60,
            let hours = fields.count == 3 ? decimal(fields[0]) : 0
        else { return nil }
        // Eighteen digits at most (below), so the hours cannot overflow once bounded here.
        guard hours <= 2_562_047 else { return nil }
        let time = Duration.seconds(hours * 3600 + minutes * 60 + seconds) + .milliseconds(millis)
        return time <= latestTimestamp ? time : nil
    }

    /// One to eighteen ASCII digits (so the value fits an `Int` with room to spare).
    private static func decimal(_ text: Substring) -> Int? {
        guard (1...18).contains(text.utf8.count) else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// The entities decoded: after the `&`, the name and its text.
    private static let entities: [(name: [UInt8], value: [UInt8])] = [
        (Array("lt;".utf8), Array("<".utf8)), (Array("gt;".utf8), Array(">".utf8)),
        (Array("nbsp;".utf8), Array("\u{00A0}".utf8)), (Array("amp;".utf8), Array("&".utf8)),
    ]

    /// The line without tags, entities decoded, in one pass over its UTF-8 (tags and entities
    /// are ASCII, so what is kept stays valid UTF-8).
    private static func plain(_ line: Substring) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(line.utf8.count)
        var inTag = false
        var bytes = line.utf8[...]
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "<"): inTag = true
            case UInt8(ascii: ">") where inTag: inTag = false
            case _ where inTag: break
            case UInt8(ascii: "&"):
                if let entity = Self.entities.first(where: { bytes.starts(with: $0.name) }) {
                    result += entity.value
                    bytes = bytes.dropFirst(entity.name.count)
                } else {
                    result.append(byte)
                }
            default: result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
