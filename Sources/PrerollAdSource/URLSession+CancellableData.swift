import Foundation
import MediaEngineCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// What `data(for:)` does, made safe to cancel at any moment.
    ///
    /// FoundationNetworking's own `data(for:)` can deadlock when its task is cancelled while the
    /// transfer ends (swift-corelibs-foundation#5412, in Swift 6.3's toolchain): the cancelling
    /// thread holds the Swift task's lock and calls `URLSessionTask.cancel()`, which waits for
    /// the session's queue, while that queue, finishing the transfer, resumes the task and waits
    /// for the same lock. Both threads stop for good, and when they are Swift's cooperative
    /// threads every task of the process stops with them. Here the cancellation handler only
    /// asks a queue of this file's to cancel the transfer, so it holds nothing while it waits.
    /// - Parameter request: The request.
    /// - Returns: The body and the response.
    /// - Throws: The transfer's error; `URLError.cancelled` when the calling task was cancelled.
    func cancellableData(for request: URLRequest) async throws -> (Data, URLResponse) {
        let transfer = CancellableTransfer()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                // Even when cancelled already, the task runs and is cancelled at once: its handler
                // then resumes the continuation, and the session (which registered the task when
                // it was made) is not left waiting for a task that never ends.
                let cancelledFirst = transfer.start(task)
                task.resume()
                if cancelledFirst { CancellableTransfer.cancel(task) }
            }
        } onCancel: {
            transfer.cancel()
        }
    }
}

/// One transfer of ``Foundation/URLSession/cancellableData(for:)`` and its cancellation, which
/// may come before the transfer exists, while it runs, or after it ended (cancelling a finished
/// `URLSessionTask` changes nothing).
private final class CancellableTransfer: Sendable {
    private enum State {
        case waiting
        case running(URLSessionDataTask)
        case cancelled
    }

    /// Where transfers are cancelled: a serial queue (its threads are not Swift's cooperative
    /// ones), because `URLSessionTask.cancel()` waits for the session's queue.
    private static let cancelling = DispatchQueue(label: "swift-media-engine.url-transfer-cancel")

    private let state = Locked(State.waiting)

    /// Records the transfer; true when it was cancelled before it existed (the caller cancels it).
    func start(_ task: URLSessionDataTask) -> Bool {
        state.withLock { state in
            guard case .waiting = state else { return true }
            state = .running(task)
            return false
        }
    }

    /// Cancels the transfer, or marks it to be cancelled as soon as it exists.
    func cancel() {
        let running = state.withLock { state -> URLSessionDataTask? in
            defer { state = .cancelled }
            if case .running(let task) = state { return task }
            return nil
        }
        if let running { Self.cancel(running) }
    }

    /// Cancels `task` on ``cancelling``.
    static func cancel(_ task: URLSessionDataTask) {
        cancelling.async { task.cancel() }
    }
}
