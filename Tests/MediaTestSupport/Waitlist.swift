import MediaEngine

/// Tasks waiting for a condition on some other object's state. The owner calls ``recheck()``
/// after each change; waiting is cancellation-aware, so ``withDeadline(_:_:_:)`` can give up.
/// Continuations are always resumed outside the lock: a cancellation handler (which runs under
/// the Swift runtime's task lock) takes this lock, and resuming a task needs the runtime's.
public final class Waitlist: Sendable {
    private struct Waiter {
        let condition: @Sendable () -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var next = 0
        var waiters: [Int: Waiter] = [:]
        var cancelled: Set<Int> = []
    }

    private let state = Locked(State())

    /// Creates an empty waitlist.
    public init() {}

    /// Returns once `condition` holds (at once if it already does) or the task is cancelled.
    public func wait(until condition: @escaping @Sendable () -> Bool) async {
        let id = state.withLock { state in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.cancelled.contains(id) || condition() { return true }
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.cancelled.insert(id)
                return state.waiters.removeValue(forKey: id)
            }
            waiter?.continuation.resume()
        }
    }

    /// Resumes every waiter whose condition now holds.
    public func recheck() {
        let ready = state.withLock { state in
            let satisfied = state.waiters.filter { $0.value.condition() }
            for id in satisfied.keys { state.waiters.removeValue(forKey: id) }
            return satisfied.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }
}
