import Foundation
import HTTPStreamSource
import MediaEngineCore

extension ParserFuzzing {
    /// `HTTPStreamSource.segmentVariants(inManifest:)`: the text of a manifest the demuxer read
    /// (an HLS playlist or a DASH MPD: the player hands over both), then the variant of segment
    /// URIs taken from the text itself (each line, and each `media`, `sourceURL` or `BaseURL`
    /// value with its `$identifiers$` made digits), as the player asks for every segment
    /// downloaded. A variant found must have a name and bandwidth the manifest could give.
    /// - Parameter bytes: A manifest's bytes (repaired as UTF-8, as the bus message's string is).
    package static func manifest(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let variants = manifestSource.segmentVariants(inManifest: text) else { return }
        for uri in segmentURIs(in: text) {
            _ = variants.variant(ofSegment: uri)
        }
    }

    /// The most segment URIs asked about for one input: a player asks once per segment.
    private static let largestSegmentLookups = 64

    /// Segment URIs a manifest's text suggests: its lines, and its attribute values and BaseURLs
    /// with each `$...$` made digits, relative and against the manifest's host.
    private static func segmentURIs(in text: String) -> [String] {
        var uris: [String] = []
        func add(_ candidate: some StringProtocol) {
            guard uris.count < largestSegmentLookups else { return }
            let trimmed = candidate.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { return }
            var filled = ""
            var inIdentifier = false
            for character in trimmed {
                if character == "$" {
                    if !inIdentifier { filled += "000123" }
                    inIdentifier.toggle()
                } else if !inIdentifier {
                    filled.append(character)
                }
            }
            uris.append(filled)
            uris.append("http://stream.example/dash/" + filled)
        }
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            add(line.prefix(8192))
        }
        var rest = text[...]
        while uris.count < largestSegmentLookups, let quote = rest.range(of: "=\"") {
            let value = rest[quote.upperBound...].prefix { $0 != "\"" }
            add(value.prefix(8192))
            rest = rest[value.endIndex...]
        }
        return uris
    }

    /// The source whose manifest reading the player calls.
    private static let manifestSource: HTTPStreamSource = {
        do {
            return try HTTPStreamSource(url: URL(string: "http://stream.example/dash/manifest.mpd")!)
        } catch {
            preconditionFailure("the fuzzer's own URL is refused: \(error)")
        }
    }()
}
