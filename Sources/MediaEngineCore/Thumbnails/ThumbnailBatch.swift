import Dispatch

/// One batch of requests: the times still to decode (sorted, so each pipeline decodes forward
/// through the file), the results the reader has not taken, and who is decoding what.
///
/// The pool's workers take requests with ``takeRequest(by:)`` and hand results back with
/// ``deliver(_:)``; the reader takes them with ``next()``. A request is started only while
/// fewer than ``capacity`` results are decoding or waiting for the reader, so a batch of
/// 10,000 times never holds more than a few images.
final class ThumbnailBatch: Sendable {
    /// One requested time.
    struct Request: Sendable {
        let time: Duration
        let option: SeekOption
    }

    private struct State {
        var pending: [Request]
        var nextPending = 0
        var running: [ObjectIdentifier: (canceller: ThumbnailCanceller, request: UInt64)] = [:]
        var ready: [ThumbnailResult] = []
        var readyHead = 0
        var returned = 0
        var cancelled = false
        var waiter: CheckedContinuation<ThumbnailResult?, Never>?
        /// A thread blocked in ``ThumbnailBatch/nextBlocking()``.
        var blockedThread: DispatchSemaphore?

        var hasPending: Bool { nextPending < pending.count }
        var buffered: Int { ready.count - readyHead }

        mutating func popReady() -> ThumbnailResult? {
            guard readyHead < ready.count else { return nil }
            let result = ready[readyHead]
            readyHead += 1
            if readyHead > 64 && readyHead * 2 > ready.count {
                ready.removeFirst(readyHead)
                readyHead = 0
            }
            returned += 1
            return result
        }
    }

    /// Cancels the batch when the last sequence or iterator that reads it goes away.
    final class Lifetime: Sendable {
        let batch: ThumbnailBatch
        init(_ batch: ThumbnailBatch) { self.batch = batch }
        deinit { batch.cancel() }
    }

    let total: Int
    let capacity: Int
    private let state: Locked<State>
    /// Woken when a request can start (the reader freed room) or the batch was cancelled.
    private let wake: @Sendable () -> Void

    /// - Parameters:
    ///   - requests: The requests, in the order they were asked for.
    ///   - capacity: How many results may be decoding or waiting for the reader at once.
    ///   - wake: Tells the pool that requests may be taken again.
    init(requests: [Request], capacity: Int, wake: @escaping @Sendable () -> Void) {
        total = requests.count
        self.capacity = max(1, capacity)
        self.wake = wake
        // Sorted by time (stable), so every pipeline decodes forward through the file.
        let sorted = requests.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        state = Locked(State(pending: sorted.map(\.element)))
    }

    /// Whether requests are still to be taken (the batch is not cancelled).
    var hasRequestsLeft: Bool {
        state.withLock { $0.hasPending && !$0.cancelled }
    }

    /// Whether no request is waiting or running (the pool may forget the batch).
    var isSettled: Bool {
        state.withLock { (!$0.hasPending || $0.cancelled) && $0.running.isEmpty }
    }

    /// The next request for a worker, registered as running under its canceller and the number
    /// its canceller gave it; nil when none may start.
    func takeRequest(by canceller: ThumbnailCanceller, number: UInt64) -> Request? {
        state.withLock { state in
            guard state.hasPending, !state.cancelled, state.running.count + state.buffered < capacity else {
                return nil
            }
            let request = state.pending[state.nextPending]
            state.nextPending += 1
            state.running[ObjectIdentifier(canceller)] = (canceller, number)
            return request
        }
    }

    /// A worker's result for the request it took with `canceller`.
    func deliver(_ result: ThumbnailResult, from canceller: ThumbnailCanceller) {
        let waiter = state.withLock { state -> CheckedContinuation<ThumbnailResult?, Never>? in
            state.running[ObjectIdentifier(canceller)] = nil
            state.ready.append(result)
            state.blockedThread?.signal()
            state.blockedThread = nil
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        if let waiter {
            waiter.resume(returning: state.withLock { $0.popReady() })
            wake()
        }
    }

    /// Stops the batch: requests not started finish with `cancelled` at once; the running ones
    /// are interrupted and finish with `cancelled` within one picture's decode.
    func cancel() {
        let (running, waiter, first) = state.withLock {
            state -> (
                [(canceller: ThumbnailCanceller, request: UInt64)], CheckedContinuation<ThumbnailResult?, Never>?,
                ThumbnailResult?
            ) in
            guard !state.cancelled else { return ([], nil, nil) }
            state.cancelled = true
            state.blockedThread?.signal()
            state.blockedThread = nil
            while state.hasPending {
                let request = state.pending[state.nextPending]
                state.nextPending += 1
                state.ready.append(.failure(request.time, ThumbnailBatch.cancelledError))
            }
            guard let waiter = state.waiter, let result = state.popReady() else {
                return (Array(state.running.values), nil, nil)
            }
            state.waiter = nil
            return (Array(state.running.values), waiter, result)
        }
        for (canceller, request) in running { canceller.cancel(request: request) }
        waiter?.resume(returning: first)
        wake()
    }

    /// Results decoding or waiting for the reader: the images the batch holds at most.
    var imagesHeld: Int { state.withLock { $0.running.count + $0.buffered } }

    /// Whether the batch was cancelled.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// The next result in completion order, or nil when every request has had its result.
    func next() async -> ThumbnailResult? {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ThumbnailResult?, Never>) in
                let immediate = state.withLock { state -> ThumbnailResult?? in
                    if let result = state.popReady() { return .some(result) }
                    if state.returned == total { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            cancel()
        }
        wake()
        return result
    }

    /// The next result, blocking the calling thread (which must not be one of the engine's own,
    /// nor a thread of Swift's cooperative pool) until there is one; nil at the end.
    func nextBlocking() -> ThumbnailResult? {
        while true {
            let semaphore = DispatchSemaphore(value: 0)
            let result = state.withLock { state -> ThumbnailResult?? in
                if let result = state.popReady() { return .some(result) }
                if state.returned == total { return .some(nil) }
                state.blockedThread = semaphore
                return .none
            }
            if let result {
                wake()
                return result
            }
            semaphore.wait()
        }
    }

    static let cancelledError = MediaError(.cancelled, "the thumbnail request was cancelled")
}
