import Foundation

/// A server's demand for credentials: a 401 (or a proxy's 407) answer and the protection space
/// its `WWW-Authenticate` header names. The player hands it to its source
/// (``MediaSource/answering(_:)``), which may answer it once with a credential.
public struct AuthenticationChallenge: Sendable, Hashable {
    /// Where a credential for this challenge applies.
    public var protectionSpace: ProtectionSpace
    /// Whether a proxy asked (407) rather than the server (401).
    public var isProxy: Bool
    /// The URI that was refused (no user information).
    public var uri: String

    /// Creates a challenge.
    /// - Parameters:
    ///   - protectionSpace: Where a credential applies.
    ///   - isProxy: Whether a proxy asked.
    ///   - uri: The refused URI.
    public init(protectionSpace: ProtectionSpace, isProxy: Bool = false, uri: String) {
        self.protectionSpace = protectionSpace
        self.isProxy = isProxy
        self.uri = uri
    }

    /// The challenge in a 401 or 407 response, or nil when the response is not one or names no
    /// method the engine's HTTP client can answer (Basic or Digest; Digest preferred when a
    /// server offers both, as libsoup does).
    /// - Parameter response: The server's answer.
    public init?(_ response: HTTPResponse) {
        guard response.statusCode == 401 || response.statusCode == 407 else { return nil }
        let isProxy = response.statusCode == 407
        guard let header = response.header(isProxy ? "proxy-authenticate" : "www-authenticate"),
            let url = URLComponents(string: response.finalURI), let scheme = url.scheme, let host = url.host,
            !host.isEmpty
        else { return nil }
        let offers = Self.challenges(in: header)
        guard
            let chosen = offers.first(where: { $0.method == .digest }) ?? offers.first(where: { $0.method == .basic })
        else { return nil }
        self.init(
            protectionSpace: ProtectionSpace(
                host: host, port: url.port, scheme: scheme, realm: chosen.realm, method: chosen.method),
            isProxy: isProxy, uri: response.finalURI)
    }

    /// The challenges in a `WWW-Authenticate` value: `Digest realm="a", nonce="b", Basic realm="c"`.
    /// Tolerant of whatever a server sends: unknown schemes are skipped, a challenge with no
    /// realm has the empty realm.
    static func challenges(in header: String) -> [(method: ProtectionSpace.Method, realm: String)] {
        var result: [(ProtectionSpace.Method, String)] = []
        var current: (scheme: String, realm: String)?
        func finish() {
            guard let current, let method = ProtectionSpace.Method(rawValue: current.scheme.lowercased()) else {
                return
            }
            result.append((method, current.realm))
        }
        var scanner = Substring(header)
        while !scanner.isEmpty {
            scanner = scanner.drop { $0 == " " || $0 == "," || $0 == "\t" }
            let token = scanner.prefix { $0 != " " && $0 != "," && $0 != "=" && $0 != "\t" }
            guard !token.isEmpty else {
                scanner = scanner.dropFirst()
                continue
            }
            scanner = scanner.dropFirst(token.count)
            let afterSpaces = scanner.drop { $0 == " " || $0 == "\t" }
            if afterSpaces.first == "=" {
                // An auth-param: name=token or name="quoted string".
                var value = afterSpaces.dropFirst().drop { $0 == " " || $0 == "\t" }
                let text: Substring
                if value.first == "\"" {
                    value = value.dropFirst()
                    var end = value.startIndex
                    var escaped = false
                    while end < value.endIndex, escaped || value[end] != "\"" {
                        escaped = !escaped && value[end] == "\\"
                        end = value.index(after: end)
                    }
                    text = value[..<end]
                    scanner = end < value.endIndex ? value[value.index(after: end)...] : value[end...]
                } else {
                    text = value.prefix { $0 != "," }
                    scanner = value.dropFirst(text.count)
                }
                if token.lowercased() == "realm", current != nil {
                    current?.realm = text.replacingOccurrences(of: "\\\"", with: "\"")
                }
            } else {
                // A new scheme.
                finish()
                current = (String(token), "")
                scanner = afterSpaces
            }
        }
        finish()
        return result
    }
}
