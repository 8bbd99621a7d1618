import Dispatch
import Testing

@testable import MediaEngineCore

/// The order a player's thread works in (``ExecutorQueue``): enqueued work first in first out,
/// timers joining the end of that order when due, and nothing kept after the queue finishes.
@Suite("Player thread's queue")
struct ExecutorQueueTests {
    /// A time `milliseconds` after an arbitrary start (the queue takes the time it is given).
    static func at(_ milliseconds: UInt64) -> DispatchTime {
        DispatchTime(uptimeNanoseconds: 1_000_000_000 + milliseconds * 1_000_000)
    }

    /// Everything the queue hands over at `now`, and what it says once it has nothing to run.
    static func drain(_ queue: inout ExecutorQueue<String>, now: DispatchTime) -> (ran: [String], then: String) {
        var ran: [String] = []
        while true {
            switch queue.next(now: now) {
            case .run(let work): ran.append(work)
            case .wait(let deadline): return (ran, deadline.map { "wait until \($0.uptimeNanoseconds)" } ?? "wait")
            case .end: return (ran, "end")
            }
        }
    }

    @Test("work runs in the order it was enqueued; with nothing left the thread waits with no deadline")
    func fifo() {
        var queue = ExecutorQueue<String>()
        for work in ["a", "b", "c"] {
            let accepted = queue.enqueue(work)
            #expect(accepted)
        }
        let (ran, then) = Self.drain(&queue, now: Self.at(0))
        #expect(ran == ["a", "b", "c"])
        #expect(then == "wait")
    }

    @Test("a timer waits for its deadline, then joins the end of the order, after work enqueued before it was due")
    func timerJoinsTheOrderWhenDue() {
        var queue = ExecutorQueue<String>()
        let scheduled = queue.schedule("timer", at: Self.at(100))
        let enqueued = queue.enqueue("first")
        #expect(scheduled != nil && enqueued)
        var (ran, then) = Self.drain(&queue, now: Self.at(50))
        #expect(ran == ["first"])
        #expect(then == "wait until \(Self.at(100).uptimeNanoseconds)")
        let later = queue.enqueue("before it was looked at")
        #expect(later)
        (ran, then) = Self.drain(&queue, now: Self.at(100))
        #expect(ran == ["before it was looked at", "timer"])
        #expect(then == "wait")
    }

    @Test("timers come due in the order of their deadlines; equal deadlines in the order they were scheduled")
    func timersByDeadline() {
        var queue = ExecutorQueue<String>()
        for (work, deadline) in [("30", 30), ("10", 10), ("20a", 20), ("20b", 20), ("40", 40), ("20c", 20)] {
            let scheduled = queue.schedule(work, at: Self.at(UInt64(deadline)))
            #expect(scheduled != nil)
        }
        #expect(queue.pendingTimers == 6)
        var (ran, then) = Self.drain(&queue, now: Self.at(25))
        #expect(ran == ["10", "20a", "20b", "20c"])
        #expect(then == "wait until \(Self.at(30).uptimeNanoseconds)")
        (ran, then) = Self.drain(&queue, now: Self.at(1000))
        #expect(ran == ["30", "40"])
        #expect(queue.pendingTimers == 0)
    }

    @Test("finishing runs the work enqueued before it, drops the timers not yet due, and refuses anything later")
    func finish() {
        var queue = ExecutorQueue<String>()
        let enqueued = queue.enqueue("before")
        let due = queue.schedule("due", at: Self.at(10))
        let far = queue.schedule("far", at: Self.at(30_000))
        #expect(enqueued && due != nil && far != nil)
        let dropped = queue.finish()
        #expect(dropped == ["due", "far"])
        #expect(queue.pendingTimers == 0)
        let after = queue.enqueue("after")
        let timerAfter = queue.schedule("timer after", at: Self.at(0))
        #expect(!after && timerAfter == nil)
        let droppedAgain = queue.finish()
        #expect(droppedAgain.isEmpty)
        let (ran, then) = Self.drain(&queue, now: Self.at(60_000))
        #expect(ran == ["before"])
        #expect(then == "end")
    }

