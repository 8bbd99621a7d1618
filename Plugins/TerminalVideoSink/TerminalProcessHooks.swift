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
        var interrupt: (any DispatchSourceSignal)?
        var resize: (any DispatchSourceSignal)?
        var exiting = false
    }

    private static let hooks = Mutex(Hooks())
    private static let queue = DispatchQueue(label: "terminal-video-sink.signals")

    /// Whether the process is exiting (or interrupted): no screen starts drawing again.
    static var isExiting: Bool { hooks.withLock { $0.exiting } }

    /// A screen starts drawing.
    static func activate(_ screen: TerminalScreen) {
        hooks.withLock { hooks in
            hooks.screens[ObjectIdentifier(screen)] = screen
            if !hooks.exitHandlerInstalled {
                hooks.exitHandlerInstalled = true
                atexit { TerminalProcessHooks.restoreAll() }
            }
            if screen.configuration.exitsOnInterrupt && hooks.interrupt == nil {
                hooks.interrupt = makeSource(SIGINT) {
                    restoreAll()
                    exit(130)
                }
            }
            if screen.configuration.device.isTerminal && hooks.resize == nil {
                hooks.resize = makeSource(SIGWINCH) {
                    for screen in TerminalProcessHooks.hooks.withLock({ Array($0.screens.values) }) {
                        screen.terminalResized()
                    }
                }
            }
        }
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

    private static func makeSource(_ signal: Int32, handler: @escaping @Sendable () -> Void)
        -> any DispatchSourceSignal
    {
        let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
        source.setEventHandler(handler: handler)
        source.resume()
        return source
    }
}
