import Dispatch
import Foundation
import MediaEngineCore
import Synchronization

/// One sink's drawing on its terminal: the newest frame waiting to be drawn, and the writer
/// thread that draws it.
///
/// Threads: ``submit(_:)`` runs on GStreamer's streaming thread and only swaps the waiting frame
/// (a frame not drawn yet is dropped for a newer one: nothing queues behind a slow terminal, and
/// the streaming thread never waits for it). The writer thread (`terminal-writer`) is the only
/// one that writes to the descriptor, from the first frame until ``finish()``, which asks it to
/// give the terminal back (colours reset, cursor shown, echo on) and waits for it.
final class TerminalScreen: Sendable {
    /// What the sink was asked for.
    struct Configuration: Sendable {
        var device: TerminalDevice
        /// The grid's width in cells, or nil for the terminal's.
        var columns: Int?
        /// The grid's height in cells, or nil for the terminal's less one row.
        var rows: Int?
        /// Whether Ctrl-C restores the terminal and ends the process (status 130).
        var exitsOnInterrupt: Bool
    }

    private struct State {
        /// How many outputs of the sink are alive (frame consumers a pipeline holds).
        var outputs = 0
        /// The newest frame not drawn yet.
        var pending: CellPixels?
        /// The terminal's size changed since the writer last looked.
        var resized = false
        var status = ""
        var statusChanged = false
        /// Whether the writer thread runs.
        var writing = false
        /// The writer is asked to give the terminal back and end.
        var finishing = false
        /// Frames are not drawn: the terminal was given back, until the sink makes its next output.
        var suspended = false
        /// The wake semaphore was signalled and the writer has not taken the work yet.
        var woken = false
        var drawn = 0
        var dropped = 0
        /// The terminal as the last writer gave it back, for a status line set afterwards; nil
        /// while a writer runs, or when nothing was drawn.
        var givenBack: GivenBack?
    }

    /// How the last writer left the terminal: its width, and whether the cursor is below a
    /// status line.
    private struct GivenBack {
        var columns: Int
        var statusShown: Bool
    }

    /// What the writer takes from the state each time it wakes.
    private struct Work {
        var frame: CellPixels?
        var resized: Bool
        var status: String?
        var finishing: Bool
    }

    let configuration: Configuration
    private let state = Mutex(State())
    /// Signalled when there is work for the writer (at most once per wait: see `State.woken`).
    private let wake = DispatchSemaphore(value: 0)
    /// Entered while a writer thread runs; ``finish()`` waits on it.
    private let writer = DispatchGroup()

    /// How long ``finish()`` waits for the writer to give the terminal back: a terminal that
    /// stopped reading (Ctrl-S, a stuck connection) must not hang the process's exit.
    static let finishTimeout = DispatchTimeInterval.seconds(2)

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The layout for the terminal as it is now.
    var currentLayout: TerminalLayout {
        let (size, measured) = configuration.device.size()
        return TerminalLayout(
            terminal: size, measured: measured, columns: configuration.columns, rows: configuration.rows)
    }

    /// Frames drawn so far.
    var framesDrawn: Int { state.withLock { $0.drawn } }

    /// Frames dropped so far because a newer one came before the terminal took them.
    var framesDropped: Int { state.withLock { $0.dropped } }

    /// The text on the row below the picture.
    ///
    /// Set after the terminal was given back (the player tore its output down a moment before the
    /// app printed its last line), it is written at once in place of the status row.
    var status: String {
        get { state.withLock { $0.status } }
        set {
            let (wakes, late) = state.withLock { state -> (Bool, [UInt8]?) in
                guard state.status != newValue else { return (false, nil) }
                state.status = newValue
                state.statusChanged = true
                guard !state.writing, let givenBack = state.givenBack else {
                    return (state.writing && Self.markWoken(&state), nil)
                }
                let late = TerminalPainter.lateStatus(
                    newValue, columns: givenBack.columns, statusShown: givenBack.statusShown)
                state.givenBack?.statusShown = late.statusShown
                return (false, late.bytes)
            }
            if wakes { wake.signal() }
            // On the caller's thread, as a print would be: no writer runs to do it.
            if let late { _ = configuration.device.write(late) }
        }
    }

