/// One answer of an HTTP server, as the engine's HTTP source element reported it (souphttpsrc's
/// `http-headers` message): what was asked, where redirects led, the status and the headers.
/// URIs never carry user information (see ``MediaError``'s promise that credentials never appear).
public struct HTTPResponse: Sendable, Hashable {
    /// The URI that was requested.
    public var uri: String
    /// Where the server's redirects led, when they did.
    public var redirectedURI: String?
    /// The HTTP status; 0 when no answer came (the connection failed).
    public var statusCode: Int
    /// The response headers, names in lower case (`content-type`, `www-authenticate`).
    public var headers: [String: String]

    /// Creates a response.
    /// - Parameters:
    ///   - uri: The URI that was requested.
    ///   - redirectedURI: Where redirects led, if they did.
    ///   - statusCode: The HTTP status, or 0 for no answer.
    ///   - headers: The response headers (names are stored in lower case).
    public init(uri: String, redirectedURI: String? = nil, statusCode: Int, headers: [String: String] = [:]) {
        self.uri = URIRedaction.removingUserInfo(uri)
        self.redirectedURI = redirectedURI.map(URIRedaction.removingUserInfo)
        self.statusCode = statusCode
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
    }

    /// The URI the content came from: the end of the redirects, or the one requested.
    public var finalURI: String { redirectedURI ?? uri }

    /// Whether the server answered at all.
    public var isAnswered: Bool { statusCode > 0 }

    /// A response header's value.
    /// - Parameter name: The header's name, in any case.
    /// - Returns: Its value, or nil.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
