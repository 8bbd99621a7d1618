import Dispatch

/// Timed metadata's clock: the machine says when the next item falls due (in wall time, from
/// the position and the rate); a one-shot timer then hands a look at the position to the
/// player's thread, and the machine hands out what is due. Playback changes (play, pause, seek,
/// rate) look at once.
extension PlayerCore {
    /// Arms the timer of ``PlayerMachine/Action/scheduleTimedMetadata(session:after:)``, replacing
    /// the previous one. Under the lock.
    func scheduleTimedMetadataTick(session id: Int, after wait: Duration, owned: inout Owned) {
        owned.timedMetadataTimer?.cancel()
        owned.timedMetadataTimer = executor.enqueue(after: wait) { [weak self] in
            self?.timedMetadataTick(session: id)
        }
    }

    /// Playback changed: hands out what is due now and re-arms the timer, on the player's thread,
    /// when items wait. Only enqueues (called under the lock).
    func lookAtTimedMetadata() {
        executor.enqueue { [weak self] in
            guard let self, let id = read({ $0.hasPendingTimedMetadata ? $0.currentSession : nil }) else { return }
            timedMetadataTick(session: id)
        }
    }

    /// Reads the position and lets the machine hand out what is due. On the player's thread.
    func timedMetadataTick(session id: Int) {
        guard let session = state.withLock({ $0.session?.id == id ? $0.session : nil }) else { return }
        let position = session.position
        apply { $0.timedMetadataTick(session: id, position: position) }
    }
}
