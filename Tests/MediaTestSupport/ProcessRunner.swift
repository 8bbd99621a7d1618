import Foundation

/// Runs a program to completion and collects its output.
public enum ProcessRunner {
    /// What a finished program left behind.
    public struct Result: Sendable {
        /// The exit status.
        public let status: Int32
        /// Everything it wrote to standard output.
        public let standardOutput: String
        /// Everything it wrote to standard error.
        public let standardError: String
    }

    /// Runs `program` (looked up on PATH unless it is a path) with `arguments`.
    /// - Parameters:
    ///   - program: The program's name or path.
    ///   - arguments: Its arguments.
    ///   - environment: Variables to add to this process's environment.
    /// - Returns: The exit status and output.
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> Result {
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
        // Read both pipes to the end before waiting, so a chatty program cannot fill one and block.
        let group = DispatchGroup()
        // Written by the reading block before group.leave(), read after group.wait(): the group orders them.
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = error.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}
