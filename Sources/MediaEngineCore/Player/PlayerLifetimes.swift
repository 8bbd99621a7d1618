import Dispatch

/// What still runs in the process on behalf of players: players not yet torn down, their own
/// threads, and bus threads. A released player tears its pipeline down on its own thread, a
/// moment after its owner let go; ``GStreamer/waitForPlayersToShutDown(timeout:)`` (for leak
/// checks) waits for all of it.
enum PlayerLifetimes {
    /// Entered when a player is made, left when its core is freed (after release, once its
    /// pipelines are torn down and nothing holds its outputs any more).
    static let players = DispatchGroup()
    /// Entered when a player's thread starts, left when it has run its last work.
    static let executors = DispatchGroup()
    /// Entered when a bus thread starts, left when it has ended its loop and let go of its context.
    static let busThreads = DispatchGroup()
    /// Entered when a pipeline is handed to the teardown thread (``PipelineTeardown``), left once it is at NULL.
    static let teardowns = DispatchGroup()

    /// Waits for every player, player thread, bus thread and teardown to be gone, until `deadline`.
    /// - Returns: Whether they were all gone in time.
    static func waitForAll(until deadline: DispatchTime) -> Bool {
        players.wait(timeout: deadline) == .success && executors.wait(timeout: deadline) == .success
            && busThreads.wait(timeout: deadline) == .success && teardowns.wait(timeout: deadline) == .success
    }
}
