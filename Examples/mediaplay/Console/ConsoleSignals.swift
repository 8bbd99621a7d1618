import Dispatch
import Synchronization

/// Signals a terminal program answers (SIGINT, SIGTERM to give the terminal back before it
/// exits, SIGWINCH to redraw at the new width), watched with dispatch sources: their handlers run
/// on a queue of their own, never inside a signal handler, so they may take locks, write and call
/// `exit`. libdispatch replaces the signal's disposition with its own handler when a source is
/// made and never puts the old one back, so the handler is from then on what the signal does.
/// Several sources for one signal (the terminal video sink's SIGWINCH, say) each run.
public enum ConsoleSignals {
    private static let sources = Mutex<[any DispatchSourceSignal]>([])
    private static let queue = DispatchQueue(label: "mediaplay.signals")

    /// Runs `handler` each time `signal` arrives, from now on. Returns once the source is
    /// registered (before, the signal would still have its default action).
    /// - Parameters:
    ///   - signal: The signal (`SIGINT`, ...).
    ///   - handler: What to do, on the signals' queue.
    public static func watch(_ signal: Int32, handler: @escaping @Sendable () -> Void) {
        let registered = sources.withLock { sources in
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            let registered = DispatchSemaphore(value: 0)
            source.setRegistrationHandler { registered.signal() }
            source.setEventHandler(handler: handler)
            source.resume()
            sources.append(source)
            return registered
        }
        // Waited for outside the lock. The queue is idle but for signals: registration takes
        // microseconds.
        _ = registered.wait(timeout: .now() + .seconds(1))
    }
}
