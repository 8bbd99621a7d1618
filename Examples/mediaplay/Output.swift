import Foundation
import MediaEngine
import MediaplayConsole
import TerminalVideoSink

#if canImport(Glibc)
    import Glibc
#endif

/// Where mediaplay's lines and progress go, and whether it reads keys: decided once from what
/// standard input and output are.
///
/// - Standard output a terminal: the progress is one line redrawn in place (``StatusBar``), and
///   lines are printed above it. With the terminal sink drawing on standard output, the progress
///   and lines go to the sink's status line instead; with it drawing on another descriptor of a
///   terminal, no progress line is drawn (it would land in the picture).
/// - Otherwise (a pipe, a file): a line every half second, as before keys existed, and no
///   escape sequence or carriage return is written.
/// - Standard input a terminal in the foreground: raw mode and keys (``RawTerminal``,
///   ``KeyReader``), given back on every way out: the end, ``fail(_:)``, q, Ctrl-C (SIGINT),
///   SIGTERM, and `exit` (RawTerminal's own hook); and while stopped by Ctrl-Z (SIGTSTP), raw
///   again on SIGCONT.
@MainActor
final class Output {
    enum Progress {
        /// A line every half second.
        case lines
        /// One line redrawn in place on standard output.
        case bar(StatusBar)
        /// The terminal sink's status line, below the picture.
        case statusLine(TerminalVideoSink)
    }

    let progress: Progress
    /// The terminal sink drawing on standard output, if it is the output.
    let terminal: TerminalVideoSink?
    /// Standard input in raw mode, while keys are read.
    let keyboard: RawTerminal?
    let keys: KeyReader?
    /// What the progress line shows, read from the player; set once the player exists.
    var snapshot: (() -> ProgressSnapshot)?
    /// The progress stays as it is: the player is stopping on purpose (q).
    private var frozen = false
    /// A message shown in the terminal sink's status line instead of the progress for a while.
    private var message: (text: String, until: ContinuousClock.Instant)?

    /// Decides, and puts standard input in raw mode if it is a terminal in the foreground.
    /// - Parameter sink: The player's sink (the terminal sink decides where lines go).
    init(sink: any VideoSink) {
        let terminalSink = sink as? TerminalVideoSink
        let onStandardOutput = terminalSink.map { $0.fileDescriptor == STDOUT_FILENO } ?? false
        terminal = onStandardOutput ? terminalSink : nil
        let outputIsTerminal = isatty(STDOUT_FILENO) == 1
        if let terminal, outputIsTerminal {
            progress = .statusLine(terminal)
        } else if outputIsTerminal && !(terminalSink.map { isatty($0.fileDescriptor) == 1 } ?? false) {
            progress = .bar(StatusBar())
        } else {
            progress = .lines
        }
        keyboard = RawTerminal()
        keys = keyboard.map { _ in KeyReader() }
        // mediaplay asks the terminal sink not to handle Ctrl-C itself (`sigint=false`), and
        // handles it for both.
        let sinkLeavesInterrupts = terminalSink.map { !$0.exitsOnInterrupt } ?? false
        if case .lines = progress, keyboard == nil, !sinkLeavesInterrupts { return }
        // Ctrl-C and SIGTERM: the terminal back as it was, then the usual exit statuses.
        let restore = restorer
        ConsoleSignals.watch(SIGINT) {
            restore()
            exit(130)
        }
        ConsoleSignals.watch(SIGTERM) {
            restore()
            exit(143)
        }
        if case .bar = progress {
            ConsoleSignals.watch(SIGWINCH) { [weak self] in Task { @MainActor in self?.refresh(force: true) } }
        }
        // Ctrl-Z: the terminal as it was for the shell while stopped, raw mode and the line again
        // when continued (`fg`).
        let bar: StatusBar? = if case .bar(let bar) = progress { bar } else { nil }
        ConsoleSignals.watch(SIGTSTP) { [keyboard] in
            keyboard?.suspend()
            bar?.hide()
            // Stopped as the signal's default action would have (the source replaced it).
            kill(getpid(), SIGSTOP)
        }
        ConsoleSignals.watch(SIGCONT) { [weak self, keyboard] in
            keyboard?.resume()
            Task { @MainActor in self?.refresh(force: true) }
        }
    }

    /// Whether the progress is a line redrawn in place (or the sink's status line).
    var isInteractive: Bool {
        if case .lines = progress { false } else { true }
    }

    /// Prints a line: above the progress line, or in the terminal sink's status line.
    func say(_ line: String) {
        switch progress {
        case .lines:
            if let terminal { terminal.statusLine = line } else { print(line) }
        case .bar(let bar):
            bar.print(line)
        case .statusLine(let terminal):
            terminal.statusLine = line
            message = (line, .now + .seconds(2))
        }
    }

    /// Draws the progress again from the player (nothing in ``Progress/lines`` mode, nor once
    /// ``freeze()`` was called).
    /// - Parameter force: Draw even if unchanged (the terminal was resized).
    func refresh(force: Bool = false) {
        guard !frozen, isInteractive, let snapshot = snapshot?() else { return }
        switch progress {
        case .lines:
            break
        case .bar(let bar):
            bar.show(ProgressLine.render(snapshot, width: bar.columns), force: force)
        case .statusLine(let terminal):
            if let message, message.until > .now { return }
            message = nil
            terminal.statusLine = ProgressLine.render(snapshot, width: Self.terminalColumns)
        }
    }

    /// Keeps the progress as it is from now on (the player is being stopped: its position goes back
    /// to the start, which is not where the user left it).
    func freeze() { frozen = true }

    /// Gives the terminal back: the progress line cleared, the terminal sink's picture left with
    /// the cursor below it, input out of raw mode. Calling it again does nothing.
    func restore() {
        restorer()
        keys?.stop()
    }

    /// The same, as a closure any thread may call (a signal source's handler).
    private var restorer: @Sendable () -> Void {
        let bar: StatusBar? = if case .bar(let bar) = progress { bar } else { nil }
        return { [bar, terminal, keyboard] in
            bar?.close()
            terminal?.restoreTerminal()
            keyboard?.restore()
        }
    }

    /// The width of the terminal on standard output.
    private static var terminalColumns: Int {
        var size = winsize()
        let result = withUnsafeMutablePointer(to: &size) { ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), $0) }
        return result == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }
}
