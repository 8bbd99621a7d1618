/// Where a credential applies: MPMoviePlayerController's (and URLProtectionSpace's) protection
/// space. A server names a realm and an authentication method in its 401 challenge; a stored
/// credential answers challenges of exactly that host, port, scheme, realm and method.
public struct ProtectionSpace: Sendable, Hashable, CustomStringConvertible {
    /// How a server wants credentials sent.
    public enum Method: String, Sendable, Hashable, CustomStringConvertible {
        /// HTTP Basic (RFC 7617).
        case basic
        /// HTTP Digest (RFC 7616).
        case digest
        /// The method's name, as in a `WWW-Authenticate` header.
        public var description: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
    }

    /// The server's host name or address, in lower case.
    public var host: String
    /// The server's port.
    public var port: Int
    /// `http` or `https`.
    public var scheme: String
    /// The realm the server named in its challenge.
    public var realm: String
    /// The authentication method.
    public var method: Method

    /// Creates a protection space.
    /// - Parameters:
    ///   - host: The host name or address.
    ///   - port: The port; nil for the scheme's default (80 or 443).
    ///   - scheme: `http` or `https`.
    ///   - realm: The realm.
    ///   - method: The authentication method.
    public init(host: String, port: Int? = nil, scheme: String, realm: String, method: Method) {
        self.host = host.lowercased()
        self.scheme = scheme.lowercased()
        self.port = port ?? (self.scheme == "https" ? 443 : 80)
        self.realm = realm
        self.method = method
    }

    /// `Basic "realm" at http://host:port`.
    public var description: String { "\(method) \"\(realm)\" at \(scheme)://\(host):\(port)" }
}
