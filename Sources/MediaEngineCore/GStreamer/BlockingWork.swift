import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Runs work that blocks (a small GStreamer pipeline run to its end, decoding a picture) on a
/// thread of its own and suspends the calling task until it is done, so that no thread of Swift's
/// cooperative pool waits for GStreamer.
enum BlockingWork {
    /// Counts the threads still running, for nothing but `NativeThread`'s bookkeeping.
    private static let threads = DispatchGroup()

    /// The result of `body`, run on a new thread.
    static func run<Value: Sendable>(_ body: @escaping @Sendable () throws(MediaError) -> Value)
        async throws(MediaError)
        -> Value
    {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, MediaError>, Never>) in
            let started = NativeThread.start(counting: threads) {
                continuation.resume(returning: Result { () throws(MediaError) -> Value in try body() })
            }
            switch started {
            case .success(let thread):
                // Nobody joins it: it ends when `body` has returned.
                pthread_detach(thread)
            case .failure(let failure):
                continuation.resume(
                    returning: .failure(
                        MediaError(.pipelineFailure, "no thread could be started (error \(failure.code))")))
            }
        }
        return try result.get()
    }
}
