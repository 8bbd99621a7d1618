import Foundation
public import MediaEngineCore
import MediaEngineXML

/// Reads VAST 2.0, 3.0 and 4.x documents into ``VASTDocument``: the ads, inline or wrapper,
/// with what a linear pre-roll needs (impressions, errors, linear creatives with their media
/// files, tracking events and clicks). NonLinear and Companion creatives, extensions, ad
/// verification, VAST 4's Mezzanine and InteractiveCreativeFile are skipped without failing.
///
/// Every URI is the element's text (character data and CDATA) with surrounding whitespace
/// removed; empty ones are left out. Unreadable optional values (a duration, a skip offset, a
/// bitrate that is not a number) are read as missing rather than failing the document, as
/// players do with real ad servers.
///
/// The parser checks the document, not the ads' fitness: an inline ad without a creative, or
/// without a linear one, reads fine, and ``VASTClient`` decides what it is when it resolves it
/// (no ad, or an ad that cannot play as a pre-roll). Bytes that are no document at all (an
/// empty answer) are `malformedVAST` here; ``VASTClient`` reads them as no ad before parsing.
public enum VASTParser {
    /// The VAST major versions read: 2, 3 and 4 (4.0 to 4.3).
    public static let supportedMajorVersions: ClosedRange<Int> = 2...4

    /// The bounds a document must keep within: 2 MiB (an ad server's answer is kilobytes), 64
    /// levels of elements, 100,000 elements and attributes.
    static let limits = XMLTree.Limits(maximumBytes: 2 << 20, maximumDepth: 64, maximumNodes: 100_000)

    /// Parses a VAST document.
    /// - Parameter data: The document's bytes (UTF-8, UTF-16 with a byte order mark, or the
    ///   encoding its XML declaration names).
    /// - Throws: `PrerollAdError` `PrerollAdError.Code.malformedVAST` (VAST 100) when the
    ///   bytes are not well-formed XML, are refused (a DOCTYPE, so a DTD and entities; more than
    ///   2 MiB, 64 levels deep, or 100,000 elements and attributes), the root is not `<VAST>`,
    ///   the `version` attribute is missing, or an `<Ad>` has neither `<InLine>` nor `<Wrapper>`
    ///   or a wrapper no `<VASTAdTagURI>`; `PrerollAdError.Code.configuration` (VAST 102) for a
    ///   version other than 2, 3 or 4, VAST 1.0's `<VideoAdServingTemplate>` root included.
    /// - Returns: The document.
    public static func parse(_ data: Data) throws(PrerollAdError) -> VASTDocument {
        let root: XMLTreeElement
        do {
            root = try XMLTree.parse(data, limits: limits)
        } catch {
            switch error.reason {
            case .malformed, .empty:
                throw PrerollAdError(.malformedVAST, "the VAST document is not well-formed XML (\(error))")
            case .documentType, .tooLarge, .tooDeep, .tooManyNodes, .outOfMemory:
                throw PrerollAdError(.malformedVAST, "the VAST document is refused: \(error)")
            }
        }
        guard root.name != "VideoAdServingTemplate" else {
            // VAST 1.0's root: a document of a version this parser does not read, not a broken one.
            throw PrerollAdError(
                .configuration, "VAST version 1.0 (<VideoAdServingTemplate>) is not supported (2.0, 3.0 and 4.x are)")
        }
        guard root.name == "VAST" else {
            throw PrerollAdError(.malformedVAST, "the document's root element is <\(root.name)>, not <VAST>")
        }
        guard let version = root.attribute("version") else {
            throw PrerollAdError(.malformedVAST, "the <VAST> element has no version attribute")
        }
        guard let major = version.split(separator: ".").first.flatMap({ Int($0) }),
            supportedMajorVersions.contains(major)
        else {
            throw PrerollAdError(.configuration, "VAST version \(version) is not supported (2.0, 3.0 and 4.x are)")
        }
        let ads = try root.children(named: "Ad").map { (element) throws(PrerollAdError) in try ad(element) }
        return VASTDocument(version: version, ads: ads, errors: uris(root.children(named: "Error")))
    }

