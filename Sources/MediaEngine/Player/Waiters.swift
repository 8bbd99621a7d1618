import Synchronization

/// Commands waiting for the pipeline: each waits for one kind of outcome and is completed
/// (or failed, or cancelled) exactly once, under the player's lock.
struct Waiters {
    typealias Completion = CheckedContinuation<Result<Void, MediaError>, Never>

    /// What a waiter waits for.
    enum Kind: Equatable {
        /// The end of a preparation.
        case prepared
        /// The playback state reaching this value.
        case playbackState(PlaybackState)
        /// Every seek asked for so far has landed (coalesced seeks land with the last one).
        case seeksSettled
        /// The video output was swapped for another.
        case outputSwapped
    }

    private var entries: [(id: Int, kind: Kind, completion: Completion)] = []
    private var nextID = 0

    /// Adds a waiter and returns its id, for cancelling it.
    mutating func add(_ kind: Kind, _ completion: Completion) -> Int {
        nextID += 1
        entries.append((nextID, kind, completion))
        return nextID
    }

    /// The kinds waited for, for diagnostics.
    var kinds: [Kind] { entries.map(\.kind) }

    /// Whether a waiter of a kind `matches` selects exists.
    func contains(where matches: (Kind) -> Bool) -> Bool {
        entries.contains { matches($0.kind) }
    }

    /// Completes every waiter `matches` selects with `result`.
    mutating func resolve(_ result: Result<Void, MediaError>, where matches: (Kind) -> Bool) {
        entries.removeAll { entry in
            guard matches(entry.kind) else { return false }
            entry.completion.resume(returning: result)
            return true
        }
    }

    /// Completes every waiter of exactly this kind.
    mutating func resolve(_ kind: Kind, _ result: Result<Void, MediaError> = .success(())) {
        resolve(result) { $0 == kind }
    }

    /// Fails one waiter with ``MediaError/Code/cancelled`` (its task was cancelled).
    mutating func cancel(id: Int) {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
        entries.remove(at: index).completion.resume(
            returning: .failure(MediaError(.cancelled, "the waiting task was cancelled")))
    }
}

/// The id of a registered waiter, shared with the task's cancellation handler.
final class WaitTicket: Sendable {
    private let value = Atomic<Int>(0)
    var id: Int? {
        get {
            let id = value.load(ordering: .acquiring)
            return id == 0 ? nil : id
        }
        set { value.store(newValue ?? 0, ordering: .releasing) }
    }
}
