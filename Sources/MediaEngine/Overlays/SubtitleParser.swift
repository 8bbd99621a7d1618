import Foundation

/// Reads SubRip (`.srt`) and WebVTT (`.vtt`) captions into ``TextCue``s. The format is told by
/// the content (WebVTT files start with `WEBVTT`), not the name. Styling tags (`<i>`, `<b>`,
/// `<c.red>`, `<v Name>`) are dropped and entities (`&amp;`, `&lt;`, `&gt;`, `&nbsp;`) decoded:
/// what remains is plain text drawn in the overlay's ``TextStyle``.
public enum SubtitleParser {
    /// Reads a subtitle file.
    /// - Parameter url: A file URL.
    /// - Returns: The cues, in the file's order.
    /// - Throws: The file errors (``MediaError/Code/fileNotFound`` and the rest), or
    ///   ``MediaError/Code/invalidSubtitles`` when the content is not SRT or WebVTT.
    public static func cues(contentsOf url: URL) throws(MediaError) -> [TextCue] {
        let bytes = try OverlayFile.read(url, kind: "subtitle file", limit: 16 << 20)
        do {
            return try cues(parsing: bytes)
        } catch {
            throw MediaError(.invalidSubtitles, "\(url.path): \(error.message)")
        }
    }

    /// Parses subtitle text.
    /// - Parameter bytes: UTF-8 SRT or WebVTT.
    /// - Returns: The cues.
    /// - Throws: ``MediaError/Code/invalidSubtitles`` for anything else.
    public static func cues(parsing bytes: [UInt8]) throws(MediaError) -> [TextCue] {
        var bytes = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw MediaError(.invalidSubtitles, "the subtitles are not UTF-8 text")
        }
        // Lines end with LF, CRLF or CR; each of them is one Character. (Foundation's
        // replacingOccurrences took 14 s to turn 16 MB of CRs into LFs; the lines stay substrings
        // of the text, not a copy each.)
        let lines = text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        let isWebVTT =
            lines.first.map { $0 == "WEBVTT" || $0.hasPrefix("WEBVTT ") || $0.hasPrefix("WEBVTT\t") } ?? false
        var cues: [TextCue] = []
        var index = isWebVTT ? skipBlock(lines, from: 0) : 0
        while index < lines.count {
            while index < lines.count, lines[index].allSatisfy(\.isWhitespace) { index += 1 }
            guard index < lines.count else { break }
            let first = lines[index]
            if isWebVTT, first.hasPrefix("NOTE") || first == "STYLE" || first == "REGION" {
                index = skipBlock(lines, from: index)
                continue
            }
            // An optional identifier (SRT's number, WebVTT's cue id), then the timing line.
            var timingLine = index
            if !first.contains("-->") { timingLine += 1 }
            guard timingLine < lines.count, lines[timingLine].contains("-->") else {
                throw MediaError(
                    .invalidSubtitles,
                    "line \(index + 1) should be a cue timing (00:00:01,000 --> 00:00:02,000): '\(first)'")
            }
            let (start, end) = try timing(lines[timingLine], line: timingLine + 1)
            var textLines: [String] = []
            index = timingLine + 1
            while index < lines.count, !lines[index].allSatisfy(\.isWhitespace) {
                textLines.append(plain(lines[index]))
                index += 1
            }
            cues.append(TextCue(start: start, end: end, text: textLines.joined(separator: "\n")))
        }
        guard !cues.isEmpty else { throw MediaError(.invalidSubtitles, "the subtitles hold no cues") }
        return cues
    }

    private static func skipBlock(_ lines: [Substring], from start: Int) -> Int {
        var index = start
        while index < lines.count, !lines[index].allSatisfy(\.isWhitespace) { index += 1 }
        return index
    }

    /// `00:00:01,000 --> 00:00:02,500` (SRT) or `00:01.000 --> 00:02.500 align:start` (WebVTT).
    private static func timing(_ line: Substring, line number: Int) throws(MediaError) -> (Duration, Duration) {
        let parts = line.components(separatedBy: "-->")
        guard parts.count == 2,
            let start = timestamp(parts[0].trimmingCharacters(in: .whitespaces)),
            let end = timestamp(
                parts[1].trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? "")
        else {
            throw MediaError(.invalidSubtitles, "line \(number) has a timing that cannot be read: '\(line)'")
        }
        guard end > start else {
            throw MediaError(.invalidSubtitles, "line \(number): the cue ends before it starts: '\(line)'")
        }
        return (start, end)
    }

    /// The latest cue time accepted: what a GStreamer clock time (nanoseconds in 64 bits) can
    /// hold, about 292 years, rounded down to whole hours.
    static let latestTimestamp: Duration = .seconds(2_562_047 * 3600)

    /// `hh:mm:ss,mmm`, `hh:mm:ss.mmm` or `mm:ss.mmm`; nil for anything else, including numbers with
    /// signs, non-ASCII digits, or a time past ``latestTimestamp``.
    private static func timestamp(_ text: String) -> Duration? {
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

    /// The line without tags, entities decoded.
    private static func plain(_ line: Substring) -> String {
        var result = ""
        var inTag = false
        for character in line {
            switch character {
            case "<": inTag = true
            case ">" where inTag: inTag = false
            default: if !inTag { result.append(character) }
            }
        }
        return result.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&nbsp;", with: "\u{00A0}").replacingOccurrences(of: "&amp;", with: "&")
    }
}
