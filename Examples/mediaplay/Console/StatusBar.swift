import MediaEngineCore

#if canImport(Glibc)
    import Glibc
#endif

/// One line at the bottom of a terminal's output, redrawn in place: a carriage return, the line,
/// and "erase to the end of the line" (`ESC [ K`), so a shorter line leaves nothing of a longer
/// one. Other output goes above it through ``print(_:)``, which clears the line first and draws
/// it again below what it printed, so the two never mix.
///
/// Every write is made under one lock, in the order asked, from any thread (a signal source's
/// handler included). The terminal's width is asked for (`TIOCGWINSZ`) at each ``columns`` read,
/// so a resized terminal (SIGWINCH) gets lines of its new width from the next draw on.
public final class StatusBar: Sendable {
    private struct State {
        /// The line on the terminal now, nil when none is.
        var shown: String?
        /// The line to draw again after printed text.
        var line: String?
        /// Hidden until a forced draw (the process is stopped).
        var hidden = false
        var closed = false
    }

    private let descriptor: Int32
    private let state = Locked(State())

    /// A status bar on `descriptor` (a terminal), standard output by default.
    /// - Parameter descriptor: Where to draw.
    public init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
    }

    /// The terminal's width in columns; 80 when it does not say.
    public var columns: Int {
        var size = winsize()
        let result = withUnsafeMutablePointer(to: &size) { ioctl(descriptor, UInt(TIOCGWINSZ), $0) }
        return result == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    /// Shows `line` in place of the one shown. Nothing is written when it is already there,
    /// unless `force` (after the terminal was resized, say), nor while hidden, unless `force`.
    /// - Parameters:
    ///   - line: One line, without control characters, narrower than the terminal.
    ///   - force: Draw even an unchanged line, and after ``hide()``.
    public func show(_ line: String, force: Bool = false) {
        state.withLock { state in
            guard !state.closed else { return }
            state.line = line
            if force { state.hidden = false }
            guard !state.hidden, force || state.shown != line else { return }
            write("\r" + line + Self.eraseToEnd)
            state.shown = line
        }
    }

    /// Prints `text` above the bar: the bar is cleared, the text written with a line ending, and
    /// the bar drawn again below it. After ``close()``, the text alone.
    /// - Parameter text: One or more lines.
    public func print(_ text: String) {
        state.withLock { state in
            var output = state.shown == nil ? "" : "\r" + Self.eraseToEnd
            output += text + "\n"
            let drawn = state.closed || state.hidden ? nil : state.line
            if let drawn { output += drawn + Self.eraseToEnd }
            state.shown = drawn
            write(output)
        }
    }

    /// Clears the bar until a forced ``show(_:force:)`` (the process is about to stop: Ctrl-Z).
    public func hide() {
        state.withLock { state in
            state.hidden = true
            if state.shown != nil { write("\r" + Self.eraseToEnd) }
            state.shown = nil
        }
    }

    /// Clears the bar for good, leaving the cursor at the start of its empty line; later
    /// ``show(_:force:)`` calls draw nothing, and ``print(_:)`` prints plain lines.
    public func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            if state.shown != nil { write("\r" + Self.eraseToEnd) }
            state.shown = nil
        }
    }

    private static let eraseToEnd = "\u{1B}[K"

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return  // a closed or hung-up terminal: nothing more to show
            }
        }
    }
}
