import Foundation
import MediaEngineCore
import MediaEngineXML

/// What the engine reads of a DASH manifest (MPD) beside `dashdemux`: its representations, with
/// the URIs of their segments, to tell which one a downloaded segment belongs to (GStreamer
/// 1.22's `dashdemux` does not report its switches).
///
/// Segments are found from a representation's `SegmentTemplate` `media` (its own, or inherited
/// from its adaptation set or period), its `SegmentList`'s `SegmentURL`s, or, with neither, its
/// `BaseURL` (one file read by ranges); each put after the representation's relative `BaseURL`,
/// if any. Only the video representations are reported (all of them when none is video). The
/// manifest is hostile input: at most ``largestRepresentationCount`` representations, each with
/// at most ``largestSegmentURLCount`` segment URLs, are read; a manifest that `XMLTree` refuses
/// (a DOCTYPE, so a DTD and entities; past ``limits``) or that is not well-formed XML is not read
/// at all (``DASHManifestError``).
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
    /// The bounds a manifest must keep within: the 4 MiB the manifest capture keeps at most
    /// (ME_MANIFEST_MAX_BYTES), 64 levels of elements, 500,000 elements and attributes.
    static let limits = XMLTree.Limits(maximumBytes: 4 << 20, maximumDepth: 64, maximumNodes: 500_000)

    /// Reads a manifest; nil when it is not an MPD, is refused or not well-formed, or names no
    /// representation with segments (``read(_:)`` says which).
    init?(_ text: String) {
        guard let manifest = try? Self.read(text) else { return nil }
        self = manifest
    }

    private init(representations: [Representation]) {
        self.representations = representations
    }

    /// Reads a manifest.
    /// - Parameter text: The manifest the demuxer read.
    /// - Throws: ``DASHManifestError``: not an MPD, refused or not well-formed XML (with
    ///   `XMLTree`'s reason), or no representation with segments.
    /// - Returns: The manifest's representations.
    static func read(_ text: String) throws(DASHManifestError) -> DASHManifest {
        guard text.contains("<MPD") else { throw .notAnMPD }
        let root: XMLTreeElement
        do {
            root = try XMLTree.parse(text, limits: limits)
        } catch {
            throw .unreadable(error)
        }
        var reader = Reader()
        reader.read(root)
        let video = reader.found.filter(\.isVideo)
        let representations = (video.isEmpty ? reader.found : video).compactMap { found -> Representation? in
            guard !found.patterns.isEmpty else { return nil }
            return Representation(
                variant: SegmentVariant(id: found.id, bandwidth: found.bandwidth), patterns: found.patterns)
        }
        guard !representations.isEmpty else { throw .noRepresentation }
        return DASHManifest(representations: representations)
    }

    /// The representation a segment's URI belongs to; nil when none or more than one matches.
    func variant(ofSegment uri: String) -> SegmentVariant? {
        // Compared as written (percent-encoded): a template's `%05d` is not an escape.
        let bytes = Array((URLComponents(string: uri)?.percentEncodedPath ?? uri).utf8)
        let matching = representations.filter { $0.patterns.contains { $0.matchesEnd(of: bytes) } }
        return matching.count == 1 ? matching[0].variant : nil
    }

    /// The MPD's elements in document order: attributes inherited down period, adaptation set
    /// and representation.
    private struct Reader {
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
        /// Set at the representation past ``DASHManifest/largestRepresentationCount``: nothing
        /// more is read.
        private var stopped = false

        /// Reads `element` and what is in it (its depth is bounded by ``DASHManifest/limits``).
        mutating func read(_ element: XMLTreeElement) {
            guard !stopped else { return }
            switch element.name {
            case "Period", "AdaptationSet":
                var level = Level()
                level.isVideo = Self.saysVideo(element.attributes)
                levels.append(level)
                readChildren(of: element)
                levels.removeLast()
            case "Representation":
                guard found.count < DASHManifest.largestRepresentationCount else {
                    stopped = true
                    return
                }
                var level = Level()
                level.isVideo = Self.saysVideo(element.attributes) || element.attributes["width"] != nil
                levels.append(level)
                let representation = (element.attributes["id"] ?? "", Int(element.attributes["bandwidth"] ?? "") ?? 0)
                readChildren(of: element)
                found.append(Self.found(representation, in: levels))
                levels.removeLast()
            case "SegmentTemplate":
                if let media = element.attributes["media"], !levels.isEmpty { levels[levels.count - 1].media = media }
                readChildren(of: element)
            case "SegmentURL":
                if let media = element.attributes["media"], !levels.isEmpty,
                    levels[levels.count - 1].segmentURLs.count < DASHManifest.largestSegmentURLCount
                {
                    levels[levels.count - 1].segmentURLs.append(media)
                }
                readChildren(of: element)
            case "BaseURL":
                if !levels.isEmpty {
                    let text = String(decoding: element.text.utf8.prefix(SegmentURIPattern.longestPath), as: UTF8.self)
                    levels[levels.count - 1].baseURL = text.trimmingCharacters(in: .whitespacesAndNewlines)
                }
            default:
                readChildren(of: element)
            }
        }

        private mutating func readChildren(of element: XMLTreeElement) {
            for child in element.children {
                read(child)
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

/// Why a DASH manifest was not read (``DASHManifest/read(_:)``): the player then reports no
/// representation switch for the stream, as before.
enum DASHManifestError: Error, Equatable {
    /// The text is not an MPD (an HLS playlist, say).
    case notAnMPD
    /// `XMLTree` refused the manifest (a DOCTYPE, a bound) or it is not well-formed XML.
    case unreadable(XMLTreeError)
    /// No representation has segments the reader finds.
    case noRepresentation
}
