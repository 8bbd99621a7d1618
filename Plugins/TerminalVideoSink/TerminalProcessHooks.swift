import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What the process does for the screens that are drawing: give their terminals back when it
/// exits (`atexit`) or is interrupted (Ctrl-C, SIGINT: then it exits with status 130), and lay
/// them out again when the terminal is resized (SIGWINCH).
///
/// The signals are watched with dispatch sources, whose handlers run on a queue of their own, never
/// inside a signal handler. Each is set up the first time a screen needs it and kept for the
/// process's life: libdispatch replaces the signal's disposition with its own handler when a
/// source is made and never puts the old one back, so after that the source is the only way
/// the process hears the signal. For SIGINT this means Ctrl-C always ends the process with
/// status 130 once a sink that handles it has drawn (as the default action would, bar the status).
enum TerminalProcessHooks {
    private struct Hooks {
        var screens: [ObjectIdentifier: TerminalScreen] = [:]
        var exitHandlerInstalled = false
        var interruptWatched = false
        var resizeWatched = false
        /// The signal sources, kept for the process's life.
        var sources: [any DispatchSourceSignal] = []
        var exiting = false
    }

    private static let hooks = Mutex(Hooks())
    private static let queue = DispatchQueue(label: "terminal-video-sink.signals")

    /// Whether the process is exiting (or interrupted): no screen starts drawing again.
    static var isExiting: Bool { hooks.withLock { $0.exiting } }

    /// A screen starts drawing. Returns once the signals it needs are watched.
    static func activate(_ screen: TerminalScreen) {
        let registrations = hooks.withLock { hooks -> [DispatchSemaphore] in
            hooks.screens[ObjectIdentifier(screen)] = screen
            if !hooks.exitHandlerInstalled {
                hooks.exitHandlerInstalled = true
                atexit { TerminalProcessHooks.restoreAll() }
            }
            var registrations: [DispatchSemaphore] = []
            if screen.configuration.exitsOnInterrupt && !hooks.interruptWatched {
                hooks.interruptWatched = true
                let (source, registered) = makeSource(SIGINT) {
                    restoreAll()
                    exit(130)
                }
                hooks.sources.append(source)
                registrations.append(registered)
            }
            if screen.configuration.device.isTerminal && !hooks.resizeWatched {
                hooks.resizeWatched = true
                let (source, registered) = makeSource(SIGWINCH) {
                    for screen in TerminalProcessHooks.hooks.withLock({ Array($0.screens.values) }) {
                        screen.terminalResized()
                    }
                }
                hooks.sources.append(source)
                registrations.append(registered)
            }
            return registrations
        }
        // Waited for outside the lock, which the handlers take. The queue is this type's own and
        // idle but for signals: registration takes microseconds.
        for registered in registrations { _ = registered.wait(timeout: .now() + .seconds(1)) }
    }

    /// A screen stopped drawing (it gave its terminal back).
    static func deactivate(_ screen: TerminalScreen) {
        _ = hooks.withLock { $0.screens.removeValue(forKey: ObjectIdentifier(screen)) }
    }

    /// Gives every terminal back, for good: the process is ending.
    static func restoreAll() {
        let screens = hooks.withLock { hooks in
            hooks.exiting = true
            return Array(hooks.screens.values)
        }
        for screen in screens { screen.finish() }
    }

    /// A source for `signal`, and a semaphore signalled once it is registered: libdispatch installs
    /// its handler for the signal on its own queue after `resume()`, and a signal that came before
    /// would still have its default action (for SIGINT, the end of the process without the
    /// terminal given back).
    private static func makeSource(_ signal: Int32, handler: @escaping @Sendable () -> Void) -> (
        any DispatchSourceSignal, DispatchSemaphore
    ) {
        let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
        let registered = DispatchSemaphore(value: 0)
        source.setRegistrationHandler { registered.signal() }
        source.setEventHandler(handler: handler)
        source.resume()
        return (source, registered)
    }
}
