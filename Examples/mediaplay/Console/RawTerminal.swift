import MediaEngineCore

#if canImport(Glibc)
    import Glibc
#endif

/// A terminal's input in raw mode while a program reads single keys: no line editing (each key
/// is read as it is typed) and no echo; Ctrl-C and Ctrl-Z still send their signals (ISIG is
/// kept), and output is processed as before (`\n` still starts a new line). The settings from
/// before are given back by ``restore()``, and at the latest when the process exits (`atexit`);
/// a program that handles SIGINT or SIGTERM calls ``restore()`` in its handler. A program
/// suspended with Ctrl-Z (SIGTSTP) gives them back for the shell with ``suspend()`` and takes raw
/// mode again when continued (SIGCONT) with ``resume()``: a shell that put its own settings back
/// meanwhile would otherwise leave it reading whole lines, with echo.
public final class RawTerminal: Sendable {
    private struct Modes {
        let original: termios
        let raw: termios
        /// In raw mode now.
        var isRaw = true
        /// Given back for good: nothing changes the settings any more.
        var restored = false
    }

    private let descriptor: Int32
    private let modes: Locked<Modes>

    /// Every terminal put in raw mode, for the exit hook.
    private static let active = Locked<[RawTerminal]>([])

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
        modes = Locked(Modes(original: settings, raw: raw))
        let first = Self.active.withLock { active in
            active.append(self)
            return active.count == 1
        }
        if first { atexit { RawTerminal.restoreAll() } }
    }

    /// Whether the terminal is in raw mode now.
    public var isRaw: Bool { modes.withLock { $0.isRaw } }

    /// Gives the terminal its settings from before, for good; calling it again does nothing. Safe
    /// from any thread, and from a signal source's handler.
    public func restore() { set(raw: false, forGood: true) }

    /// Gives the terminal its settings from before until ``resume()`` (the process is about to
    /// stop: SIGTSTP).
    public func suspend() { set(raw: false, forGood: false) }

    /// Raw mode again after ``suspend()`` (SIGCONT), unless ``restore()`` was called; also after
    /// a shell changed the settings while the process was stopped.
    public func resume() { set(raw: true, forGood: false) }

    private func set(raw: Bool, forGood: Bool) {
        modes.withLock { modes in
            guard !modes.restored else { return }
            modes.restored = forGood
            modes.isRaw = raw
            var settings = raw ? modes.raw : modes.original
            // A terminal that refuses (it hung up) cannot be helped.
            _ = tcsetattr(descriptor, TCSANOW, &settings)
        }
    }

    private static func restoreAll() {
        for terminal in active.withLock({ $0 }) { terminal.restore() }
    }
}
