import MediaEngineCore

/// Values handed from threads of the engine's own to one waiting task, in order: the task
/// suspends (never blocks) until a value is posted, the mailbox is closed, or it is cancelled.
final class Mailbox<Value: Sendable>: Sendable {
    private struct State {
        var items: [Value] = []
        var waiter: CheckedContinuation<Value?, Never>?
        var closed = false
    }

    private let state = Locked(State())

    /// Hands `value` to the waiting task, or keeps it for the next ``next()``. Any thread.
    func post(_ value: Value) {
        let waiter = state.withLock { state -> CheckedContinuation<Value?, Never>? in
            guard !state.closed else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.items.append(value)
            return nil
        }
        waiter?.resume(returning: value)
    }

    /// Ends the mailbox: the waiting task and every later ``next()`` get nil once the values
    /// posted before are taken.
    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<Value?, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next value, or nil once closed (or when the calling task is cancelled).
    func next() async -> Value? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                let ready: Value?? = state.withLock { state in
                    if !state.items.isEmpty { return .some(state.items.removeFirst()) }
                    if state.closed || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if case .some(let value) = ready { continuation.resume(returning: value) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Value?, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
