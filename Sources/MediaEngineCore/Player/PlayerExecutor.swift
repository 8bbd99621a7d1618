internal import CMediaEngineGlue
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// The one thread that calls GStreamer for a player: GstPlay's model, a thread of the player's
/// own with a queue of work.
///
/// Commands (from any task or thread, a streaming thread's frame callback included), bus
/// messages (handed over by the bus thread), timers and time observers only *enqueue* work
/// here; the work runs one item at a time, in the order it was enqueued. Everything that can
/// block on GStreamer (a state change to NULL, which joins streaming threads; a flushing seek;
/// joining the bus thread) therefore blocks this thread, never a thread of Swift's cooperative
/// pool and never the caller's.
///
/// The thread ends after ``finish()``, once the work queued before it has run.
final class PlayerExecutor: Sendable {
    private let context: Context
    private let handle: pthread_t

    /// The queue the thread works through, and its timers.
    fileprivate final class Context: Sendable {
        typealias Work = @Sendable () -> Void
        struct State {
            var queue = ExecutorQueue<Work>()
            /// The thread waits (or is about to) on `wake`, and no one has signalled it since.
            var waiting = false

            /// Whether to signal `wake`: once per wait, so that signals do not pile up while the
            /// thread is busy (each would cost it a useless look at the queue later).
            mutating func takeWaiting() -> Bool {
                defer { waiting = false }
                return waiting
            }
        }
        let state = Locked(State())
        /// Signalled when work comes (an item, a timer, the end) for a thread waiting for some,
        /// until the earliest timer's deadline if any.
        let wake = DispatchSemaphore(value: 0)

        func push(_ work: @escaping Work) {
            let wakes = state.withLock { state in state.queue.enqueue(work) && state.takeWaiting() }
            if wakes { wake.signal() }
        }

        func schedule(_ work: @escaping Work, after delay: Duration, repeating period: Duration? = nil) -> UInt64? {
            // Saturating: `DispatchTime + Double` traps on a delay too long for its nanoseconds.
            let (sum, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(
                UInt64(delay.clockTime))
            let deadline = DispatchTime(uptimeNanoseconds: overflow ? UInt64(Int64.max) : min(sum, UInt64(Int64.max)))
            let (id, wakes) = state.withLock { state in
                let id = state.queue.schedule(
                    work, at: deadline, repeatingEvery: period.map { UInt64(clamping: $0.clockTime) })
                // The thread may be waiting until a later deadline: it looks again.
                return (id, id != nil && state.takeWaiting())
            }
            if wakes { wake.signal() }
            return id
        }

        func cancelTimer(_ id: UInt64) {
            let dropped = state.withLock { $0.queue.cancelTimer(id, now: .now()) }
            _ = consume dropped  // let go here, outside the lock
        }

        func finish() {
            // Later work is dropped at once, so that nothing it captured (the player itself, say)
            // is kept alive by a queue no thread will read again; so are the timers not yet due.
            let (dropped, wakes) = state.withLock { state in (state.queue.finish(), state.takeWaiting()) }
            if wakes { wake.signal() }
            _ = consume dropped  // let go here, outside the lock
        }

        func run(named name: String) {
            me_name_current_thread(name)
            while true {
                let next = state.withLock { state in
                    let next = state.queue.next(now: .now())
                    if case .wait = next { state.waiting = true }
                    return next
                }
                switch next {
                case .run(let work):
                    work()
                case .wait(let deadline):
                    if wake.wait(timeout: deadline ?? .distantFuture) == .timedOut {
                        // A signal sent meanwhile stays counted: the next wait returns at once.
                        state.withLock { $0.waiting = false }
                    }
                case .end:
                    return
                }
            }
        }
    }

    /// Starts the thread.
    /// - Parameters:
    ///   - name: The thread's name (`me-player`).
    ///   - group: Where the thread is counted while it runs.
    init(named name: String = "me-player", counting group: DispatchGroup = PlayerLifetimes.executors) {
        let context = Context()
        self.context = context
        switch NativeThread.start(counting: group, { context.run(named: name) }) {
        case .success(let thread):
            pthread_detach(thread)
            handle = thread
        case .failure(let error):
            // Without a thread of its own a player cannot work at all: the process is out of threads.
            preconditionFailure("cannot start a player's thread (error \(error.code))")
        }
    }

    /// Whether the caller runs on this executor's thread.
    var isCurrent: Bool {
        pthread_equal(pthread_self(), handle) != 0
    }

    /// Checks, in debug builds, that the caller runs on this executor's thread: every call into
    /// a player's pipeline must.
    func assertCurrent(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        assert(isCurrent, "\(what()) must run on the player's own thread", file: file, line: line)
    }

    /// Runs `work` on the thread after everything enqueued before it; after ``finish()`` it is
    /// dropped. Never blocks.
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        context.push(work)
    }

    /// Runs `work` on the thread once `delay` has passed (and the work before it has run), and
    /// again every `period` after that when given, until cancelled. The player's one kind of
    /// timer: the timer is the thread's own, and ``finish()`` drops it with what it captured, and
    /// so does the handle's ``ScheduledWork/cancel()``.
    @discardableResult
    func enqueue(after delay: Duration, repeating period: Duration? = nil, _ work: @escaping @Sendable () -> Void)
        -> ScheduledWork
    {
        ScheduledWork(context: context, id: context.schedule(work, after: delay, repeating: period))
    }

    /// Suspends the calling task (without holding its thread) until `delay` has passed, by a
    /// timer of this thread's: for the steps of an animation.
    func sleep(for delay: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let scheduled = context.schedule({ continuation.resume() }, after: delay)
            // The thread has finished: nothing would resume the task later.
            if scheduled == nil { continuation.resume() }
        }
    }

    /// A timer on a player's thread (``PlayerExecutor/enqueue(after:_:)``).
    struct ScheduledWork: Sendable {
        fileprivate let context: Context
        /// nil: the executor had finished, and the work was dropped.
        fileprivate let id: UInt64?

        /// Removes the timer, and lets what its work captured go, unless it has come due already
        /// (its work is then queued, and runs).
        func cancel() {
            if let id { context.cancelTimer(id) }
        }
    }

    /// Runs `work` on the thread and returns its result, suspending (not blocking) the caller.
    func perform<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            enqueue { continuation.resume(returning: work()) }
        }
    }

    /// Runs throwing `work` on the thread and returns its result or rethrows its error.
    func perform<Value: Sendable>(_ work: @escaping @Sendable () throws(MediaError) -> Value)
        async throws(MediaError) -> Value
    {
        let result: Result<Value, MediaError> = await perform {
            do throws(MediaError) {
                return .success(try work())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Lets the thread end once the work enqueued so far has run; timers not yet due are dropped.
    func finish() {
        context.finish()
    }
}
