/// A video sink named with its options in one string, as a command line gives it:
/// `NAME[:key=value,key=value,...]`, for example `images:folder=/tmp/shots,times=1,2.5,4`.
///
/// A piece without `=` continues the value before it, so a value can hold commas
/// (`times=1,2.5,4` is one option). Keys are letters, digits, `-` and `_`.
public struct VideoSinkSpecification: Sendable, Hashable {
    /// The sink's registered name.
    public var name: String
    /// Its options, by key.
    public var options: [String: String]

    /// A name and options.
    /// - Parameters:
    ///   - name: The registered name.
    ///   - options: Options the sink understands.
    public init(name: String, options: [String: String] = [:]) {
        self.name = name
        self.options = options
    }

    /// Reads `NAME[:key=value,...]`.
    /// - Parameter text: The specification.
    /// - Throws: ``MediaError/Code/invalidArgument`` for an empty or malformed name, an option before any
    ///   `key=`, an empty or malformed key, or a key given twice.
    public init(parsing text: String) throws(MediaError) {
        let colon = text.firstIndex(of: ":")
        let name = String(text[..<(colon ?? text.endIndex)])
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw MediaError(.invalidArgument, "'\(text)' names no video sink (NAME[:key=value,...])")
        }
        var options: [String: String] = [:]
        var lastKey: String?
        if let colon, colon < text.index(before: text.endIndex) {
            for piece in text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false) {
                guard let equals = piece.firstIndex(of: "=") else {
                    guard let key = lastKey else {
                        throw MediaError(.invalidArgument, "sink option '\(piece)' in '\(text)' is not key=value")
                    }
                    options[key, default: ""] += "," + piece
                    continue
                }
                let key = String(piece[..<equals])
                guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                    throw MediaError(.invalidArgument, "sink option '\(piece)' in '\(text)' has no valid key")
                }
                guard options[key] == nil else {
                    throw MediaError(.invalidArgument, "sink option \(key)= is given twice in '\(text)'")
                }
                options[key] = String(piece[piece.index(after: equals)...])
                lastKey = key
            }
        }
        self.init(name: name, options: options)
    }
}

extension VideoSinkRegistry {
    /// Makes the sink a specification names, with its options.
    /// - Parameter specification: `NAME[:key=value,...]` read by ``VideoSinkSpecification/init(parsing:)``.
    /// - Returns: The sink.
    /// - Throws: The specification's, the registry's or the sink factory's ``MediaError``.
    public func makeSink(specification: String) throws(MediaError) -> any VideoSink {
        let parsed = try VideoSinkSpecification(parsing: specification)
        return try makeSink(named: parsed.name, options: parsed.options)
    }
}
