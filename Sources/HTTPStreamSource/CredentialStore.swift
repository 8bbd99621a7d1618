import MediaEngineCore
import Synchronization

/// Credentials kept for protection spaces (host, port, scheme, realm, authentication method),
/// as MPMoviePlayerController uses the URL credential storage: store a credential for the
/// space a server challenges with, and "you can then play the protected stream".
///
/// An ``HTTPStreamSource`` consults its store when a server answers 401 with a challenge, and
/// sends the credential stored for exactly that space, once. A credential given to the source
/// itself (``HTTPStreamOptions/credential``) overrides the store.
///
/// Thread-safe: every method may be called from any thread or task. A stored password never
/// appears in the engine's log (`MediaEngineLog`): it is redacted from the moment it is stored.
public final class CredentialStore: Sendable {
    /// The store sources use unless told otherwise.
    public static let shared = CredentialStore()

    private let credentials = Mutex<[ProtectionSpace: HTTPCredential]>([:])

    /// Creates an empty store.
    public init() {}

    /// Stores a credential for a protection space, replacing any stored for it.
    /// - Parameters:
    ///   - credential: The user name and password.
    ///   - space: Where it applies.
    public func set(_ credential: HTTPCredential, for space: ProtectionSpace) {
        // Never in the engine's log, from now on (MediaEngineLog).
        LogRedaction.register(secret: credential.password)
        credentials.withLock { $0[space] = credential }
    }

    /// The credential stored for a protection space.
    /// - Parameter space: The space.
    /// - Returns: The credential, or nil.
    public func credential(for space: ProtectionSpace) -> HTTPCredential? {
        credentials.withLock { $0[space] }
    }

    /// Removes the credential of a protection space.
    /// - Parameter space: The space.
    public func remove(for space: ProtectionSpace) {
        credentials.withLock { $0[space] = nil }
    }

    /// Removes every credential.
    public func removeAll() {
        credentials.withLock { $0.removeAll() }
    }
}
