import Foundation
import MediaEngine

#if canImport(Glibc)
    import Glibc
#endif

/// A program run on a pseudo-terminal of a given size (`posix_openpt`), as in a terminal window:
/// its standard input and output are the terminal, its standard error a pipe (kept apart for
/// failure messages). Everything it writes to the terminal is recorded, read on a thread of its own;
/// what a person types is written to the terminal with ``type(_:)``.
public final class PseudoTerminalProgram: Sendable {
    private struct State {
        var output: [UInt8] = []
        var outputEnded = false
        var exitStatus: Int32?
    }

    /// What the reading and waiting threads and the test touch.
    private final class Shared: Sendable {
        let state = Locked(State())
        let changes = Waitlist()
    }

    /// The terminal's master side, which the test reads and sizes.
    public let master: Int32
    /// The terminal's settings before the program started.
    public let initialSettings: termios
    private let process: Process
    private let standardError: Pipe
    private let shared = Shared()

    /// Starts `program` on a new terminal of `columns` x `rows`.
    /// - Parameters:
    ///   - program: The program's path.
    ///   - arguments: Its arguments.
    ///   - columns: The terminal's width.
    ///   - rows: Its height.
    ///   - settings: Terminal settings to start with (the kernel's defaults for a new
    ///     pseudo-terminal otherwise).
    /// - Throws: ``TestMediaError`` when no pseudo-terminal can be had; the program's own failure to start.
    public init(_ program: String, _ arguments: [String], columns: Int, rows: Int, settings: termios? = nil) throws {
        // posix_openpt(), unlockpt() and ptsname() as Linux does them (Glibc's module does not
        // export the XSI functions): the multiplexer, TIOCSPTLCK and TIOCGPTN.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, Self.unlockRequest, &unlock) == 0,
            ioctl(master, Self.numberRequest, &number) == 0
        else { throw TestMediaError(message: "no pseudo-terminal: errno \(errno)") }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw TestMediaError(message: "cannot open /dev/pts/\(number): errno \(errno)") }
        if var settings { _ = tcsetattr(master, TCSANOW, &settings) }
        var initial = termios()
        _ = tcgetattr(master, &initial)
        initialSettings = initial
        process = Process()
        standardError = Pipe()
        Self.setSize(of: master, columns: columns, rows: rows)
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = standardError
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        for name in ["COLUMNS", "LINES", "DISPLAY", "WAYLAND_DISPLAY"] { environment.removeValue(forKey: name) }
        process.environment = environment
        do {
            try process.run()
        } catch {
            close(slave)
            close(master)
            throw error
        }
        // Only the program holds the terminal now, so the master reads end (EIO) when it exits.
        close(slave)
        let master = master
        Thread { [shared] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                shared.state.withLock { $0.output += buffer[0..<count] }
                shared.changes.recheck()
            }
            shared.state.withLock { $0.outputEnded = true }
            shared.changes.recheck()
        }.start()
        let process = process
        Thread { [shared] in
            let status = process.reap().code
            shared.state.withLock { $0.exitStatus = status }
            shared.changes.recheck()
        }.start()
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }

    /// The program's process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Everything written to the terminal so far.
    public var output: [UInt8] { shared.state.withLock { $0.output } }

    /// What the program wrote to standard error (once it has exited).
    public var errorText: String {
        String(decoding: standardError.fileHandleForReading.availableData, as: UTF8.self)
    }

    /// Waits until the output satisfies `condition`, or the program has exited and the terminal is
    /// closed (then it returns whatever there was).
    /// A timeout's error names `what` and ends with the last lines the program wrote.
    public func waitForOutput(
        _ what: String = "the program's output", _ condition: @escaping @Sendable ([UInt8]) -> Bool
    ) async throws {
        do {
            try await withDeadline(.seconds(20), what) { [shared] in
                await shared.changes.wait { shared.state.withLock { condition($0.output) || $0.outputEnded } }
            }
        } catch var timeout as DeadlineExceeded {
            let tail = String(decoding: output.suffix(600), as: UTF8.self)
            timeout.details = "the output ends with: \(tail.debugDescription)"
            throw timeout
        }
    }

    /// Waits for the program to exit and its output to end.
    /// - Returns: Its exit status, or minus the signal that ended it.
    public func waitForExit() async throws -> Int32 {
        try await withDeadline(.seconds(30), "the program's exit") { [shared] in
            await shared.changes.wait { shared.state.withLock { $0.exitStatus != nil && $0.outputEnded } }
        }
        return shared.state.withLock { $0.exitStatus ?? 0 }
    }

    /// Waits until the program's process is stopped (job control), as a shell sees it before
    /// its `fg` can continue it: `waitid(WSTOPPED | WNOWAIT)` on a thread of its own, which
    /// leaves the child's state for `Process` to collect.
    public func waitUntilStopped() async throws {
        let pid = process.processIdentifier
        try await withDeadline(.seconds(20), "the program's stop") {
            try await OwnThread.run { () throws -> Void in
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WSTOPPED | WNOWAIT) != 0 {
                    guard errno == EINTR else { throw TestMediaError(message: "waitid: errno \(errno)") }
                }
            }
        }
    }

    /// Sends the program a signal.
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Resizes the terminal, as a terminal window does (`TIOCSWINSZ`), and tells the program with
    /// SIGWINCH (the kernel sends it only to a terminal's foreground process group, which the program,
    /// run without a controlling terminal, is not).
    public func resize(columns: Int, rows: Int) {
        Self.setSize(of: master, columns: columns, rows: rows)
        send(SIGWINCH)
    }

    /// Whether the terminal echoes what is typed (the master reads the terminal's settings).
    public var echoes: Bool {
        var settings = termios()
        guard tcgetattr(master, &settings) == 0 else { return false }
        return settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Types `text` on the terminal, as a person at its keyboard would (its bytes, escape
    /// sequences included, go to the program's input).
    /// - Parameter text: The keys' bytes, such as `" "` or `"\u{1B}[C"` (Right).
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// The terminal's settings now (`tcgetattr` on the master side reads the terminal's).
    public var settings: termios {
        var settings = termios()
        _ = tcgetattr(master, &settings)
        return settings
    }

    /// TIOCSPTLCK, `_IOW('T', 0x31, int)`, and TIOCGPTN, `_IOR('T', 0x30, unsigned int)`: macros
    /// Swift does not import (the generic ioctl encoding of x86-64 and ARM64).
    private static let unlockRequest = UInt(0x4004_5431)
    private static let numberRequest = UInt(0x8004_5430)

    private static func setSize(of descriptor: Int32, columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        // A size that did not take shows in the test's checks of the output's size.
        _ = withUnsafeMutablePointer(to: &size) { ioctl(descriptor, UInt(TIOCSWINSZ), $0) }
    }
}