    private static func ad(_ element: XMLTreeElement) throws(PrerollAdError) -> VASTAd {
        let id = element.attribute("id")
        let name = id.map { "the ad \"\($0)\"" } ?? "an ad"
        let kind: VASTAd.Kind
        let body: XMLTreeElement
        if let inline = element.child(named: "InLine") {
            kind = .inline
            body = inline
        } else if let wrapper = element.child(named: "Wrapper") {
            guard let uri = text(wrapper.child(named: "VASTAdTagURI")) else {
                throw PrerollAdError(.malformedVAST, "\(name) is a <Wrapper> without a <VASTAdTagURI>")
            }
            kind = .wrapper(
                VASTWrapper(
                    adTagURI: uri,
                    followAdditionalWrappers: boolean(wrapper.attribute("followAdditionalWrappers")) ?? true,
                    allowMultipleAds: boolean(wrapper.attribute("allowMultipleAds")) ?? false,
                    fallbackOnNoAd: boolean(wrapper.attribute("fallbackOnNoAd"))))
            body = wrapper
        } else {
            throw PrerollAdError(.malformedVAST, "\(name) has neither <InLine> nor <Wrapper>")
        }
        let creatives = body.child(named: "Creatives")?.children(named: "Creative") ?? []
        return VASTAd(
            id: id, sequence: element.attribute("sequence").flatMap { Int($0) }, kind: kind,
            adSystem: text(body.child(named: "AdSystem")), title: text(body.child(named: "AdTitle")),
            impressions: uris(body.children(named: "Impression")), errors: uris(body.children(named: "Error")),
            linearCreatives: creatives.compactMap { creative in
                creative.child(named: "Linear").map { linear(creative: creative, $0) }
            },
            creativeCount: creatives.filter { creative in
                ["Linear", "NonLinearAds", "CompanionAds"].contains { creative.child(named: $0) != nil }
            }.count)
    }

    private static func linear(creative: XMLTreeElement, _ linear: XMLTreeElement) -> VASTLinearCreative {
        let clicks = linear.child(named: "VideoClicks")
        return VASTLinearCreative(
            id: creative.attribute("id"), sequence: creative.attribute("sequence").flatMap { Int($0) },
            adID: creative.attribute("adId") ?? creative.attribute("AdID"),
            duration: text(linear.child(named: "Duration")).flatMap(VASTTimecode.parse),
            skipOffset: linear.attribute("skipoffset").flatMap { VASTOffset(vast: $0) },
            mediaFiles: (linear.child(named: "MediaFiles")?.children(named: "MediaFile") ?? []).compactMap(mediaFile),
            tracking: (linear.child(named: "TrackingEvents")?.children(named: "Tracking") ?? []).compactMap {
                tracking in
                guard let event = tracking.attribute("event"), let uri = text(tracking) else { return nil }
                return VASTTrackingEvent(
                    event: VASTEvent(rawValue: event),
                    offset: tracking.attribute("offset").flatMap { VASTOffset(vast: $0) },
                    uri: uri)
            },
            clickThrough: text(clicks?.child(named: "ClickThrough")),
            clickTracking: uris(clicks?.children(named: "ClickTracking") ?? []))
    }

    /// A `<MediaFile>`; nil when its text is not a URL (it could not be played).
    private static func mediaFile(_ element: XMLTreeElement) -> VASTMediaFile? {
        guard let text = text(element), let url = URL(string: text), url.scheme != nil else { return nil }
        // Sizes and bitrates are not negative: a negative one is unreadable, so missing.
        func number(_ name: String) -> Int? {
            element.attribute(name).flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
        }
        return VASTMediaFile(
            url: url, delivery: element.attribute("delivery"), type: element.attribute("type") ?? "",
            width: number("width"), height: number("height"), bitrate: number("bitrate"),
            minBitrate: number("minBitrate"), maxBitrate: number("maxBitrate"), codec: element.attribute("codec"),
            id: element.attribute("id"))
    }

    /// An element's text, trimmed; nil when the element is missing or its text blank.
    private static func text(_ element: XMLTreeElement?) -> String? {
        guard let text = element?.trimmedText, !text.isEmpty else { return nil }
        return text
    }

    private static func uris(_ elements: [XMLTreeElement]) -> [String] {
        elements.compactMap(text)
    }

    /// XML Schema's boolean: `true`/`1` or `false`/`0`; nil for anything else.
    private static func boolean(_ value: String?) -> Bool? {
        switch value?.lowercased() {
        case "true", "1": true
        case "false", "0": false
        default: nil
        }
    }
}
