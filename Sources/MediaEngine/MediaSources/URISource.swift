/// Any URI GStreamer can open, with no checks of its own: the fallback for schemes no
/// dedicated source handles. Prefer `FileSource` for files, which refuses bad input early.
public struct URISource: MediaSource {
    /// The URI, as given.
    public let uri: String
    /// `.file` for `file:` URIs, `.streaming` otherwise.
    public var sourceType: MovieSourceType {
        uri.lowercased().hasPrefix("file:") ? .file : .streaming
    }
    /// Properties for the source element.
    public var settings: SourceSettings

    /// Creates a source for a URI.
    /// - Parameters:
    ///   - uri: The URI to open; it must already be escaped.
    ///   - settings: Properties for the source element.
    public init(uri: String, settings: SourceSettings = SourceSettings()) {
        self.uri = uri
        self.settings = settings
    }

    /// Refuses strings that are not URIs.
    /// - Throws: ``MediaError/Code/invalidArgument``.
    public func validate() throws(MediaError) {
        guard let colon = uri.firstIndex(of: ":"), colon != uri.startIndex,
            uri[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        else {
            throw MediaError(.invalidArgument, "'\(uri)' is not a URI")
        }
    }
}
