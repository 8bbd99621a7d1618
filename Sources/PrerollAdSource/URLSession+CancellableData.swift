import Foundation
import Synchronization

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
                if transfer.start(task) {
                    task.resume()
                } else {
                    // Cancelled before it started: it never runs, and its handler is never called.
                    continuation.resume(throwing: URLError(.cancelled))
                }
            }
        } onCancel: {
            transfer.cancel()
        }
    }
}

/// One transfer of ``Foundation/URLSession/cancellableData(for:)`` and its cancellation, which
/// may come before the transfer exists, while it runs, or after it ended.
private final class CancellableTransfer: Sendable {
    private enum State {
        case waiting
        case running(URLSessionDataTask)
        case cancelled
    }

    /// Where transfers are cancelled: a serial queue (its threads are not Swift's cooperative
    /// ones), because `URLSessionTask.cancel()` waits for the session's queue.
    private static let cancelling = DispatchQueue(label: "swift-media-engine.url-transfer-cancel")

    private let state = Mutex(State.waiting)

    /// Records the transfer; false when it was cancelled first (then it must not start).
    func start(_ task: URLSessionDataTask) -> Bool {
        state.withLock { state in
            guard case .waiting = state else { return false }
            state = .running(task)
            return true
        }
    }

    /// Cancels the transfer on ``cancelling``, or keeps it from starting.
    func cancel() {
        let running = state.withLock { state -> URLSessionDataTask? in
            defer { state = .cancelled }
            if case .running(let task) = state { return task }
            return nil
        }
        if let running {
            Self.cancelling.async { running.cancel() }
        }
    }
}
