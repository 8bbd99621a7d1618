import Dispatch

/// Fans events out to every subscriber's stream, in the order they are published: a player's
/// events, and a playback group's (`PlaybackSync`).
package final class EventHub<Event: Sendable>: Sendable {
    private struct Subscribers {
        var next = 0
        var continuations: [Int: AsyncStream<Event>.Continuation] = [:]
        var finished = false
    }

    private let subscribers = Locked(Subscribers())
    private let bufferLimit: Int

    /// A hub whose subscriptions keep at most `bufferLimit` unread events each (the newest).
    package init(bufferLimit: Int) {
        self.bufferLimit = bufferLimit
    }

    /// A new subscription that receives every event published from now on.
    package func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Event.self, bufferingPolicy: .bufferingNewest(bufferLimit))
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
        return stream
    }

    /// Delivers `events` to every subscriber. A player publishes while holding its state lock,
    /// which is what keeps the order the same for every subscriber.
    package func publish(_ events: [Event]) {
        guard !events.isEmpty else { return }
        subscribers.withLock { state in
            for continuation in state.continuations.values {
                for event in events { continuation.yield(event) }
            }
        }
    }

    /// Delivers one event to every subscriber.
    package func publish(_ event: Event) {
        publish([event])
    }

    /// Ends every subscription; later subscriptions end at once.
    package func finish() {
        let continuations = subscribers.withLock { state in
            state.finished = true
            defer { state.continuations.removeAll() }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
