import Foundation
import MediaEngineCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// What `data(for:)` does, made safe to cancel at any moment, and never blocking the
    /// calling thread.
    ///
    /// FoundationNetworking's own `data(for:)` can deadlock when its task is cancelled while the
    /// transfer ends (swift-corelibs-foundation#5412, in Swift 6.3's toolchain): the cancelling
    /// thread holds the Swift task's lock and calls `URLSessionTask.cancel()`, which waits for
    /// the session's queue, while that queue, finishing the transfer, resumes the task and waits
    /// for the same lock. Both threads stop for good, and when they are Swift's cooperative
    /// threads every task of the process stops with them. Here the cancellation handler only
    /// asks `queue` to cancel the transfer, so it holds nothing while it waits.
    ///
    /// Making the task and starting it wait for the session's queue too (`dataTask(with:)` and
    /// `resume()` are `sync` calls on it in FoundationNetworking), so they also run on `queue`:
    /// on a cooperative thread, that wait held up every other task of the process (seen: a
    /// 10 ms sleep ending 0.85 s late while many transfers started at once).
    /// - Parameters:
    ///   - request: The request.
    ///   - queue: A serial queue of the caller's, not Swift's cooperative threads, where the
    ///     transfer is made, started and cancelled.
    /// - Returns: The body and the response.
    /// - Throws: The transfer's error; `URLError.cancelled` when the calling task was cancelled.
    func cancellableData(for request: URLRequest, on queue: DispatchQueue) async throws -> (Data, URLResponse) {
        let transfer = CancellableTransfer(queue: queue)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async { [self] in
                    let task = dataTask(with: request) { data, response, error in
                        if let error {
                            continuation.resume(throwing: error)
                        } else if let response {
                            continuation.resume(returning: (data ?? Data(), response))
                        } else {
                            continuation.resume(throwing: URLError(.badServerResponse))
                        }
                    }
                    // Even when cancelled already, the task runs and is cancelled at once: its
                    // handler then resumes the continuation, and the session (which registered
                    // the task when it was made) is not left waiting for a task that never ends.
                    let cancelledFirst = transfer.start(task)
                    task.resume()
                    if cancelledFirst { task.cancel() }
                }
            }
        } onCancel: {
            transfer.cancel()
        }
    }
}

/// One transfer of ``Foundation/URLSession/cancellableData(for:on:)`` and its cancellation, which
/// may come before the transfer exists, while it runs, or after it ended (cancelling a finished
/// `URLSessionTask` changes nothing).
private final class CancellableTransfer: Sendable {
    private enum State {
        case waiting
        case running(URLSessionDataTask)
        case cancelled
    }

    /// Where the transfer is made, started and cancelled: a serial queue (its threads are not
    /// Swift's cooperative ones), because each of those waits for the session's queue.
    private let queue: DispatchQueue
    private let state = Locked(State.waiting)

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Records the transfer; true when it was cancelled before it existed (the caller cancels it).
    func start(_ task: URLSessionDataTask) -> Bool {
        state.withLock { state in
            guard case .waiting = state else { return true }
            state = .running(task)
            return false
        }
    }

    /// Cancels the transfer on the queue, or marks it to be cancelled as soon as it exists.
    func cancel() {
        let running = state.withLock { state -> URLSessionDataTask? in
            defer { state = .cancelled }
            if case .running(let task) = state { return task }
            return nil
        }
        if let running { queue.async { running.cancel() } }
    }
}
