import Foundation

/// The URIs a DASH segment template (or a segment's URL) stands for, matched against the end of a
/// downloaded segment's path: `video_$RepresentationID$/seg-$Number%05d$.m4s` with the
/// representation's identifier and bandwidth put in, and any run of digits for `$Number$` and
/// `$Time$`.
struct SegmentURIPattern: Sendable, Hashable {
    private enum Token: Sendable, Hashable {
        case literal([UInt8])
        case digits
    }

    private let tokens: [Token]

    /// The longest path matched: anything longer is not a segment of this manifest's.
    static let longestPath = 4096

    /// A template's pattern for one representation.
    /// - Parameters:
    ///   - template: The `media` attribute of a `SegmentTemplate` (or a `SegmentURL`, a `BaseURL`:
    ///     text with no `$` identifiers), relative to the representation's base URL.
    ///   - representationID: Put in for `$RepresentationID$`.
    ///   - bandwidth: Put in for `$Bandwidth$`.
    init(template: String, representationID: String, bandwidth: Int) {
        var tokens: [Token] = []
        var literal: [UInt8] = []
        func flush() {
            if !literal.isEmpty { tokens.append(.literal(literal)) }
            literal = []
        }
        var rest = Substring(template)
        while let dollar = rest.firstIndex(of: "$") {
            literal += Array(rest[..<dollar].utf8)
            let afterDollar = rest.index(after: dollar)
            guard let close = rest[afterDollar...].firstIndex(of: "$") else {
                rest = rest[dollar...]
                break
            }
            let identifier = rest[afterDollar..<close]
            let name = identifier.split(separator: "%", maxSplits: 1).first.map(String.init) ?? ""
            switch name {
            case "": literal += Array("$".utf8)  // `$$`
            case "RepresentationID": literal += Array(representationID.utf8)
            case "Bandwidth": literal += Array(String(bandwidth).utf8)
            case "Number", "Time", "SubNumber":
                flush()
                tokens.append(.digits)
            default: literal += Array(rest[dollar...close].utf8)  // not an identifier: kept as it is
            }
            rest = rest[rest.index(after: close)...]
        }
        literal += Array(rest.utf8)
        flush()
        self.tokens = tokens
    }

    /// Whether `path` (as written, percent-encoded, no query) ends with a URI of this pattern that starts the
    /// path or follows a `/`.
    func matchesEnd(of path: [UInt8]) -> Bool {
        guard !tokens.isEmpty, path.count <= Self.longestPath else { return false }
        return match(tokenIndex: tokens.count - 1, path: path, end: path.count)
    }

    /// Matches tokens `0...tokenIndex` so that they end at `end`, backwards.
    private func match(tokenIndex: Int, path: [UInt8], end: Int) -> Bool {
        if tokenIndex < 0 { return end == 0 || path[end - 1] == UInt8(ascii: "/") }
        switch tokens[tokenIndex] {
        case .literal(let bytes):
            guard end >= bytes.count, path[(end - bytes.count)..<end].elementsEqual(bytes) else { return false }
            return match(tokenIndex: tokenIndex - 1, path: path, end: end - bytes.count)
        case .digits:
            var start = end
            while start > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(path[start - 1]) { start -= 1 }
            guard start < end else { return false }
            // Digits next to digits cannot be told apart: the shortest split that fits wins.
            for split in (start..<end).reversed() where match(tokenIndex: tokenIndex - 1, path: path, end: split) {
                return true
            }
            return false
        }
    }
}
