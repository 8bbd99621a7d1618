import Foundation
import MediaEngineCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What the engine reads of a DASH manifest (MPD) beside `dashdemux`: its representations, with
/// the URIs of their segments, to tell which one a downloaded segment belongs to (GStreamer
/// 1.22's `dashdemux` does not report its switches).
///
/// Segments are found from a representation's `SegmentTemplate` `media` (its own, or inherited
/// from its adaptation set or period), its `SegmentList`'s `SegmentURL`s, or, with neither, its
/// `BaseURL` (one file read by ranges); each put after the representation's relative `BaseURL`,
/// if any. Only the video representations are reported (all of them when none is video). The
/// manifest is hostile input: at most ``largestRepresentationCount`` representations, each with
/// at most ``largestSegmentURLCount`` segment URLs, are read; a manifest with a DOCTYPE (entities)
/// or that FoundationXML cannot take safely (``FoundationXMLInput``) is not read at all.
struct DASHManifest: Sendable {
    struct Representation: Sendable {
        let variant: SegmentVariant
        let patterns: [SegmentURIPattern]
    }

    /// The representations reported.
    let representations: [Representation]

    /// The most representations read.
    static let largestRepresentationCount = 1000
    /// The most segment URLs read for one representation.
    static let largestSegmentURLCount = 10_000

    /// Reads a manifest; nil when it is not an MPD or names no representation with segments.
    init?(_ text: String) {
        // FoundationXML traps on some input libxml2 accepts (FoundationXMLInput says which).
        guard text.contains("<MPD"), let safe = FoundationXMLInput.sanitized(Array(text.utf8)) else { return nil }
        let reader = Reader()
        let parser = XMLParser(data: Data(safe))
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        _ = parser.parse()
        let video = reader.found.filter(\.isVideo)
        representations = (video.isEmpty ? reader.found : video).compactMap { found in
            guard !found.patterns.isEmpty else { return nil }
            return Representation(
                variant: SegmentVariant(id: found.id, bandwidth: found.bandwidth), patterns: found.patterns)
        }
        guard !representations.isEmpty else { return nil }
    }

    /// The representation a segment's URI belongs to; nil when none or more than one matches.
    func variant(ofSegment uri: String) -> SegmentVariant? {
        // Compared as written (percent-encoded): a template's `%05d` is not an escape.
        let bytes = Array((URLComponents(string: uri)?.percentEncodedPath ?? uri).utf8)
        let matching = representations.filter { $0.patterns.contains { $0.matchesEnd(of: bytes) } }
        return matching.count == 1 ? matching[0].variant : nil
    }

    /// The MPD's elements, read as they come: attributes inherited down period, adaptation set
    /// and representation.
    private final class Reader: NSObject, XMLParserDelegate {
        struct Found {
            var id: String
            var bandwidth: Int
            var isVideo: Bool
            var patterns: [SegmentURIPattern]
        }

        /// What a level (period, adaptation set, representation) says about segments.
        struct Level {
            var media: String?
            var baseURL: String?
            var isVideo = false
            var segmentURLs: [String] = []
        }

        var found: [Found] = []
        private var levels: [Level] = []
        private var representation: (id: String, bandwidth: Int)?
        private var text = ""
        private var inBaseURL = false

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let local = name.split(separator: ":").last.map(String.init) ?? name
            switch local {
            case "Period", "AdaptationSet":
                var level = Level()
                level.isVideo = Self.saysVideo(attributes)
                levels.append(level)
            case "Representation":
                guard found.count < DASHManifest.largestRepresentationCount else {
                    parser.abortParsing()
                    return
                }
                var level = Level()
                level.isVideo = Self.saysVideo(attributes) || attributes["width"] != nil
                levels.append(level)
                representation = (attributes["id"] ?? "", Int(attributes["bandwidth"] ?? "") ?? 0)
            case "SegmentTemplate":
                if let media = attributes["media"], !levels.isEmpty { levels[levels.count - 1].media = media }
            case "SegmentURL":
                if let media = attributes["media"], !levels.isEmpty,
                    levels[levels.count - 1].segmentURLs.count < DASHManifest.largestSegmentURLCount
                {
                    levels[levels.count - 1].segmentURLs.append(media)
                }
            case "BaseURL":
                inBaseURL = true
                text = ""
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inBaseURL && text.utf8.count < SegmentURIPattern.longestPath { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let local = name.split(separator: ":").last.map(String.init) ?? name
            switch local {
            case "BaseURL":
                inBaseURL = false
                if !levels.isEmpty {
                    levels[levels.count - 1].baseURL = text.trimmingCharacters(in: .whitespacesAndNewlines)
                }
            case "Representation":
                if let representation { found.append(Self.found(representation, in: levels)) }
                representation = nil
                if !levels.isEmpty { levels.removeLast() }
            case "Period", "AdaptationSet":
                if !levels.isEmpty { levels.removeLast() }
            default:
                break
            }
        }

        private static func saysVideo(_ attributes: [String: String]) -> Bool {
            attributes["contentType"] == "video" || attributes["mimeType"]?.hasPrefix("video/") == true
        }

        /// A representation (the last level) with what it inherits.
        private static func found(_ representation: (id: String, bandwidth: Int), in levels: [Level]) -> Found {
            let own = levels.last ?? Level()
            let media = levels.reversed().lazy.compactMap(\.media).first
            // Base URLs from the period down: one that is a URL of its own (or starts with `/`)
            // replaces the path before it; a relative one is put after it.
            var base: String?
            for url in levels.compactMap(\.baseURL) where !url.isEmpty {
                let decoded = URLComponents(string: url).map { $0.host == nil ? url : $0.percentEncodedPath } ?? url
                if decoded.hasPrefix("/") || url.contains("://") || base == nil {
                    base = decoded
                } else if let prefix = base {
                    base = prefix.hasSuffix("/") ? prefix + decoded : prefix + "/" + decoded
                }
            }
            func pattern(_ decoded: String) -> SegmentURIPattern {
                let joined = base.map { $0.hasSuffix("/") ? $0 + decoded : $0 + "/" + decoded } ?? decoded
                return SegmentURIPattern(
                    template: joined, representationID: representation.id, bandwidth: representation.bandwidth)
            }
            var patterns: [SegmentURIPattern]
            if !own.segmentURLs.isEmpty {
                patterns = own.segmentURLs.map(pattern)
            } else if let media {
                patterns = [pattern(media)]
            } else if let base {
                patterns = [SegmentURIPattern(template: base, representationID: "", bandwidth: 0)]
            } else {
                patterns = []
            }
            return Found(
                id: representation.id, bandwidth: representation.bandwidth,
                isVideo: levels.contains(where: \.isVideo), patterns: patterns)
        }
    }
}
