import Dispatch

/// What still runs in the process on behalf of players: players not yet shut down, and bus
/// threads not yet ended. A player can outlive its owner's last reference by a moment (its
/// notification forwarder or an event callback may hold it while the owner lets go, and then
/// the player shuts down on that thread), and a bus thread that detached itself ends a moment
/// after its player. ``GStreamer/waitForPlayersToShutDown(timeout:)`` waits for both.
enum PlayerLifetimes {
    /// Entered when a player is made, left when its deinit has shut its pipeline down.
    static let players = DispatchGroup()
    /// Entered when a bus thread starts, left when it has ended its loop and let go of its context.
    static let busThreads = DispatchGroup()

    /// Waits for every player and bus thread to be gone, until `deadline`.
    /// - Returns: Whether they were all gone in time.
    static func waitForAll(until deadline: DispatchTime) -> Bool {
        players.wait(timeout: deadline) == .success && busThreads.wait(timeout: deadline) == .success
    }
}
