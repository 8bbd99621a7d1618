internal import CMediaEngineGlue
import Dispatch
import Glibc
import Synchronization

/// Where players' pipelines are torn down: one thread for the whole process (`me-teardown`),
/// which takes them to NULL one after another.
///
/// Tearing a 720p pipeline down costs about 2 ms of CPU (its decoder stopped, its buffer pools
/// freed, its threads joined; measured with the thread's CPU clock). Twenty players stopped at
/// once used to do it on their twenty threads at the same moment, and on a 2-core machine every
/// other thread, the app's tasks included, waited its turn for the cores (a watchdog task woke
/// 2-4 ms later than on the idle machine). One after another, on one thread, the teardowns leave
/// a core to the rest (`engine-bench --only teardown`). The thread keeps the default priority:
/// at a lower one (nice 10) it fell behind on a loaded machine, and pipelines waiting to be torn
/// down kept their streaming threads and buffers meanwhile.
///
/// A player's thread hands a pipeline over once it has performed everything it was asked before
/// the stop, and from then on no longer touches it (its late timers find it closed). A new
/// pipeline of the same player is built only once the player's earlier teardowns are done (its
/// thread waits for them), so two of its pipelines never hold the same resources (a window, a
/// file); ``MoviePlayer/shutdown()`` and the end of a released player wait for them too.
///
/// What a teardown frees (pictures, pools, decoder contexts) stays with malloc, which reuses it
/// for the next pipelines; the thread does not give it back to the system by itself. It did, once
/// after each burst of teardowns (`malloc_trim`), and that held every thread of the process that
/// allocated meanwhile: glibc trims an arena under its lock, and after twenty 720p players that
/// took about 30 ms (`engine-bench --only teardown`). ``GStreamer/returnFreeMemory()`` does it
/// when the app asks.
enum PipelineTeardown {
    /// The thread: it lives as long as the process and sleeps when there is nothing to tear down.
    private static let thread = PlayerExecutor(named: "me-teardown", counting: DispatchGroup())

    /// Teardowns handed over and not finished.
    private static let queued = Atomic<Int>(0)

    /// The pause between two teardowns of a burst, in microseconds.
    private static let pauseBetweenTeardowns: useconds_t = 1000

    /// Tears `session` down on the teardown thread, after those handed over before it; `pending`
    /// is entered now and left once the pipeline is at NULL, its threads ended and its files
    /// closed. Counted in ``PlayerLifetimes/teardowns`` meanwhile.
    static func close(_ session: PipelineSession, pending: DispatchGroup) {
        pending.enter()
        PlayerLifetimes.teardowns.enter()
        queued.add(1, ordering: .relaxed)
        thread.enqueue { session.close() }
        // A work item of its own: the one before, and the pipeline it held, are released by now.
        thread.enqueue {
            if queued.subtract(1, ordering: .relaxed).newValue > 0 {
                // More to tear down: a pause between them, so that a burst (twenty players
                // stopped at once) never keeps this thread and the streaming threads it stops on
                // both cores for its whole length.
                usleep(pauseBetweenTeardowns)
            }
            pending.leave()
            PlayerLifetimes.teardowns.leave()
        }
    }

    /// Gives malloc's free memory back to the system on the teardown thread, after every teardown
    /// handed over before it, then calls `done`.
    static func returnFreeMemory(then done: @escaping @Sendable () -> Void) {
        thread.enqueue {
            me_return_free_memory()
            done()
        }
    }
}
