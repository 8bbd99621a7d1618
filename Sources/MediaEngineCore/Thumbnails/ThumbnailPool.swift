internal import CMediaEngineGlue
import Dispatch
import Foundation

/// The decoding pipelines of one ``ThumbnailGenerator``: up to ``size`` worker threads of the
/// engine's own (`me-thumbs`), each driving one ``ThumbnailPipeline`` that it keeps from request
/// to request. Workers take requests from the batches in order (each batch's times sorted, so
/// each pipeline decodes forward through the file) and end after a few idle seconds, freeing
/// their pipelines; the next request starts them again.
///
/// `@unchecked Sendable`: every mutable field is guarded by `condition`.
final class ThumbnailPool: @unchecked Sendable {
    let source: any MediaSource
    let maximumSize: VideoSize?
    let timeout: Duration
    let size: Int
    /// How long an idle worker keeps its pipeline.
    static let idleLifetime: TimeInterval = 3

    private let condition = NSCondition()
    private var batches: [ThumbnailBatch] = []
    private var workers = 0
    private var idle = 0
    private var openError: MediaError?
    private var decoded = 0
    private var closed = false
    private let threads = DispatchGroup()

    init(source: any MediaSource, maximumSize: VideoSize?, timeout: Duration, size: Int) {
        self.source = source
        self.maximumSize = maximumSize
        self.timeout = timeout
        self.size = max(1, size)
    }

    /// Queues a batch and starts the workers it can use.
    func submit(_ batch: ThumbnailBatch) {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else {
            batch.cancel()
            return
        }
        batches.append(batch)
        // Idle workers take the batch first; new ones start for the rest, up to the pool's size.
        for _ in 0..<max(0, min(size - workers, batch.total - idle)) {
            workers += 1
            guard case .success(let thread) = NativeThread.start(counting: threads, { [self] in work() }) else {
                workers -= 1
                break
            }
            // Nobody joins a worker: `threads` counts it until it has ended.
            pthread_detach(thread)
        }
        condition.broadcast()
    }

    /// Tells idle workers to look for requests again (room was freed, a batch was cancelled).
    func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Cancels every batch not finished yet.
    func cancelAll() {
        condition.lock()
        let current = batches
        condition.unlock()
        for batch in current { batch.cancel() }
    }

    /// Cancels everything and lets the workers end (each frees its pipeline on its own thread).
    func close() {
        cancelAll()
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Pictures that left the decoders so far, every capture counted (for tests).
    var picturesDecoded: Int {
        condition.lock()
        defer { condition.unlock() }
        return decoded
    }

    /// Takes requests again after ``close()``.
    func reopen() {
        condition.lock()
        closed = false
        openError = nil
        condition.unlock()
    }

    /// Returns once every worker has ended and freed its pipeline.
    func waitForWorkers() async {
        await withCheckedContinuation { continuation in
            threads.notify(queue: .global()) { continuation.resume() }
        }
    }

    private func work() {
        me_name_current_thread("me-thumbs")
        let canceller = ThumbnailCanceller()
        var pipeline: ThumbnailPipeline?
        while true {
            let number = canceller.arm()
            guard let (batch, request) = nextRequest(for: canceller, number: number) else { break }
            let result = run(request, pipeline: &pipeline, canceller: canceller)
            batch.deliver(result, from: canceller)
            wake()
        }
        canceller.attach(nil)
        pipeline = nil  // frees it here, on this thread: a state change to NULL joins streaming threads
    }

    private func nextRequest(for canceller: ThumbnailCanceller, number: UInt64) -> (
        ThumbnailBatch, ThumbnailBatch.Request
    )? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            batches.removeAll { $0.isSettled }
            if closed {
                workers -= 1
                return nil
            }
            for batch in batches {
                if let request = batch.takeRequest(by: canceller, number: number) { return (batch, request) }
            }
            idle += 1
            let woken = condition.wait(until: Date(timeIntervalSinceNow: Self.idleLifetime))
            idle -= 1
            // Ends only when no batch has requests left: one held back by its slow reader
            // still needs this worker when the reader catches up.
            if !woken && !batches.contains(where: { $0.hasRequestsLeft }) {
                workers -= 1
                return nil
            }
        }
    }

    private func run(
        _ request: ThumbnailBatch.Request, pipeline: inout ThumbnailPipeline?, canceller: ThumbnailCanceller
    ) -> ThumbnailResult {
        let time = request.time
        guard time >= .zero else {
            return .failure(time, MediaError(.invalidArgument, "a thumbnail time cannot be negative (\(time))"))
        }
        condition.lock()
        let permanent = openError
        condition.unlock()
        if let permanent { return .failure(time, permanent) }
        if canceller.isCancelled { return .failure(time, ThumbnailBatch.cancelledError) }
        for attempt in 0..<2 {
            if pipeline == nil {
                switch ThumbnailPipeline.open(source: source, timeout: timeout, canceller: canceller) {
                case .success(let opened):
                    pipeline = opened
                    canceller.attach(opened.pointer)
                case .failure(let failure):
                    if failure.permanent {
                        condition.lock()
                        openError = openError ?? failure.error
                        condition.unlock()
                    }
                    return .failure(time, failure.error)
                }
            }
            guard let current = pipeline else { return .failure(time, ThumbnailBatch.cancelledError) }
            let captured = current.capture(at: time, option: request.option, timeout: timeout)
            condition.lock()
            decoded += current.picturesDecoded
            condition.unlock()
            switch captured {
            case .success(let sample):
                guard
                    let image = ThumbnailPicture.image(
                        of: sample, orientation: current.orientation, maximum: maximumSize)
                else {
                    return .failure(
                        time, MediaError(.streamFailure, "the picture at \(time.formattedSeconds) cannot be read"))
                }
                return ThumbnailResult(requestedTime: time, actualTime: image.presentationTime, result: .success(image))
            case .failure(let failure):
                if !failure.keepsPipeline {
                    canceller.attach(nil)
                    pipeline = nil
                }
                // A pipeline found broken before this request started: once more on a new one.
                if failure.retry && attempt == 0 { continue }
                return .failure(time, failure.error)
            }
        }
        return .failure(time, MediaError(.pipelineFailure, "the thumbnail pipeline failed twice"))
    }
}
