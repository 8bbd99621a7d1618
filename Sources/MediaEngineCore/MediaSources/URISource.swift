/// Any URI GStreamer can open, with no checks of its own: the fallback for schemes no
/// dedicated source handles. Prefer `FileSource` for files, which refuses bad input early.
public struct URISource: MediaSource {
    /// The URI, as given.
    public let uri: String
    /// `.file` for `file:` URIs; `.unknown` for `http:` and `https:` until the content says
    /// (a progressive download is a file, an HLS or DASH manifest a stream); `.streaming`
    /// for the other schemes (`rtsp:`, `udp:`, ...).
    public var sourceType: MovieSourceType {
        let lowered = uri.lowercased()
        if lowered.hasPrefix("file:") { return .file }
        return lowered.hasPrefix("http:") || lowered.hasPrefix("https:") ? .unknown : .streaming
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
