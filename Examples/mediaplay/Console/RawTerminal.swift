import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A terminal's input in raw mode while a program reads single keys: no line editing (each key
/// is read as it is typed) and no echo; Ctrl-C and Ctrl-Z still send their signals (ISIG is
/// kept), and output is processed as before (`\n` still starts a new line). The settings from
/// before are given back by ``restore()``, and at the latest when the process exits (`atexit`);
/// a program that handles SIGINT or SIGTERM calls ``restore()`` in its handler.
public final class RawTerminal: Sendable {
    private let descriptor: Int32
    private let saved: Mutex<termios?>

    /// Every terminal put in raw mode, for the exit hook.
    private static let active = Mutex<[RawTerminal]>([])

    /// Puts `descriptor` in raw mode; nil when it is not a terminal, or belongs to another process
    /// group's foreground (a program started in the background must not take the keys: the
    /// kernel would stop it at its first read or settings change, SIGTTIN or SIGTTOU).
    /// - Parameter descriptor: The terminal, standard input by default.
    public init?(descriptor: Int32 = STDIN_FILENO) {
        guard isatty(descriptor) == 1 else { return nil }
        let foreground = tcgetpgrp(descriptor)
        // -1: not the process's controlling terminal (as under a test's pseudo-terminal), which
        // it may use freely.
        guard foreground == -1 || foreground == getpgrp() else { return nil }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return nil }
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1  // a read returns as soon as there is a byte
            characters[Int(VTIME)] = 0
        }
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
        self.descriptor = descriptor
        saved = Mutex(settings)
        let first = Self.active.withLock { active in
            active.append(self)
            return active.count == 1
        }
        if first { atexit { RawTerminal.restoreAll() } }
    }

    /// Whether the terminal is still in raw mode (``restore()`` not called yet).
    public var isRaw: Bool { saved.withLock { $0 != nil } }

    /// Gives the terminal its settings from before; calling it again does nothing. Safe from any
    /// thread, and from a signal source's handler.
    public func restore() {
        guard
            var settings = saved.withLock({ saved in
                defer { saved = nil }
                return saved
            })
        else { return }
        // A terminal that refuses (it hung up) cannot be helped.
        _ = tcsetattr(descriptor, TCSANOW, &settings)
    }

    private static func restoreAll() {
        for terminal in active.withLock({ $0 }) { terminal.restore() }
    }
}
