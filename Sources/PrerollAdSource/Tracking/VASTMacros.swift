import Foundation

/// The values of VAST's URI macros for one beacon, and their replacement in URI templates.
///
/// Replaced (each value percent-encoded for a URL query: RFC 3986's unreserved characters
/// `A-Z a-z 0-9 - . _ ~` are kept, everything else, `:` `/` `?` `&` `=` `%` and spaces
/// included, is encoded):
/// - `[ERRORCODE]`: the VAST error code (``errorCode``).
/// - `[CACHEBUSTING]`: a random 8-digit number (``cacheBusting``).
/// - `[TIMESTAMP]`: ``timestamp`` in ISO 8601 with milliseconds and the local time zone
///   (`2025-05-01T10:15:07.127+02:00`).
/// - `[CONTENTPLAYHEAD]`: ``contentPlayhead`` as `HH:MM:SS.mmm`.
/// - `[ADPLAYHEAD]`, and VAST 4.1's `[MEDIAPLAYHEAD]` for the same: ``adPlayhead`` as
///   `HH:MM:SS.mmm`.
/// - `[ASSETURI]`: ``assetURI``, the media file played.
///
/// A macro this type knows whose value is not known (nil) becomes `-1`, VAST 4.1's value for
/// "unknown"; a macro it does not know is left as it is, brackets and all, as VAST 4.1 says.
/// Macro names are matched exactly (upper case), in the bracket form only.
public struct VASTMacros: Sendable, Hashable {
    /// The names replaced, without brackets.
    public static let names: Set<String> = [
        "ERRORCODE", "CACHEBUSTING", "TIMESTAMP", "CONTENTPLAYHEAD", "ADPLAYHEAD", "MEDIAPLAYHEAD", "ASSETURI",
    ]
    /// What a known macro without a value becomes.
    public static let unknownValue = "-1"

    /// `[ERRORCODE]`.
    public var errorCode: Int?
    /// `[CONTENTPLAYHEAD]`: where the content (the movie) is.
    public var contentPlayhead: Duration?
    /// `[ADPLAYHEAD]` and `[MEDIAPLAYHEAD]`: where the ad is.
    public var adPlayhead: Duration?
    /// `[ASSETURI]`: the ad's media file.
    public var assetURI: URL?
    /// `[TIMESTAMP]`.
    public var timestamp: Date
    /// `[CACHEBUSTING]`, 8 digits.
    public var cacheBusting: String

    /// Macro values.
    /// - Parameters:
    ///   - errorCode: `[ERRORCODE]`, or nil.
    ///   - contentPlayhead: `[CONTENTPLAYHEAD]`, or nil.
    ///   - adPlayhead: `[ADPLAYHEAD]` and `[MEDIAPLAYHEAD]`, or nil.
    ///   - assetURI: `[ASSETURI]`, or nil.
    ///   - timestamp: `[TIMESTAMP]`; now by default.
    ///   - cacheBusting: `[CACHEBUSTING]`; a new random number by default.
    public init(
        errorCode: Int? = nil, contentPlayhead: Duration? = nil, adPlayhead: Duration? = nil, assetURI: URL? = nil,
        timestamp: Date = Date(), cacheBusting: String = VASTMacros.randomCacheBusting()
    ) {
        self.errorCode = errorCode
        self.contentPlayhead = contentPlayhead
        self.adPlayhead = adPlayhead
        self.assetURI = assetURI
        self.timestamp = timestamp
        self.cacheBusting = cacheBusting
    }

    /// A random 8-digit number, leading zeros kept.
    /// - Returns: 8 ASCII digits.
    public static func randomCacheBusting() -> String {
        let number = String(Int.random(in: 0..<100_000_000))
        return String(repeating: "0", count: 8 - number.count) + number
    }

