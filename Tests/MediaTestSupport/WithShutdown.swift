import MediaEngine

/// Runs `body`, then shuts `player` down whether `body` returned or threw, and only then returns
/// what `body` returned or throws what it threw.
///
/// For tests whose player draws into an X server of their own (``VirtualDisplay``): the server
/// goes when the test lets go of its display, a failed test included, and Xlib ends the whole
/// test process (and every test still running in it) when the server goes while ximagesink's
/// connection to it is open.
public func withShutdown<T>(
    of player: MoviePlayer, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
) async throws -> T {
    let outcome: Result<T, any Error>
    do {
        outcome = .success(try await body())
    } catch {
        outcome = .failure(error)
    }
    await player.shutdown()
    return try outcome.get()
}
