/// Keeps credentials out of everything the engine reports: a URI's user information
/// (`https://user:password@host/...`) is removed from URIs, error messages, debug details, events
/// and log entries before any of them leaves the engine.
package enum URIRedaction {
    /// The URI without its user information: `https://user:pw@host/a` becomes `https://host/a`.
    /// A string that is not a URI with an authority comes back unchanged.
    /// - Parameter uri: The URI.
    /// - Returns: The URI with no user information.
    package static func removingUserInfo(_ uri: String) -> String {
        redacting(uri)
    }

    /// Removes the user information of every URI in a text (GStreamer's messages quote the URI
    /// they failed on).
    /// - Parameter text: Any text.
    /// - Returns: The text, each `scheme://userinfo@` turned into `scheme://`.
    package static func redacting(_ text: String) -> String {
        guard text.contains("@"), text.contains("://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let separator = rest.range(of: "://") {
            result += rest[..<separator.upperBound]
            rest = rest[separator.upperBound...]
            // The authority ends at the first '/', '?', '#' or whitespace; user information is
            // everything up to its last '@'.
            let authorityEnd =
                rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" || $0.isWhitespace || $0 == "\"" }
                ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                rest = rest[rest.index(after: at)...]
            }
        }
        return result + rest
    }
}
