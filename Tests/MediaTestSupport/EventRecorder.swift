import MediaEngine
import Synchronization

/// Records a player's events from the moment it is made, so a test can act first and assert
/// on the whole sequence afterwards.
public final class EventRecorder: Sendable {
    private let log = EventLog()
    private let task: Task<Void, Never>

    /// Starts recording `player`'s events.
    public init(_ player: MoviePlayer) {
        let events = player.events
        task = Task { [log] in
            for await event in events { log.append(event) }
        }
    }

    deinit { task.cancel() }

    /// Every event so far, in order.
    public var events: [PlayerEvent] { log.events }

    /// Waits until an event that matches `predicate` has been recorded (returns at once if one
    /// already was), failing after `limit`.
    public func waitFor(
        _ what: String = "the event", within limit: Duration = .seconds(10),
        _ predicate: @escaping @Sendable (PlayerEvent) -> Bool
    ) async throws {
        try await withDeadline(limit, what) { [log] in
            let id = log.newWaiterID()
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    log.notify(id, continuation, when: predicate)
                }
            } onCancel: {
                log.cancel(id)
            }
        }
    }

    /// Waits for the finish event and returns its reason and error.
    public func waitForFinish(within limit: Duration = .seconds(10)) async throws -> (FinishReason, MediaError?) {
        try await waitFor("playbackDidFinish", within: limit) { $0.finish != nil }
        return events.lazy.compactMap(\.finish).last!
    }
}

extension PlayerEvent {
    /// The reason and error of a finish event; nil for other events.
    public var finish: (FinishReason, MediaError?)? {
        if case .playbackDidFinish(let reason, let error) = self { return (reason, error) }
        return nil
    }

    /// The state of a playback-state event; nil for other events.
    public var playbackState: PlaybackState? {
        if case .playbackStateChanged(let state) = self { return state }
        return nil
    }
}

/// The recorded events and the waiters for future ones, under one lock.
private final class EventLog: Sendable {
    private struct Storage {
        var events: [PlayerEvent] = []
        var waiters:
            [(id: Int, predicate: @Sendable (PlayerEvent) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        var nextID = 0
        var cancelled: Set<Int> = []
    }

    private let storage = Mutex(Storage())

    var events: [PlayerEvent] { storage.withLock { $0.events } }

    // Continuations are resumed outside the lock: `cancel` runs in a cancellation handler,
    // under the runtime's task status lock, which resuming that task also needs.
    func append(_ event: PlayerEvent) {
        let ready = storage.withLock { storage in
            storage.events.append(event)
            var ready: [CheckedContinuation<Void, Never>] = []
            storage.waiters.removeAll { waiter in
                guard waiter.predicate(event) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    func newWaiterID() -> Int {
        storage.withLock { storage in
            storage.nextID += 1
            return storage.nextID
        }
    }

    func notify(
        _ id: Int, _ continuation: CheckedContinuation<Void, Never>,
        when predicate: @escaping @Sendable (PlayerEvent) -> Bool
    ) {
        let resumeNow = storage.withLock { storage in
            if storage.cancelled.contains(id) || storage.events.contains(where: predicate) { return true }
            storage.waiters.append((id, predicate, continuation))
            return false
        }
        if resumeNow { continuation.resume() }
    }

    /// Releases a waiter whose task was cancelled (its deadline passed).
    func cancel(_ id: Int) {
        let cancelled = storage.withLock { storage in
            storage.cancelled.insert(id)
            let index = storage.waiters.firstIndex { $0.id == id }
            return index.map { storage.waiters.remove(at: $0).continuation }
        }
        cancelled?.resume()
    }
}