    // MARK: Outputs

    /// A new output (frame consumer) of the sink: frames are drawn again if the terminal was given back.
    func outputMade() {
        state.withLock { state in
            state.outputs += 1
            state.suspended = TerminalProcessHooks.isExiting
        }
    }

    /// An output was released (its pipeline torn down): with none left, the terminal is given back.
    func outputReleased() {
        let last = state.withLock { state in
            state.outputs -= 1
            return state.outputs == 0
        }
        if last { finish() }
    }

    // MARK: Frames

    /// Hands over a frame to draw, replacing (dropping) one not drawn yet. Starts the writer
    /// at the first frame. Called on a streaming thread; returns at once.
    /// - Parameter frame: The frame's pixels.
    func submit(_ frame: CellPixels) {
        let (starts, wakes) = state.withLock { state -> (Bool, Bool) in
            guard !state.suspended, !state.finishing else { return (false, false) }
            if state.pending != nil { state.dropped += 1 }
            state.pending = frame
            let starts = !state.writing
            state.writing = true
            state.givenBack = nil
            return (starts, Self.markWoken(&state))
        }
        if starts { startWriter() }
        if wakes { wake.signal() }
    }

    /// The terminal's size changed (SIGWINCH): the writer lays the picture out again.
    func terminalResized() {
        let wakes = state.withLock { state in
            state.resized = true
            return state.writing && Self.markWoken(&state)
        }
        if wakes { wake.signal() }
    }

    /// Gives the terminal back: the writer resets the colours, shows the cursor, turns echo back
    /// on and ends; frames are not drawn until the sink makes another output. Waits for the
    /// writer (at most ``finishTimeout``). Does nothing when nothing is drawn.
    func finish() {
        let waits = state.withLock { state -> (Bool, Bool) in
            state.suspended = true
            state.pending = nil
            guard state.writing else { return (false, false) }
            state.finishing = true
            return (true, Self.markWoken(&state))
        }
        if waits.1 { wake.signal() }
        if waits.0 {
            // A writer stuck on a terminal that does not read is left behind: the process goes on
            // (or exits) without it.
            _ = writer.wait(timeout: .now() + Self.finishTimeout)
        }
    }

    /// Whether the writer must be woken: true once until it takes the work.
    private static func markWoken(_ state: inout State) -> Bool {
        guard !state.woken else { return false }
        state.woken = true
        return true
    }

    // MARK: The writer

    private func startWriter() {
        writer.enter()
        TerminalProcessHooks.activate(self)
        let thread = Thread { [self] in
            runWriter()
            TerminalProcessHooks.deactivate(self)
            writer.leave()
        }
        thread.name = "terminal-writer"
        thread.start()
    }

    private func takeWork() -> Work {
        state.withLock { state in
            let work = Work(
                frame: state.pending, resized: state.resized, status: state.statusChanged ? state.status : nil,
                finishing: state.finishing)
            state.pending = nil
            state.resized = false
            state.statusChanged = false
            state.woken = false
            return work
        }
    }

    private func runWriter() {
        let device = configuration.device
        var painter = TerminalPainter(layout: currentLayout, status: status)
        let settings = device.turnOffEcho()
        var healthy = true
        while true {
            wake.wait()
            let work = takeWork()
            // What came with the request to finish is drawn first (a last status line, say).
            let output = painter.paint(
                frame: work.frame, layout: work.resized ? currentLayout : nil, status: work.status)
            if healthy, !output.isEmpty {
                // A descriptor that refuses (a closed pipe, a hung-up terminal) is not written again.
                healthy = device.write(output)
                if healthy && work.frame != nil { state.withLock { $0.drawn += 1 } }
            }
            if work.finishing { break }
        }
        var givenBack: GivenBack?
        if healthy, let output = painter.restore() {
            // The last write: a terminal that refuses it now cannot be given anything better.
            if device.write(output) {
                givenBack = GivenBack(
                    columns: painter.layout.terminal.columns, statusShown: painter.statusShownAtRestore)
            }
        }
        if let settings { device.restoreSettings(settings) }
        state.withLock { state in
            state.givenBack = givenBack
            state.writing = false
            state.finishing = false
            state.pending = nil
        }
    }
}
