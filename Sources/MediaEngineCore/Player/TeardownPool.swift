internal import CMediaEngineGlue
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The threads ``PipelineTeardown`` tears pipelines down on, and the watch over them: items run
/// in the order they were handed over, on one thread while they go normally, on another as soon
/// as every thread has been on its current item for `spillAfter`, up to `maximumThreads` threads;
/// an item still under way after `stuckAfter` is reported once.
final class TeardownPool: Sendable {
    /// One teardown (or another item of work for the teardown threads).
    struct Item: Sendable {
        let run: @Sendable () -> Void
        /// Called once, on the watch's thread, when the item has run for `stuckAfter`, with how
        /// long it has; it must not block.
        let stuck: @Sendable (_ after: Duration) -> Void
        /// Called after `run`, once the pool has let go of the item (and so of what `run` and
        /// `stuck` hold, a pipeline for a teardown): what counts the work as done goes here, so
        /// that nothing the item held outlives the count.
        var finished: @Sendable () -> Void = {}
    }

    private struct Thread {
        /// When the thread took its current item (uptime, ns); nil while it waits for one.
        var busySince: UInt64?
        var current: Item?
        var reported = false
    }

    private struct State {
        var queue: [Item] = []
        var threads: [Int: Thread] = [:]
        var waiting = 0
        var lastThreadID = 0
    }

    private let state = Locked(State())
    /// One signal per queued item: a thread that takes the signal takes an item.
    private let work = DispatchSemaphore(value: 0)
    /// Wakes the watch: an item was handed over.
    private let watch = DispatchSemaphore(value: 0)
    private let spillAfter: UInt64
    private let stuckAfter: UInt64
    private let maximumThreads: Int

    init(spillAfter: Duration, stuckAfter: Duration, maximumThreads: Int) {
        self.spillAfter = UInt64(spillAfter / .nanoseconds(1))
        self.stuckAfter = UInt64(stuckAfter / .nanoseconds(1))
        self.maximumThreads = max(1, maximumThreads)
        startThread(staysIdle: true)
        let started = NativeThread.start(counting: DispatchGroup()) { [self] in watchLoop() }
        if case .success(let thread) = started { pthread_detach(thread) }
    }

    /// Hands `item` over; it runs after the items handed over before it have been taken up.
    func enqueue(_ item: Item) {
        state.withLock { $0.queue.append(item) }
        work.signal()
        watch.signal()
    }

    /// Starts a thread that takes items; unless `staysIdle`, it leaves after a second without one.
    private func startThread(staysIdle: Bool) {
        let id = state.withLock { state -> Int in
            state.lastThreadID += 1
            state.threads[state.lastThreadID] = Thread()
            return state.lastThreadID
        }
        let started = NativeThread.start(counting: DispatchGroup()) { [self] in
            threadLoop(id: id, staysIdle: staysIdle)
        }
        switch started {
        case .success(let thread):
            pthread_detach(thread)
        case .failure:
            // Out of threads: the items wait for the threads there are.
            _ = state.withLock { $0.threads.removeValue(forKey: id) }
        }
    }

    private func threadLoop(id: Int, staysIdle: Bool) {
        me_name_current_thread("me-teardown")
        while let finished = runNext(id: id, staysIdle: staysIdle) {
            finished()
        }
    }

    /// Waits for an item and runs it; returns its `finished`, to be called once this has
    /// returned: every copy of the item (and so what its closures hold) is gone by then. nil: the
    /// thread leaves (no item came within a second, for a thread that does not stay idle).
    private func runNext(id: Int, staysIdle: Bool) -> (@Sendable () -> Void)? {
        state.withLock { $0.waiting += 1 }
        let taken = work.wait(timeout: staysIdle ? .distantFuture : .now() + .seconds(1))
        let item = state.withLock { state -> Item? in
            state.waiting -= 1
            guard taken == .success else {
                state.threads[id] = nil
                return nil
            }
            let item = state.queue.removeFirst()
            state.threads[id] = Thread(busySince: DispatchTime.now().uptimeNanoseconds, current: item)
            return item
        }
        guard let item else { return nil }
        item.run()
        state.withLock { $0.threads[id] = Thread() }
        return item.finished
    }

    /// Starts a thread for waiting items when every thread is slow, and reports stuck items.
    private func watchLoop() {
        me_name_current_thread("me-teardown-watch")
        while true {
            let (wake, now) = inspectThreads()
            let deadline = wake.map { DispatchTime(uptimeNanoseconds: max($0, now &+ 1_000_000)) } ?? .distantFuture
            _ = watch.wait(timeout: deadline)
        }
    }

    /// One look of the watch: spills and reports what it must, and says when to look again (nil:
    /// when an item is handed over). The items it reports are let go when it returns, so the watch
    /// holds none (nor the pipeline it tears down) while it waits.
    private func inspectThreads() -> (wake: UInt64?, now: UInt64) {
        let (spill, stuck, wake, now) = state.withLock { state -> (Bool, [(Item, UInt64)], UInt64?, UInt64) in
            // Read under the lock: a thread that takes an item stamps it under the lock too, so
            // no stamp is later than `now` (the differences below cannot wrap around).
            let now = DispatchTime.now().uptimeNanoseconds
            var stuck: [(Item, UInt64)] = []
            var wake: UInt64?
            let busy = state.threads.values.compactMap(\.busySince)
            for (id, thread) in state.threads {
                guard let since = thread.busySince, let item = thread.current, !thread.reported else { continue }
                if now &- since >= stuckAfter {
                    state.threads[id]?.reported = true
                    stuck.append((item, now &- since))
                } else {
                    wake = min(wake ?? .max, since &+ stuckAfter)
                }
            }
            let slowest = busy.max() ?? now
            let starved = !state.queue.isEmpty && state.waiting == 0
            let spill = starved && now &- slowest >= spillAfter && state.threads.count < maximumThreads
            if starved && !spill && state.threads.count < maximumThreads {
                wake = min(wake ?? .max, slowest &+ spillAfter)
            }
            return (spill, stuck, wake, now)
        }
        if spill { startThread(staysIdle: false) }
        for (item, elapsed) in stuck {
            item.stuck(.nanoseconds(Int64(clamping: elapsed)))
        }
        return (wake, now)
    }
}
