import MediaEngineCore
import Synchronization

/// The ad session playing in each player, for the commands that act on it (skip, click-through):
/// kept here, by the player's identity, for as long as the `playPrerollAd` call that made it
/// runs (which holds the player, so its identity is not reused meanwhile).
enum PrerollAdSessions {
    private static let sessions = Mutex<[ObjectIdentifier: PrerollAdSession]>([:])

    /// The session playing in `player`, if any.
    static func session(of player: MoviePlayer) -> PrerollAdSession? {
        sessions.withLock { $0[ObjectIdentifier(player)] }
    }

    /// `session` plays in `player` until ``end(_:in:)``.
    static func begin(_ session: PrerollAdSession, in player: MoviePlayer) {
        sessions.withLock { $0[ObjectIdentifier(player)] = session }
    }

    /// `session` no longer plays in `player` (another one that replaced it stays).
    static func end(_ session: PrerollAdSession, in player: MoviePlayer) {
        sessions.withLock { table in
            if table[ObjectIdentifier(player)] === session { table[ObjectIdentifier(player)] = nil }
        }
    }
}
