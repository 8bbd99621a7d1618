/// A pre-roll's commands. Its pipeline's messages are the machine's to route: while a pre-roll
/// plays, they are its inputs, not the content's.
extension PlayerCore {
    /// Plays `items` before the content and returns how the last one ended (see
    /// ``PlayerMachine/State/beginPreroll(_:playsContentAfter:timeout:)``); `observer` hears how
    /// each item goes, on the player's thread.
    func playPreroll(
        _ items: [any MediaSource], playsContentAfter: Bool, timeout: Duration,
        observer: @escaping PlayerMachine.PrerollObserver
    ) async throws(MediaError) -> PrerollEnd {
        try await wait {
            $0.beginPreroll(items, playsContentAfter: playsContentAfter, timeout: timeout)
        } waiting: { owned in
            owned.prerollObserver = observer
        }
        return read { $0.lastPrerollEnd } ?? .stopped
    }

    func skipPreroll() -> Bool {
        let position = currentPrerollPosition
        return apply { $0.skipPreroll(position: position) }
    }

    func resumePreroll() {
        apply { $0.resumePreroll() }
    }

    /// The pre-roll's pipeline position (a thread-safe query).
    private var currentPrerollPosition: Duration? {
        state.withLock { $0.machine.preroll != nil ? $0.session : nil }?.position
    }
}
