import Dispatch

/// What a player's thread (``PlayerExecutor``) has to do, and in what order: work in the order
/// it was enqueued, and timers, each of which joins the end of that order once its deadline has
/// passed. A value with no clock and no thread of its own (the executor passes the time in), so
/// its rules are unit-tested without either.
///
/// The timers are the queue's own, not Dispatch's: they end with the queue. A released player's
/// timers (a seek's or a preparation's deadline, typically 30 s away) are let go when its thread
/// finishes, with what they captured; a Dispatch timer would keep its blocks, weak references and
/// sources alive until its deadline, scattered over malloc's arenas by whichever thread made them.
struct ExecutorQueue<Work: Sendable>: Sendable {
    /// What the thread does next.
    enum Next: Sendable {
        /// Runs the work.
        case run(Work)
        /// Waits for more work, or until the deadline of the earliest timer (nil: none).
        case wait(until: DispatchTime?)
        /// Ends: ``finish()`` was called and the work enqueued before it has been taken.
        case end
    }

    private enum Entry: Sendable {
        case work(Work)
        case end
    }

    private struct Timer: Sendable {
        let deadline: DispatchTime
        let id: UInt64
        let work: Work
        /// A repeating timer's period in nanoseconds: it joins the order again one period after
        /// each deadline (missed periods are skipped, not run in a burst).
        let period: UInt64?
    }

    /// Taken entries are nil until the taken front is dropped.
    private var entries: [Entry?] = []
    private var head = 0
    /// Ordered by deadline; timers with the same deadline in the order they were scheduled.
    private var timers: [Timer] = []
    /// The id of the next timer scheduled.
    private var nextTimerID: UInt64 = 1
    /// ``finish()`` was called: later work and timers are refused.
    private(set) var isFinished = false

    /// Timers scheduled and not yet due.
    var pendingTimers: Int { timers.count }

    /// Adds `work` after everything enqueued so far.
    /// - Returns: false when the queue has finished (the work is not kept).
    mutating func enqueue(_ work: Work) -> Bool {
        guard !isFinished else { return false }
        entries.append(.work(work))
        return true
    }

    /// Adds `work` at the end of the order once `deadline` has passed (and again every `period`
    /// nanoseconds after it, until cancelled, when given).
    /// - Returns: The timer's id, for ``cancelTimer(_:)``; nil when the queue has finished (the
    ///   work is not kept).
    mutating func schedule(_ work: Work, at deadline: DispatchTime, repeatingEvery period: UInt64? = nil) -> UInt64? {
        guard !isFinished else { return nil }
        let id = nextTimerID
        nextTimerID += 1
        insert(Timer(deadline: deadline, id: id, work: work, period: period.map { max(1, $0) }))
        return id
    }

    private mutating func insert(_ timer: Timer) {
        // After every timer due at or before it: equal deadlines keep their order.
        var low = 0
        var high = timers.count
        while low < high {
            let middle = (low + high) / 2
            if timers[middle].deadline <= timer.deadline { low = middle + 1 } else { high = middle }
        }
        timers.insert(timer, at: low)
    }

    /// Removes a timer that has not come due by `now`. One that has joins the order instead, and
    /// runs, as a Dispatch timer's work would once queued: a time observer re-armed just after
    /// its boundary passed still fires for it.
    /// - Returns: Its work, for the caller to let go (outside any lock, as what it captured may
    ///   end with it); nil when the timer had come due, or was cancelled already.
    mutating func cancelTimer(_ id: UInt64, now: DispatchTime) -> Work? {
        guard let index = timers.firstIndex(where: { $0.id == id }) else { return nil }
        let timer = timers.remove(at: index)
        guard timer.deadline > now else {
            entries.append(.work(timer.work))
            return nil
        }
        return timer.work
    }

    /// Ends the queue after the work enqueued so far; refuses anything later.
    /// - Returns: The timers not yet due, dropped: the caller lets them go (outside any lock, as
    ///   what they captured may end with them).
    mutating func finish() -> [Work] {
        guard !isFinished else { return [] }
        isFinished = true
        entries.append(.end)
        let dropped = timers.map(\.work)
        timers.removeAll()
        return dropped
    }

    /// Takes what the thread does next at time `now`: the timers due by then join the order first.
    mutating func next(now: DispatchTime) -> Next {
        var due = 0
        while due < timers.count && timers[due].deadline <= now {
            entries.append(.work(timers[due].work))
            due += 1
        }
        let fired = timers.prefix(due)
        timers.removeFirst(due)
        for timer in fired {
            guard let period = timer.period else { continue }
            // The next period after now, on the timer's own cadence.
            let late = now.uptimeNanoseconds - timer.deadline.uptimeNanoseconds
            let next = timer.deadline.uptimeNanoseconds &+ (late / period + 1) * period
            insert(
                Timer(
                    deadline: DispatchTime(uptimeNanoseconds: min(next, UInt64(Int64.max))), id: timer.id,
                    work: timer.work, period: period))
        }
        guard head < entries.count, let entry = entries[head] else {
            return .wait(until: timers.first?.deadline)
        }
        // Taken out, not just passed: what the work captured (a pipeline, the player) is released
        // as soon as it has run.
        entries[head] = nil
        head += 1
        if head > 64 && head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
        switch entry {
        case .work(let work): return .run(work)
        case .end: return .end
        }
    }
}
