internal import CMediaEngineGlue
import Dispatch
import Glibc
import Synchronization

/// Where players' pipelines are torn down: threads of the process's own (`me-teardown`), one
/// teardown after another on one of them as long as teardowns go normally, and another thread as
/// soon as one does not, so that one player's stuck pipeline never holds up another's.
///
/// Tearing a 720p pipeline down costs about 2 ms of CPU (its decoder stopped, its buffer pools
/// freed, its threads joined; measured with the thread's CPU clock). Twenty players stopped at
/// once used to do it on their twenty threads at the same moment, and on a 2-core machine every
/// other thread, the app's tasks included, waited its turn for the cores (a watchdog task woke
/// 2-4 ms later than on the idle machine). One after another, on one thread, the teardowns leave
/// a core to the rest (`engine-bench --only teardown`). The threads keep the default priority: at
/// a lower one (nice 10) they fell behind on a loaded machine, and pipelines waiting to be torn
/// down kept their streaming threads and buffers meanwhile.
///
/// But a pipeline can get stuck on its way to NULL: a sink that blocks in its state change (a
/// frames callback that never returns holds the sink's streaming lock), a network source that
/// hangs. Queued behind it, every other player's teardown, and so its `shutdown()` and the next
/// preparation that waits for it, would wait for ever. So a watch (`me-teardown-watch`) looks at
/// the teardowns under way:
/// - when teardowns are waiting and every teardown thread has been on its current one for
///   ``spillAfter`` (5 ms; a normal teardown takes 2-3 ms), it starts another thread
///   for them, up to ``maximumThreads`` (8) in all, stuck ones included: a process where this
///   keeps happening holds at most that many, and beyond it teardowns wait for one to come back;
///   a thread started so leaves after a second with nothing to do, the first one stays;
/// - a teardown still under way after ``stuckAfter`` (2 s) is reported, once: the player that
///   let the pipeline go announces ``PlayerEvent/teardownStalled(element:after:)`` naming the
///   element(s) still between two states, and a line on standard error says the same (also for
///   a player released meanwhile). The player's own waits for its pipelines (its next
///   preparation, its `shutdown()`, its release) stop waiting then.
///
/// A player's thread hands a pipeline over once it has performed everything it was asked before
/// the stop, and from then on no longer touches it (its late timers find it closed). A new
/// pipeline of the same player is built only once the player's earlier teardowns are done (its
/// thread waits for them, at most ``stuckAfter``), so two of its pipelines never hold the same
/// resources (a window, a file) unless one is stuck; ``MoviePlayer/shutdown()`` and the end of a
/// released player wait for them too, as long.
///
/// What a teardown frees (pictures, pools, decoder contexts) stays with malloc, which reuses it
/// for the next pipelines; the threads do not give it back to the system by themselves. They did,
/// once after each burst of teardowns (`malloc_trim`), and that held every thread of the process
/// that allocated meanwhile: glibc trims an arena under its lock, and after twenty 720p players
/// that took about 30 ms (`engine-bench --only teardown`). ``GStreamer/returnFreeMemory()`` does
/// it when the app asks.
enum PipelineTeardown {
    /// How long a teardown may take before it is reported, and its player stops waiting for it.
    static let stuckAfter = Duration.seconds(2)
    /// How long every teardown thread may be busy with its current teardown before waiting ones
    /// go to another thread.
    static let spillAfter = Duration.milliseconds(5)
    /// The most teardown threads the process holds, stuck ones included.
    static let maximumThreads = 8

    private static let pool = TeardownPool(
        spillAfter: spillAfter, stuckAfter: stuckAfter, maximumThreads: maximumThreads)

    /// Teardowns handed over and not finished.
    private static let queued = Atomic<Int>(0)

    /// The pause between two teardowns of a burst on one thread, in microseconds.
    private static let pauseBetweenTeardowns: useconds_t = 1000

    /// Tears `session` down, after those handed over before it (or beside them, when they are
    /// slow); `pending` is entered now and left once the pipeline is at NULL, its threads ended
    /// and its files closed. Counted in ``PlayerLifetimes/teardowns`` meanwhile.
    /// - Parameters:
    ///   - session: The pipeline.
    ///   - pending: The player's teardowns.
    ///   - player: Names the player in the line a stuck teardown is reported with.
    ///   - stalled: Told, once, when the teardown has taken ``stuckAfter``: what holds it up, and
    ///     how long it has taken. On the watch's thread: it must not block.
    static func close(
        _ session: PipelineSession, pending: DispatchGroup, player: String,
        stalled: @escaping @Sendable (_ element: String, _ after: Duration) -> Void
    ) {
        pending.enter()
        PlayerLifetimes.teardowns.enter()
        queued.add(1, ordering: .relaxed)
        pool.enqueue(
            TeardownPool.Item(
                run: {
                    session.close()
                    if queued.subtract(1, ordering: .relaxed).newValue > 0 {
                        // More to tear down: a pause between them, so that a burst (twenty players
                        // stopped at once) never keeps a thread and the streaming threads it stops
                        // on both cores for its whole length.
                        usleep(pauseBetweenTeardowns)
                    }
                },
                stuck: { after in
                    let element = session.pendingStateChanges ?? "no element reports a pending state change"
                    EngineLog.warning(
                        "the teardown of player \(player)'s pipeline \(session.id) has taken \(after.formattedSeconds) "
                            + "and is not done: \(element)")
                    stalled(element, after)
                },
                finished: {
                    pending.leave()
                    PlayerLifetimes.teardowns.leave()
                }))
    }

    /// Gives malloc's free memory back to the system on a teardown thread, once the teardowns
    /// handed over before it have been taken up, then calls `done`.
    static func returnFreeMemory(then done: @escaping @Sendable () -> Void) {
        pool.enqueue(
            TeardownPool.Item(
                run: {
                    me_return_free_memory()
                    done()
                }, stuck: { _ in }))
    }
}
