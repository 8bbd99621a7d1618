internal import CGStreamerShim
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

    /// The queue the thread works through.
    private final class Context: Sendable {
        struct Queue {
            var items: [(@Sendable () -> Void)?] = []
            var head = 0
            /// Set by the end marker: later work is dropped at once, so that nothing it captured
            /// (the player itself, say) is kept alive by a queue no thread will read again.
            var finished = false
        }
        let queue = Locked(Queue())
        /// Counts enqueued items; the thread waits on it when the queue is empty.
        let available = DispatchSemaphore(value: 0)

        func push(_ item: (@Sendable () -> Void)?) {
            let accepted = queue.withLock { queue in
                guard !queue.finished else { return false }
                queue.items.append(item)
                if item == nil { queue.finished = true }
                return true
            }
            if accepted { available.signal() }
        }

        /// The next item, waiting for one; nil for the end marker.
        func pop() -> (@Sendable () -> Void)? {
            available.wait()
            return queue.withLock { queue in
                // Taken out, not just passed: what the work captured (a pipeline, the player) is
                // released as soon as it has run.
                let item = queue.items[queue.head]
                queue.items[queue.head] = nil
                queue.head += 1
                if queue.head > 64 && queue.head * 2 > queue.items.count {
                    queue.items.removeFirst(queue.head)
                    queue.head = 0
                }
                return item
            }
        }

        func run(named name: String) {
            me_name_current_thread(name)
            while let work = pop() {
                work()
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

    /// Runs `work` on the thread once `delay` has passed (and the work before it has run).
    func enqueue(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        // The timer does not keep the queue alive: once the thread has ended, the work is dropped.
        DispatchQueue.global().asyncAfter(deadline: .now() + delay.inSeconds) { [weak context] in
            context?.push(work)
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

    /// Lets the thread end once the work enqueued so far has run.
    func finish() {
        context.push(nil)
    }
}