    @Test("a cancelled timer is handed back and never runs; one already due cannot be cancelled and runs")
    func cancel() {
        var queue = ExecutorQueue<String>()
        let first = queue.schedule("first", at: Self.at(10))
        let second = queue.schedule("second", at: Self.at(20))
        let third = queue.schedule("third", at: Self.at(30))
        #expect(Set([first, second, third].compactMap { $0 }).count == 3, "each timer has an id of its own")
        let cancelled = second.flatMap { queue.cancelTimer($0, now: Self.at(5)) }
        #expect(cancelled == "second")
        let again = second.flatMap { queue.cancelTimer($0, now: Self.at(5)) }
        #expect(again == nil)
        var (ran, then) = Self.drain(&queue, now: Self.at(10))
        #expect(ran == ["first"])
        #expect(then == "wait until \(Self.at(30).uptimeNanoseconds)", "the cancelled timer's deadline is gone")
        // Due at 30, and the thread has not looked since: cancelled at 31, it runs all the same,
        // after what was enqueued before the cancel.
        let enqueued = queue.enqueue("enqueued before the cancel")
        let tooLate = third.flatMap { queue.cancelTimer($0, now: Self.at(31)) }
        #expect(enqueued && tooLate == nil)
        // Due and already in the order: the same.
        let late = queue.schedule("late", at: Self.at(40))
        (ran, then) = Self.drain(&queue, now: Self.at(45))
        #expect(ran == ["enqueued before the cancel", "third", "late"])
        let afterRunning = late.flatMap { queue.cancelTimer($0, now: Self.at(45)) }
        #expect(afterRunning == nil)
        #expect(then == "wait")
    }

    /// A queue with a timer that repeats every 50 ms from 100 ms, looked at once at 100 ms; and its id.
    static func ticking() -> (ExecutorQueue<String>, UInt64?) {
        var queue = ExecutorQueue<String>()
        let id = queue.schedule("tick", at: at(100), repeatingEvery: 50_000_000)
        let (ran, _) = drain(&queue, now: at(100))
        #expect(ran == ["tick"])
        return (queue, id)
    }

    @Test("a repeating timer joins the order once a period, on its own cadence, however late it was looked at")
    func repeating() {
        var queue = ExecutorQueue<String>()
        let scheduled = queue.schedule("tick", at: Self.at(100), repeatingEvery: 50_000_000)
        #expect(scheduled != nil)
        var (ran, then) = Self.drain(&queue, now: Self.at(100))
        #expect(ran == ["tick"])
        #expect(then == "wait until \(Self.at(150).uptimeNanoseconds)")
        #expect(queue.pendingTimers == 1, "armed again")
        // Looked at 10 ms late: the next deadline is still on the 50 ms grid, not 50 ms from now.
        (ran, then) = Self.drain(&queue, now: Self.at(160))
        #expect(ran == ["tick"])
        #expect(then == "wait until \(Self.at(200).uptimeNanoseconds)")
    }

    @Test("a repeating timer that missed periods runs once, not in a burst, and goes on at its next period")
    func repeatingSkipsMissedPeriods() {
        var (queue, _) = Self.ticking()
        // The thread was busy from 100 to 390 ms: five periods went by.
        let drained = Self.drain(&queue, now: Self.at(390))
        #expect(drained.ran == ["tick"] && drained.then == "wait until \(Self.at(400).uptimeNanoseconds)")
    }

    @Test("a repeating timer comes due after the timers due at the same time that were scheduled before it came round")
    func repeatingKeepsOrder() {
        var queue = ExecutorQueue<String>()
        _ = queue.schedule("tick", at: Self.at(100), repeatingEvery: 50_000_000)
        _ = queue.schedule("at 150", at: Self.at(150))
        _ = Self.drain(&queue, now: Self.at(100))
        let (ran, _) = Self.drain(&queue, now: Self.at(150))
        #expect(ran == ["at 150", "tick"])
    }

    @Test("cancelling a repeating timer stops it: handed back before its deadline, run once more if already due")
    func repeatingCancelled() {
        var (queue, id) = Self.ticking()
        let cancelled = id.flatMap { queue.cancelTimer($0, now: Self.at(120)) }
        #expect(cancelled == "tick")
        #expect(queue.pendingTimers == 0)
        var (ran, then) = Self.drain(&queue, now: Self.at(1000))
        #expect(ran.isEmpty && then == "wait")

        var (due, dueID) = Self.ticking()
        // Due at 150 and not looked at yet: cancelled at 155, it runs once, and never again.
        let tooLate = dueID.flatMap { due.cancelTimer($0, now: Self.at(155)) }
        #expect(tooLate == nil)
        (ran, then) = Self.drain(&due, now: Self.at(1000))
        #expect(ran == ["tick"] && then == "wait")
    }

