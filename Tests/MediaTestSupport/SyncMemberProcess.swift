import Foundation
import MediaEngine

#if canImport(Glibc)
    import Glibc
#endif

/// One line `engine-sync-member` printed: an event, or a frame (every field optional; each line
/// has the ones of its kind).
public struct SyncMemberRecord: Sendable, Decodable {
    /// An event's name (`joined`, `ready`, `seeked`, `state`, `tooSlow`, `refused`, ...); nil for a frame.
    public let event: String?
    /// A frame's movie time (ns).
    public let frame: Int64?
    /// A frame's running time (ns).
    public let running: Int64?
    /// The pipeline's base time when the frame came (ns; -1 unknown).
    public let base: Int64?
    /// The group clock's time when the frame reached the callback, or the event happened (ns).
    public let clock: Int64?
    /// Whether the player was playing when the frame came (false: a preroll, not a render).
    public let playing: Bool?
    /// A seek's landing position (ns), or a command's.
    public let position: Int64?
    /// The frame number read from the picture (FrameNumber, modulo 80; -1 unreadable).
    public let number: Int?
    /// Whether the player was paused when a seek landed.
    public let paused: Bool?
    /// An error's code name, or a finish's.
    public let code: String?
    /// The group's port (`joined`).
    public let port: Int?
    /// Milliseconds from the process's start to the event (`joined`).
    public let sinceStart: Double?
    /// Frames dropped (`tooSlow`).
    public let dropped: Int?
    /// A playback state's name (`state`).
    public let state: String?
    /// The kind of report a member sent the leader (`report`): too slow, source lost or back.
    public let report: String?
    /// The group command a member applied (`command`): play, pause, seek, rate or stop.
    public let action: String?
    /// A member's name.
    public let member: String?
}

/// `engine-sync-member` running as a child process: its output's lines as records, its standard
/// input for commands, killed and reaped when stopped (or released).
public final class SyncMemberProcess: Sendable {
    private let process: Process
    private let input: FileHandle
    private let lines = Locked<[SyncMemberRecord]>([])
    private let changes = Waitlist()
    private let errorText = Locked("")
    /// A name for failure messages (`leader`, `follower 2`).
    public let name: String

    /// Starts `engine-sync-member` (next to the test bundle, or at `executable`) with `arguments`.
    /// - Parameters:
    ///   - name: A name for failure messages.
    ///   - arguments: Its arguments (`lead --port N MOVIE ...`).
    ///   - executable: Its path; the build's by default.
    public init(_ name: String, _ arguments: [String], executable: String? = nil) throws {
        self.name = name
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? BuildProducts.executable("engine-sync-member"))
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        input = stdin.fileHandleForWriting
        try process.run()
        let reader = stdout.fileHandleForReading
        Thread { [lines, changes] in
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = pending[pending.startIndex..<end]
                    pending.removeSubrange(pending.startIndex...end)
                    if let record = try? JSONDecoder().decode(SyncMemberRecord.self, from: line) {
                        lines.withLock { $0.append(record) }
                    }
                }
                changes.recheck()
            }
            changes.recheck()
        }.start()
        let errors = stderr.fileHandleForReading
        Thread { [errorText] in
            let text = String(decoding: errors.readDataToEndOfFile(), as: UTF8.self)
            errorText.withLock { $0 = text }
        }.start()
    }

    deinit {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    /// Everything it printed so far.
    public var records: [SyncMemberRecord] { lines.withLock { $0 } }

    /// The events named `event`, in order.
    public func events(_ event: String) -> [SyncMemberRecord] { records.filter { $0.event == event } }

    /// What it wrote to standard error (once it has ended).
    public var standardError: String { errorText.withLock { $0 } }

    /// Waits until what it printed satisfies `condition`.
    public func waitFor(
        _ what: String, within limit: Duration = .seconds(10),
        _ condition: @escaping @Sendable ([SyncMemberRecord]) -> Bool
    ) async throws {
        do {
            try await withDeadline(limit, "\(name): \(what)") { [lines, changes] in
                await changes.wait { lines.withLock { condition($0) } }
            }
        } catch var exceeded as DeadlineExceeded {
            exceeded.details = records.suffix(8).map { "\($0.event ?? "frame \($0.frame ?? -1)")" }.joined(
                separator: ", ")
            throw exceeded
        }
    }

    /// Waits for the event named `event` (its `count`th).
    @discardableResult
    public func waitForEvent(_ event: String, count: Int = 1, within limit: Duration = .seconds(10)) async throws
        -> SyncMemberRecord
    {
        try await waitFor("event \(event) #\(count)", within: limit) { records in
            records.filter { $0.event == event }.count >= count
        }
        return events(event)[count - 1]
    }

    /// Writes a command line to its standard input.
    public func send(_ command: String) {
        try? input.write(contentsOf: Data((command + "\n").utf8))
    }

    /// Asks it to quit, and reaps it; kills it (SIGKILL) when it has not ended within `limit`.
    /// - Returns: How it ended.
    @discardableResult
    public func stop(within limit: Duration = .seconds(5)) async -> ProcessExit {
        send("quit")
        try? input.close()
        let process = process
        let pid = process.processIdentifier
        // The child is waited for without being reaped and marked ended before it is: the timer
        // can never signal a process that took a reaped one's id.
        let ended = Locked(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + limit.scaled.inSeconds) {
            ended.withLock { ended in
                if !ended { _ = Glibc.kill(pid, SIGKILL) }
            }
        }
        let exit = try? await OwnThread.run { () -> ProcessExit in
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            ended.withLock { $0 = true }
            return process.reap()
        }
        return exit ?? ProcessExit(status: 0, signalled: false)
    }

    /// Kills it at once (SIGKILL) and reaps it.
    public func kill() async {
        let process = process
        _ = try? await OwnThread.run { process.killAndReap() }
    }
}
