import Foundation
import MediaEngine

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to completion and collects its output.
///
/// The waiting happens on a thread of its own, never on one of Swift concurrency's few shared
/// threads: a test waiting seconds for a child program must not starve players in other tests
/// whose frames and events need those threads.
public enum ProcessRunner {
    /// What a finished program left behind.
    public struct Result: Sendable {
        /// The exit status.
        public let status: Int32
        /// Everything it wrote to standard output.
        public let standardOutput: String
        /// Everything it wrote to standard error.
        public let standardError: String
        /// The program was still running at the time limit and was killed (SIGKILL) and reaped.
        public var timedOut = false
    }

    /// What a finished program left behind, its standard output as bytes.
    public struct DataResult: Sendable {
        /// The exit status.
        public let status: Int32
        /// Everything it wrote to standard output.
        public let standardOutput: Data
        /// Everything it wrote to standard error.
        public let standardError: String
    }

    /// Runs a program and keeps its standard output as bytes (a screenshot, say).
    public static func runForData(
        _ program: String, _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> DataResult {
        let (status, output, error) = try await executeOnOwnThread(program, arguments, environment: environment)
        return DataResult(status: status, standardOutput: output, standardError: String(decoding: error, as: UTF8.self))
    }

    /// Runs `program` (looked up on PATH unless it is a path) with `arguments`.
    /// - Parameters:
    ///   - program: The program's name or path.
    ///   - arguments: Its arguments.
    ///   - environment: Variables to add to this process's environment.
    /// - Returns: The exit status and output.
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> Result {
        let (status, output, error) = try await executeOnOwnThread(program, arguments, environment: environment)
        return Result(
            status: status, standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: error, as: UTF8.self))
    }

    /// Runs `program` with `arguments`, killing it (SIGKILL) and reaping it if it still runs after
    /// `limit` (multiplied by ``TestTime/scale``): a program that may hang for good.
    /// - Parameters:
    ///   - program: The program's name or path.
    ///   - arguments: Its arguments.
    ///   - environment: Variables to add to this process's environment.
    ///   - limit: How long it may run.
    /// - Returns: The exit status (minus the signal's number when killed) and output, and whether
    ///   the limit ended it.
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String] = [:], killedAfter limit: Duration
    ) async throws -> Result {
        let timer = KillTimer()
        let (status, output, error) = try await executeOnOwnThread(
            program, arguments, environment: environment, killedAfter: limit, timer: timer)
        var result = Result(
            status: status, standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: error, as: UTF8.self))
        result.timedOut = timer.fired
        return result
    }

    private static func executeOnOwnThread(
        _ program: String, _ arguments: [String], environment: [String: String], killedAfter limit: Duration? = nil,
        timer: KillTimer? = nil
    ) async throws -> (Int32, Data, Data) {
        try await OwnThread.run {
            try execute(program, arguments, environment: environment, killedAfter: limit, timer: timer)
        }
    }

    /// Kills a child at its time limit, unless it has ended: the child is waited for without
    /// being reaped (`waitid` with `WNOWAIT`) and marked ended under the lock before it is reaped,
    /// so the timer can never signal a process that took the reaped one's id.
    private final class KillTimer: Sendable {
        private let state = Locked((ended: false, fired: false))

        var fired: Bool { state.withLock { $0.fired } }

        func arm(_ pid: pid_t, after limit: Duration) {
            DispatchQueue.global().asyncAfter(deadline: .now() + limit.scaled.inSeconds) { [self] in
                state.withLock { state in
                    guard !state.ended else { return }
                    state.fired = true
                    kill(pid, SIGKILL)
                }
            }
        }

        func waitForEnd(of pid: pid_t) {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            state.withLock { $0.ended = true }
        }
    }

    private static func execute(
        _ program: String, _ arguments: [String], environment: [String: String], killedAfter limit: Duration?,
        timer: KillTimer?
    ) throws -> (Int32, Data, Data) {
        let process = Process()
        if program.contains("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        if let limit, let timer { timer.arm(process.processIdentifier, after: limit) }
        // Read both pipes to the end before waiting, so a chatty program cannot fill one and block.
        let group = DispatchGroup()
        // Written by the reading block before group.leave(), read after group.wait(): the group orders them.
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        // A thread of its own: this read blocks for as long as the program runs, and a blocked
        // libdispatch worker is one fewer for everything else on the global queues (Swift's
        // tasks included: on a 2-core machine two such reads stalled every test for seconds).
        Thread {
            errorData = error.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        timer?.waitForEnd(of: process.processIdentifier)
        return (process.reap().status, outputData, errorData)
    }
}
