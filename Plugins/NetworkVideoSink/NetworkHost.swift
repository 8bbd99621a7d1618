import MediaEngineCore

/// A host name or IP address a network sink sends to or listens on, checked so strictly that it
/// can be written into a pipeline description, a URI and an SDP file as it is: an IPv4 address
/// (`192.0.2.7`), an IPv6 address (`::1`, brackets allowed on input: `[::1]`), or a DNS name
/// (`receiver.local`: labels of letters, digits and `-`).
public struct NetworkHost: Sendable, Hashable, CustomStringConvertible {
    /// What kind of host this is.
    public enum Kind: Sendable, Hashable {
        /// A dotted-quad IPv4 address.
        case ipv4
        /// An IPv6 address (no zone index).
        case ipv6
        /// A DNS name, resolved when the sink starts.
        case name
    }

    /// The address or name, without brackets.
    public let name: String
    /// Whether it is an IPv4 address, an IPv6 address or a name.
    public let kind: Kind

    /// Reads a host.
    /// - Parameter text: An IPv4 or IPv6 address or a DNS name.
    /// - Throws: `MediaError.Code.invalidArgument` for anything else: empty text, spaces,
    ///   quotes, a `!`, control characters, a zone index (`fe80::1%eth0`), a port (`host:80`),
    ///   octets over 255 or with leading zeros, a name whose last label is all digits (some
    ///   resolvers read `1.2.3` as an address), a label over 63 characters or a name over 253.
    public init(_ text: String) throws(MediaError) {
        var body = Substring(text)
        if body.hasPrefix("["), body.hasSuffix("]") { body = body.dropFirst().dropLast() }
        if Self.isIPv4(body) {
            kind = .ipv4
        } else if body.contains(":") {
            guard Self.isIPv6(body) else { throw Self.invalid(text) }
            kind = .ipv6
        } else {
            guard Self.isDNSName(body) else { throw Self.invalid(text) }
            kind = .name
        }
        name = String(body)
    }

    /// The host as a URI writes it: IPv6 addresses in brackets.
    public var uriHost: String { kind == .ipv6 ? "[\(name)]" : name }

    /// The address.
    public var description: String { name }

    private static func invalid(_ text: String) -> MediaError {
        MediaError(
            .invalidArgument,
            "host '\(text)' is not an IPv4 or IPv6 address or a host name (letters, digits, '-' and '.')")
    }

    private static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
    private static func isHexDigit(_ c: Character) -> Bool { c.isASCII && c.isHexDigit }

    /// Four decimal octets, 0-255, without leading zeros (`010` is octal to some parsers).
    static func isIPv4(_ text: Substring) -> Bool {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4
            && octets.allSatisfy { octet in
                (1...3).contains(octet.count) && octet.allSatisfy(isDigit) && (octet.count == 1 || octet.first != "0")
                    && Int(octet)! <= 255
            }
    }

    /// Eight groups of 1-4 hex digits separated by `:`, or fewer around one `::`; the last 32
    /// bits may be written as an IPv4 address (`::ffff:192.0.2.1`).
    static func isIPv6(_ text: Substring) -> Bool {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        func groups(_ half: String) -> [Substring] {
            half.isEmpty ? [] : half.split(separator: ":", omittingEmptySubsequences: false)
        }
        let all = halves.flatMap(groups)
        guard let last = all.last else { return halves.count == 2 }  // "::" alone
        let hasIPv4Tail = last.contains(".")
        if hasIPv4Tail && !isIPv4(last) { return false }
        let hexGroups = hasIPv4Tail ? all.dropLast() : all[...]
        guard hexGroups.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy(isHexDigit) }) else { return false }
        let count = all.count + (hasIPv4Tail ? 1 : 0)
        return halves.count == 2 ? count <= 7 : count == 8
    }

    /// RFC 1123 labels: 1-63 letters, digits and `-`, not starting or ending with `-`; at most
    /// 253 characters; the last label not all digits.
    static func isDNSName(_ text: Substring) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !text.isEmpty, text.count <= 253, let last = labels.last, !last.allSatisfy(isDigit) else { return false }
        return labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
