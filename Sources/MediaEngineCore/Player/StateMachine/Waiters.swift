/// The commands waiting for an outcome (``PlayerMachine/WaiterKind``), by the id each was given.
/// Its state is its own: the machine adds waiters and takes those an outcome completes.
struct Waiters {
    private var entries: [(id: Int, kind: PlayerMachine.WaiterKind)] = []
    private var lastID = 0

    /// What the waiters wait for, oldest first (for diagnostics and tests).
    var kinds: [PlayerMachine.WaiterKind] { entries.map(\.kind) }

    /// Registers a waiter and returns its id.
    mutating func add(_ kind: PlayerMachine.WaiterKind) -> Int {
        lastID += 1
        entries.append((lastID, kind))
        return lastID
    }

    /// Takes the waiters `matches` selects, oldest first, and returns their ids.
    mutating func take(where matches: (PlayerMachine.WaiterKind) -> Bool) -> [Int] {
        var taken: [Int] = []
        entries.removeAll { entry in
            guard matches(entry.kind) else { return false }
            taken.append(entry.id)
            return true
        }
        return taken
    }

    /// Takes waiter `id`; false when it is not waiting (completed already).
    mutating func take(id: Int) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.remove(at: index)
        return true
    }
}

extension PlayerMachine {
    /// What a waiting command waits for.
    enum WaiterKind: Equatable, Sendable {
        /// The end of a preparation.
        case prepared
        /// The playback state reaching this value.
        case playbackState(PlaybackState)
        /// Every seek asked for so far has landed (coalesced seeks land with the last one).
        case seeksSettled
        /// The video output was swapped for another.
        case outputSwapped
        /// The pre-roll ended (``Shown/lastPrerollEnd`` says how).
        case prerollEnded
    }
}

extension PlayerMachine.State {
    /// Registers a waiter; it is completed by a ``PlayerMachine/Action/resume(waiter:_:)`` exactly once.
    mutating func addWaiter(_ kind: WaiterKind) -> Int {
        waiters.add(kind)
    }

    /// Completes every waiter `matches` selects with `result`.
    mutating func resolveWaiters(_ result: Result<Void, MediaError>, where matches: (WaiterKind) -> Bool) {
        for id in waiters.take(where: matches) {
            perform(.resume(waiter: id, Completion(result)))
        }
    }

    /// Completes every waiter of exactly this kind.
    mutating func resolveWaiters(_ kind: WaiterKind, _ result: Result<Void, MediaError> = .success(())) {
        resolveWaiters(result) { $0 == kind }
    }

    /// Fails one waiter with ``MediaError/Code/cancelled`` (its task was cancelled).
    mutating func cancelWaiter(_ id: Int) {
        guard waiters.take(id: id) else { return }
        perform(.resume(waiter: id, .failure(MediaError(.cancelled, "the waiting task was cancelled"))))
    }

    /// Completes every `play()`/`pause()` still waiting: a later command has replaced them.
    mutating func supersedeStateWaiters() {
        resolveWaiters(.success(())) { kind in
            if case .playbackState = kind { return true }
            return false
        }
    }

    mutating func resolveSeekWaiters(_ result: Result<Void, MediaError> = .success(())) {
        resolveWaiters(result) { $0 == .seeksSettled }
    }

    mutating func failWaiters(_ error: MediaError) {
        resolveWaiters(.failure(error)) { _ in true }
    }
}
