import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A terminal's size in character cells.
struct TerminalSize: Sendable, Hashable, CustomStringConvertible {
    /// Columns.
    var columns: Int
    /// Rows.
    var rows: Int

    /// The size assumed when neither the terminal nor the environment tells.
    static let fallback = TerminalSize(columns: 80, rows: 24)

    /// `COLUMNSxROWS`.
    var description: String { "\(columns)x\(rows)" }
}

/// The file descriptor the sink draws on: a terminal, or a pipe or file when the output is
/// redirected. The sink does not own it and never closes it.
struct TerminalDevice: Sendable {
    /// The descriptor.
    let descriptor: Int32

    /// Whether the descriptor is a terminal (`isatty`).
    var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Whether the descriptor is open (`fcntl(F_GETFD)`).
    var isOpen: Bool { fcntl(descriptor, F_GETFD) != -1 }

    /// The terminal's size as the kernel knows it (`TIOCGWINSZ`); nil for a pipe or a file, or
    /// a terminal that reports no size.
    var kernelSize: TerminalSize? {
        var size = winsize()
        let result = withUnsafeMutablePointer(to: &size) { ioctl(descriptor, UInt(TIOCGWINSZ), $0) }
        guard result == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// The size to draw for, and whether it is the terminal's own: the kernel's, else `COLUMNS`
    /// and `LINES` from the environment (each on its own), else 80x24.
    func size(environment: [String: String] = ProcessInfo.processInfo.environment) -> (
        size: TerminalSize, measured: Bool
    ) {
        if let size = kernelSize { return (size, true) }
        func variable(_ name: String, _ fallback: Int) -> Int {
            guard let text = environment[name], let value = Int(text), value > 0 else { return fallback }
            return value
        }
        let size = TerminalSize(
            columns: variable("COLUMNS", TerminalSize.fallback.columns),
            rows: variable("LINES", TerminalSize.fallback.rows))
        return (size, false)
    }

    /// Writes all of `bytes`, waiting while the terminal is slow (this runs on the sink's own
    /// writer thread, never on a streaming thread).
    /// - Parameter bytes: What to write.
    /// - Returns: False when the descriptor refuses (a closed pipe, a terminal hung up).
    func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    // A descriptor someone made non-blocking: wait until it takes more.
                    var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&poller, 1, -1)
                } else {
                    return false
                }
            }
            return true
        }
    }

    /// Stops the terminal echoing what is typed (the echo would land in the picture, and Return
    /// would scroll it), keeping everything else (Ctrl-C still interrupts).
    /// - Returns: The settings to give back to ``restoreSettings(_:)``, or nil when the
    ///   descriptor is not a terminal or echo was already off.
    func turnOffEcho() -> termios? {
        var settings = termios()
        guard isTerminal, tcgetattr(descriptor, &settings) == 0, settings.c_lflag & tcflag_t(ECHO) != 0 else {
            return nil
        }
        var quiet = settings
        quiet.c_lflag &= ~tcflag_t(ECHO)
        guard tcsetattr(descriptor, TCSANOW, &quiet) == 0 else { return nil }
        return settings
    }

    /// Gives the terminal back the settings ``turnOffEcho()`` returned.
    /// - Parameter settings: The settings from before.
    func restoreSettings(_ settings: termios) {
        var settings = settings
        // Nothing more can be done for a terminal that refuses (it hung up, say).
        _ = tcsetattr(descriptor, TCSANOW, &settings)
    }
}
