import Dispatch
import MediaTestSupport
import Synchronization
import Testing

@testable import MediaEngineCore

/// The teardown threads' pool on its own, with plain work items instead of pipelines.
@Suite("Teardown pool")
struct TeardownPoolTests {
    final class Flags: Sendable {
        let freed = Atomic<Bool>(false)
        let freedBeforeFinished = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
    }

    @Test(
        "an item's finished runs after the pool let go of what the item held (a pipeline is freed before it counts as torn down)"
    )
    func finishedAfterRelease() async throws {
        let pool = TeardownPool(spillAfter: .milliseconds(5), stuckAfter: .seconds(2), maximumThreads: 2)
        for _ in 0..<50 {
            let flags = Flags()
            let start = DispatchSemaphore(value: 0)
            Self.enqueueHolding(HeldObject(flags), on: pool, start: start, flags: flags)
            // Nothing here holds the object any more: only the item does.
            start.signal()
            try await OwnThread.run { flags.done.wait() }
            let freedFirst = flags.freedBeforeFinished.load(ordering: .acquiring)
            #expect(freedFirst, "the item was still held when it finished")
        }
    }

    /// Hands the pool an item whose closures hold `held`, which runs once `start` is signalled.
    private static func enqueueHolding(
        _ held: HeldObject, on pool: TeardownPool, start: DispatchSemaphore, flags: Flags
    ) {
        pool.enqueue(
            TeardownPool.Item(
                run: { withExtendedLifetime(held) { start.wait() } }, stuck: { _ in withExtendedLifetime(held) {} },
                finished: {
                    flags.freedBeforeFinished.store(flags.freed.load(ordering: .acquiring), ordering: .releasing)
                    flags.done.signal()
                }))
    }

    @Test("twenty thousand items that take no time all run, and none is reported stuck")
    func quickItemsAreNotStuck() async throws {
        // Stuck after 5 s: a thread that took an item may lose the CPU for seconds on a loaded
        // machine (a thread was reported after 2 s, with load 10 on 2 cores, between an empty
        // item's start and its end).
        let stuckAfter = Duration.seconds(5)
        let pool = TeardownPool(spillAfter: .milliseconds(1), stuckAfter: stuckAfter, maximumThreads: 4)
        let reports = Atomic<Int>(0)
        let count = 20_000
        let finished = Atomic<Int>(0)
        let allDone = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            pool.enqueue(
                TeardownPool.Item(
                    run: {}, stuck: { _ in reports.add(1, ordering: .relaxed) },
                    finished: {
                        if finished.add(1, ordering: .relaxed).newValue == count { allDone.signal() }
                    }))
        }
        try await OwnThread.run { allDone.wait() }
        // A thread left marked busy after its item would be reported within stuckAfter.
        try await Task.sleep(for: stuckAfter + .milliseconds(500))
        let reported = reports.load(ordering: .relaxed)
        #expect(reported == 0)
    }

    /// An object whose deinit sets the flag: what an item's closures hold.
    final class HeldObject: Sendable {
        let flags: Flags
        init(_ flags: Flags) { self.flags = flags }
        deinit { flags.freed.store(true, ordering: .releasing) }
    }
}