    @Test("finishing drops a repeating timer with the others")
    func repeatingFinished() {
        var (queue, _) = Self.ticking()
        #expect(queue.finish() == ["tick"])
        #expect(Self.drain(&queue, now: Self.at(1000)).then == "end")
    }

    @Test("thousands of items keep their order while the taken front is dropped")
    func longRun() {
        var queue = ExecutorQueue<String>()
        var ran: [String] = []
        for round in 0..<50 {
            for item in 0..<(round * 7 % 90) {
                let accepted = queue.enqueue("\(round).\(item)")
                #expect(accepted)
            }
            // Take part of them, so that the front is dropped with items still waiting behind it.
            for _ in 0..<(round * 5 % 70) {
                guard case .run(let work) = queue.next(now: Self.at(0)) else { break }
                ran.append(work)
            }
        }
        ran += Self.drain(&queue, now: Self.at(0)).ran
        let expected = (0..<50).flatMap { round in (0..<(round * 7 % 90)).map { "\(round).\($0)" } }
        #expect(ran == expected)
    }

    /// What a timer captured, to see when it is let go.
    final class Capture: Sendable {}

    @Test("a player's thread lets a far timer go, with what it captured, as soon as it finishes")
    func finishedExecutorDropsItsTimers() async throws {
        let executor = PlayerExecutor(named: "me-test", counting: DispatchGroup())
        weak var weakCapture: Capture?
        let fired = Locked(false)
        do {
            let capture = Capture()
            weakCapture = capture
            executor.enqueue(after: .seconds(600)) {
                withExtendedLifetime(capture) { fired.withLock { $0 = true } }
            }
        }
        #expect(weakCapture != nil, "the timer keeps what it captured while the thread runs")
        // A near timer still fires on the thread, before the far one is dropped.
        let near = await withCheckedContinuation { continuation in
            executor.enqueue(after: .milliseconds(20)) { continuation.resume(returning: true) }
        }
        #expect(near)
        executor.finish()
        #expect(weakCapture == nil, "finish() let the 10-minute timer go at once")
        #expect(!fired.withLock { $0 })
    }

    @Test("cancelling a player thread's timer lets what it captured go at once, and it never runs")
    func cancelledTimerIsLetGo() async {
        let executor = PlayerExecutor(named: "me-test", counting: DispatchGroup())
        defer { executor.finish() }
        weak var weakCapture: Capture?
        let fired = Locked(false)
        let timer: PlayerExecutor.ScheduledWork
        do {
            let capture = Capture()
            weakCapture = capture
            timer = executor.enqueue(after: .milliseconds(200)) {
                withExtendedLifetime(capture) { fired.withLock { $0 = true } }
            }
        }
        #expect(weakCapture != nil)
        timer.cancel()
        #expect(weakCapture == nil, "cancel() let the timer's work go")
        // A later timer on the same thread runs: the cancelled one, due before it, did not.
        let later = await withCheckedContinuation { continuation in
            executor.enqueue(after: .milliseconds(400)) { continuation.resume(returning: true) }
        }
        #expect(later)
        #expect(!fired.withLock { $0 })
    }

    @Test("a player thread's repeating timer fires again and again until cancelled")
    func repeatingOnTheThread() async {
        let executor = PlayerExecutor(named: "me-test", counting: DispatchGroup())
        defer { executor.finish() }
        let count = Locked(0)
        let (firings, continuation) = AsyncStream.makeStream(of: Int.self)
        let timer = executor.enqueue(after: .milliseconds(5), repeating: .milliseconds(5)) {
            continuation.yield(
                count.withLock {
                    $0 += 1
                    return $0
                })
        }
        for await firing in firings where firing >= 3 { break }
        timer.cancel()
        let atCancel = count.withLock { $0 }
        // Ten periods later: at most the one firing already due when it was cancelled has run.
        let later = await withCheckedContinuation { done in
            executor.enqueue(after: .milliseconds(50)) { done.resume(returning: count.withLock { $0 }) }
        }
        #expect(atCancel >= 3 && later <= atCancel + 1, "\(atCancel) then \(later)")
    }

    @Test("a delay too long for a clock's nanoseconds is a timer that never comes due, not a trap")
    func enormousDelay() async {
        let executor = PlayerExecutor(named: "me-test", counting: DispatchGroup())
        executor.enqueue(after: .seconds(Int64.max)) {}
        let ran = await executor.perform { true }
        #expect(ran)
        executor.finish()
    }
}