    /// The value a macro is replaced with, before encoding; nil for a name this type does not
    /// know.
    /// - Parameter name: The macro's name, without brackets.
    /// - Returns: The value, ``unknownValue`` when not known.
    public func value(of name: String) -> String? {
        switch name {
        case "ERRORCODE": errorCode.map(String.init) ?? Self.unknownValue
        case "CACHEBUSTING": cacheBusting
        case "TIMESTAMP":
            ISO8601DateFormatter.string(
                from: timestamp, timeZone: .current, formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        case "CONTENTPLAYHEAD": contentPlayhead.map(VASTTimecode.format) ?? Self.unknownValue
        case "ADPLAYHEAD", "MEDIAPLAYHEAD": adPlayhead.map(VASTTimecode.format) ?? Self.unknownValue
        case "ASSETURI": assetURI?.absoluteString ?? Self.unknownValue
        default: nil
        }
    }

    /// `template`, trimmed, with every known macro replaced by its encoded value.
    /// - Parameter template: A URI template from a VAST document.
    /// - Returns: The expanded text (not necessarily a URL).
    public func expand(_ template: String) -> String {
        let text = template.trimmingCharacters(in: .whitespacesAndNewlines)
        var result = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "[") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(where: { $0 == "]" || $0 == "[" }), rest[close] == "]",
                let value = value(of: String(rest[afterOpen..<close]))
            {
                result += Self.encode(value)
                rest = rest[rest.index(after: close)...]
            } else {
                // Not a macro this type knows (or not a macro at all): kept as written.
                result += "["
                rest = rest[afterOpen...]
            }
        }
        return result + rest
    }

    /// The beacon URL `template` makes: trimmed, expanded, what a URL may not hold after its
    /// host percent-encoded (the brackets of an unknown macro left as written, spaces, quotes,
    /// a `%` that starts no escape; escapes already there are kept), and an absolute `http` or
    /// `https` URL with a host.
    /// - Parameters:
    ///   - template: A URI template from a VAST document.
    ///   - base: What a relative template is read against (a wrapper's `<VASTAdTagURI>` against
    ///     its document's URL); nil: the template must be absolute.
    /// - Returns: The URL, or nil when the result is not such a URL (the beacon is not sent).
    public func url(_ template: String, relativeTo base: URL? = nil) -> URL? {
        let expanded = expand(template)
        let text: String
        if let separator = expanded.range(of: "://") {
            // The scheme and authority as written (an IPv6 host keeps its brackets); the rest
            // made valid.
            let authorityEnd =
                expanded[separator.upperBound...].firstIndex { "/?#".contains($0) } ?? expanded.endIndex
            text = String(expanded[..<authorityEnd]) + Self.escapingInvalid(expanded[authorityEnd...])
        } else if base != nil {
            text = Self.escapingInvalid(expanded[...])
        } else {
            return nil
        }
        guard let url = URL(string: text, relativeTo: base)?.absoluteURL, let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    /// What a path, query and fragment may hold unencoded: the unreserved characters, the
    /// sub-delimiters, `:` `@` `/` `?` `#`, and `%` when it starts an escape.
    private static let allowedAfterHost = unreserved.union(CharacterSet(charactersIn: "!$&'()*+,;=:@/?#"))

    /// `text` with every character a URL's path, query or fragment may not hold
    /// percent-encoded (UTF-8), escapes already there kept.
    static func escapingInvalid(_ text: Substring) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "%", text[next...].prefix(2).count == 2, text[next...].prefix(2).allSatisfy(\.isHexDigit) {
                result.append(character)
            } else if character.unicodeScalars.allSatisfy(allowedAfterHost.contains) {
                result.append(character)
            } else {
                result += encode(String(character))
            }
            index = next
        }
        return result
    }

    /// RFC 3986's unreserved characters: what a query value may hold unencoded.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `value` percent-encoded (UTF-8) for a URL query.
    static func encode(_ value: String) -> String {
        // Only fails on unpaired surrogates, which a Swift String cannot hold.
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
