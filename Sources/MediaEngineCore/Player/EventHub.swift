import Dispatch

/// Fans events out to every subscriber's stream, in the order they are published.
final class EventHub: Sendable {
    private struct Subscribers {
        var next = 0
        var continuations: [Int: AsyncStream<PlayerEvent>.Continuation] = [:]
        var finished = false
    }

    private let subscribers = Locked(Subscribers())

    /// A new subscription that receives every event published from now on, keeping at most
    /// ``PlayerEvents/bufferLimit`` unread ones (the newest).
    func subscribe() -> PlayerEvents {
        let (stream, continuation) = AsyncStream.makeStream(
            of: PlayerEvent.self, bufferingPolicy: .bufferingNewest(PlayerEvents.bufferLimit))
        let id: Int? = subscribers.withLock { state in
            guard !state.finished else { return nil }
            let id = state.next
            state.next += 1
            state.continuations[id] = continuation
            return id
        }
        if let id {
            // Runs inside the subscriber task's cancellation, under the runtime's task status
            // lock; `publish` resumes tasks while holding `subscribers`. Removing the subscriber
            // on another thread keeps the two locks from waiting on each other.
            continuation.onTermination = { [weak self] _ in
                guard let hub = self else { return }
                DispatchQueue.global().async {
                    _ = hub.subscribers.withLock { $0.continuations.removeValue(forKey: id) }
                }
            }
        } else {
            continuation.finish()
        }
        return PlayerEvents(stream: stream)
    }

    /// Delivers `events` to every subscriber. Callers publish while holding the player's state
    /// lock, which is what keeps the order the same for every subscriber.
    func publish(_ events: [PlayerEvent]) {
        guard !events.isEmpty else { return }
        subscribers.withLock { state in
            for continuation in state.continuations.values {
                for event in events { continuation.yield(event) }
            }
        }
    }

    /// Ends every subscription; later subscriptions end at once.
    func finish() {
        let continuations = subscribers.withLock { state in
            state.finished = true
            defer { state.continuations.removeAll() }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
