import MediaEngine

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
        try await withEventsOnTimeout {
            try await withDeadline(limit, what) { [log] in
                await log.wait(for: predicate)
            }
        }
    }

    /// Waits until the events so far satisfy `condition` (failing after `limit`).
    public func waitUntil(
        _ what: String, within limit: Duration = .seconds(10), _ condition: @escaping @Sendable ([PlayerEvent]) -> Bool
    ) async throws {
        try await withEventsOnTimeout {
            try await withDeadline(limit, what) { [log] in
                await log.wait(until: condition)
            }
        }
    }

    /// Runs a wait; a timeout's report ends with the last events recorded.
    private func withEventsOnTimeout(_ wait: () async throws -> Void) async throws {
        do {
            try await wait()
        } catch var timeout as DeadlineExceeded {
            timeout.details = "the last events: \(events.suffix(30))"
            throw timeout
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

/// The recorded events, and the tasks waiting for one.
private final class EventLog: Sendable {
    private let storage = Locked<[PlayerEvent]>([])
    private let waitlist = Waitlist()

    var events: [PlayerEvent] { storage.withLock { $0 } }

    func append(_ event: PlayerEvent) {
        storage.withLock { $0.append(event) }
        waitlist.recheck()
    }

    func wait(for predicate: @escaping @Sendable (PlayerEvent) -> Bool) async {
        await waitlist.wait { self.events.contains(where: predicate) }
    }

    func wait(until condition: @escaping @Sendable ([PlayerEvent]) -> Bool) async {
        await waitlist.wait { condition(self.events) }
    }
}
