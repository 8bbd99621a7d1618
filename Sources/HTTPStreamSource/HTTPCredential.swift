/// A user name and password for a protected stream (HTTP Basic or Digest).
///
/// Its `description` never shows the password, and the engine never puts either in a log line,
/// an error, an event or a URI it reports.
public struct HTTPCredential: Sendable, Hashable, CustomStringConvertible {
    /// The user name.
    public var user: String
    /// The password.
    public var password: String

    /// Creates a credential.
    /// - Parameters:
    ///   - user: The user name.
    ///   - password: The password.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// `credential for <user>`; the password is never printed.
    public var description: String { "credential for \(user)" }
}
