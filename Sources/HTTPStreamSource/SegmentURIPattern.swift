import Foundation

/// The URIs a DASH segment template (or a segment's URL) stands for, matched against the end of a
/// downloaded segment's path: `video_$RepresentationID$/seg-$Number%05d$.m4s` with the
/// representation's identifier and bandwidth put in, and any run of digits for `$Number$` and
/// `$Time$`.
struct SegmentURIPattern: Sendable, Hashable {
    private enum Token: Sendable, Hashable {
        case literal([UInt8])
        /// A run of digits for this many identifiers in a row (`$Number$$Time$` is one run of
        /// at least two digits: where one ends and the next starts cannot be told).
        case digits(atLeast: Int)
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
                if case .digits(let count)? = tokens.last {
                    tokens[tokens.count - 1] = .digits(atLeast: count + 1)
                } else {
                    tokens.append(.digits(atLeast: 1))
                }
            default: literal += Array(rest[dollar...close].utf8)  // not an identifier: kept as it is
            }
            rest = rest[rest.index(after: close)...]
        }
        literal += Array(rest.utf8)
        flush()
        self.tokens = tokens
    }

    /// The most steps one match may take. A hostile template (identifiers between digit literals,
    /// `$Number$0$Number$0...`) against a long run of digits made the backtracking exponential:
    /// one segment's lookup held the player's thread for longer than libFuzzer's 5 s (found while
    /// fuzzing the manifest reader). Failed states are remembered, so this bound is never near
    /// for a real manifest.
    static let largestMatchSteps = 100_000

    /// Whether `path` (as written, percent-encoded, no query) ends with a URI of this pattern that starts the
    /// path or follows a `/`.
    func matchesEnd(of path: [UInt8]) -> Bool {
        // Every token takes at least one byte.
        guard !tokens.isEmpty, path.count <= Self.longestPath, tokens.count <= path.count else { return false }
        var failed = Set<Int>()
        var steps = 0
        // Matches tokens `0...tokenIndex` so that they end at `end`, backwards; remembers failures.
        func match(_ tokenIndex: Int, end: Int) -> Bool {
            if tokenIndex < 0 { return end == 0 || path[end - 1] == UInt8(ascii: "/") }
            let state = tokenIndex * (path.count + 1) + end
            steps += 1
            guard steps <= Self.largestMatchSteps, !failed.contains(state) else { return false }
            let matched: Bool
            switch tokens[tokenIndex] {
            case .literal(let bytes):
                matched =
                    end >= bytes.count && path[(end - bytes.count)..<end].elementsEqual(bytes)
                    && match(tokenIndex - 1, end: end - bytes.count)
            case .digits(let least):
                var start = end
                while start > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(path[start - 1]) { start -= 1 }
                // Digits next to digits cannot be told apart: the shortest run that fits wins.
                matched =
                    end - start >= least
                    && (start...(end - least)).reversed().contains { match(tokenIndex - 1, end: $0) }
            }
            if !matched { failed.insert(state) }
            return matched
        }
        return match(tokens.count - 1, end: path.count)
    }
}
