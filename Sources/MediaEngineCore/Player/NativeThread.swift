import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// A thread of the engine's own (not Swift's cooperative pool, not libdispatch's), for work that
/// blocks: a player's thread and its pipelines' bus threads.
enum NativeThread {
    /// Starts a thread that runs `body`, counted in `group` until `body` has returned and let go
    /// of what it captured.
    /// - Returns: The thread, or the error number of `pthread_create`.
    static func start(counting group: DispatchGroup, _ body: @escaping @Sendable () -> Void) -> Result<
        pthread_t, NativeThreadError
    > {
        final class Body: Sendable {
            let run: @Sendable () -> Void
            let group: DispatchGroup
            init(_ run: @escaping @Sendable () -> Void, group: DispatchGroup) {
                self.run = run
                self.group = group
            }
        }
        var thread = pthread_t()
        let unmanaged = Unmanaged.passRetained(Body(body, group: group))
        group.enter()
        let result = pthread_create(
            &thread, nil,
            { raw in
                let group: DispatchGroup
                do {
                    let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
                    group = body.group
                    body.run()
                }
                // Left only once the body and all it captured are released.
                group.leave()
                return nil
            }, unmanaged.toOpaque())
        guard result == 0 else {
            group.leave()
            unmanaged.release()
            return .failure(NativeThreadError(code: result))
        }
        return .success(thread)
    }
}

/// `pthread_create` failed with this error number.
struct NativeThreadError: Error {
    let code: Int32
}
