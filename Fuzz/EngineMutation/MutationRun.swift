import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The driver's side: makes the valid inputs, mutates them, runs each in a child process (this
/// executable's `one` mode) with a timeout, and classifies how the child ended: exit 0 (every
/// step completed or failed typed) is a pass; a signal (a trap, an abort, a crash), another exit
/// status or the timeout is a finding, whose input is written to `findings/` under a name with the
/// seed and the index (`seed1-00042-fast-start.mp4-size+cut.mp4`) and its child's output beside it.
/// Every input's outcome (format, mutations, ending, time, each step's result) goes to
/// `results.jsonl`.
///
/// Input `i` is a mutation of format `i % 8` by a generator seeded from the run's seed and `i`,
/// so `--only i` with the same seed and valid inputs makes the same bytes again.
final class MutationRun: Sendable {
    struct Options: Sendable {
        var inputs = 2000
        var seed: UInt64 = 1
        var folder = ".build/fuzz-engine"
        var jobs = 2
        var timeout: Duration = .seconds(20)
        var only: Int?
    }

    private struct Tally {
        var next = 0
        var passed = 0
        var typedErrors = 0
        var crashes = 0
        var hangs = 0
        var done = 0
        var slowest: (Duration, Int) = (.zero, -1)
        var findings: [String] = []
        /// One JSON line per input, by index: its format, mutations, ending, time and steps.
        var results: [Int: String] = [:]
    }

    let options: Options
    private let mutator: Mutator
    private let validMovie: String
    private let tally = Mutex(Tally())

    init(options: Options) throws {
        self.options = options
        let validFolder = options.folder + "/valid"
        try FileManager.default.createDirectory(atPath: validFolder, withIntermediateDirectories: true)
        for folder in ["findings", "work"] {
            try? FileManager.default.removeItem(atPath: options.folder + "/" + folder)
            try FileManager.default.createDirectory(
                atPath: options.folder + "/" + folder, withIntermediateDirectories: true)
        }
        var valid: [InputFormat: [UInt8]] = [:]
        for format in InputFormat.allCases {
            let path = validFolder + "/" + format.rawValue
            if !FileManager.default.fileExists(atPath: path) {
                if let text = format.text {
                    try text.write(toFile: path, atomically: true, encoding: .utf8)
                } else if let pipeline = format.pipeline(writingTo: path) {
                    try Self.launch(pipeline)
                    let made = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
                    try Data(format.normalized(made)).write(to: URL(fileURLWithPath: path))
                }
            }
            guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else {
                throw RunError(description: "the valid input \(path) was not made")
            }
            valid[format] = [UInt8](data)
        }
        mutator = Mutator(valid: valid)
        validMovie = validFolder + "/" + InputFormat.mp4FastStart.rawValue
    }

    /// Runs the inputs on `jobs` threads, each with one child at a time.
    /// - Returns: Whether there was no finding.
    func run() -> Bool {
        let start = ContinuousClock.now
        let indexes = options.only.map { [$0] } ?? Array(0..<options.inputs)
        let group = DispatchGroup()
        for worker in 0..<max(1, min(options.jobs, indexes.count)) {
            group.enter()
            let thread = Thread { [self] in
                while let index = nextIndex(indexes) { runOne(index, worker: worker) }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        let elapsed = ContinuousClock.now - start
        return tally.withLock { tally in
            // Every input's outcome, for counting by format and step (results.jsonl).
            let lines = tally.results.keys.sorted().compactMap { tally.results[$0] }
            try? (lines.joined(separator: "\n") + "\n").write(
                toFile: options.folder + "/results.jsonl", atomically: true, encoding: .utf8)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            Self.say(
                "{\"summary\":\"fuzz-engine\",\"seed\":\(options.seed),\"inputs\":\(tally.done),\"passed\":\(tally.passed),"
                    + "\"typedErrors\":\(tally.typedErrors),\"crashes\":\(tally.crashes),\"hangs\":\(tally.hangs),"
                    + "\"seconds\":\(Int(seconds)),\"slowestInput\":\(tally.slowest.1),"
                    + "\"slowestSeconds\":\(tally.slowest.0.components.seconds),\"findings\":\(tally.findings)}")
            return tally.crashes == 0 && tally.hangs == 0
        }
    }

    private func nextIndex(_ indexes: [Int]) -> Int? {
        tally.withLock { tally in
            guard tally.next < indexes.count else { return nil }
            defer { tally.next += 1 }
            return indexes[tally.next]
        }
    }

    private func runOne(_ index: Int, worker: Int) {
        let format = InputFormat.allCases[index % InputFormat.allCases.count]
        var generator = SeededGenerator(seed: options.seed, index: index)
        let (bytes, strategies) = mutator.mutate(format, using: &generator)
        let work = options.folder + "/work/worker\(worker)"
        let input = work + "." + format.fileExtension
        _ = FileManager.default.createFile(atPath: input, contents: Data(bytes))
        let started = ContinuousClock.now
        let ending = runChild(arguments: ["one", format.use.rawValue, input, validMovie], output: work)
        let elapsed = ContinuousClock.now - started
        let stdout = (try? String(contentsOfFile: work + ".out", encoding: .utf8)) ?? ""
        let name =
            String(format: "seed%llu-%05d-", options.seed, index) + format.rawValue + "-"
            + strategies.map(\.rawValue).joined(separator: "+") + "." + format.fileExtension
        var finding: String?
        tally.withLock { tally in
            tally.done += 1
            if elapsed > tally.slowest.0 { tally.slowest = (elapsed, index) }
            switch ending {
            case .passed:
                tally.passed += 1
                if stdout.contains(":\"")
                    && stdout.range(
                        of: #""(prepare|load|play|seek1|seek2)":"(?!ok")"#,
                        options: .regularExpression) != nil
                {
                    tally.typedErrors += 1
                }
            case .hung:
                tally.hangs += 1
                finding = "hang"
            case .signalled, .exited:
                tally.crashes += 1
                finding = "\(ending)"
            }
            if finding != nil { tally.findings.append("\"\(name)\"") }
            let steps = stdout.split(separator: "\n").last.map(String.init) ?? "{}"
            let milliseconds =
                elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
            tally.results[index] =
                "{\"index\":\(index),\"format\":\"\(format.rawValue)\",\"mutations\":\""
                + strategies.map(\.rawValue).joined(separator: "+") + "\",\"ending\":\"\(ending)\","
                + "\"ms\":\(milliseconds),\"steps\":\(steps.hasPrefix("{") ? steps : "{}")}"
            if tally.done % 100 == 0 || options.only != nil {
                Self.say(
                    "\(tally.done) inputs: \(tally.passed) passed (\(tally.typedErrors) with a typed error), "
                        + "\(tally.crashes) crashed, \(tally.hangs) hung")
            }
        }
        if let finding {
            let kept = options.folder + "/findings/" + name
            _ = FileManager.default.createFile(atPath: kept, contents: Data(bytes))
            let stderr = (try? String(contentsOfFile: work + ".err", encoding: .utf8)) ?? ""
            let report =
                "input \(index) of seed \(options.seed), \(format.rawValue) mutated by "
                + strategies.map(\.rawValue).joined(separator: ", ") + ": \(finding) after \(elapsed)\n"
                + "child's output:\n\(stdout)\nchild's standard error (last 8 KB):\n\(stderr.suffix(8192))\n"
            try? report.write(toFile: kept + ".log", atomically: true, encoding: .utf8)
            Self.say("finding: \(finding), \(kept)")
        }
    }

    private enum Ending: CustomStringConvertible {
        case passed
        case exited(Int32)
        case signalled(Int32)
        case hung
        var description: String {
            switch self {
            case .passed: "passed"
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "signal \(signal)"
            case .hung: "hang"
            }
        }
    }

    /// Runs this executable with `arguments`, its output in `output`.out and .err, killing it
    /// after the timeout.
    private func runChild(arguments: [String], output: String) -> Ending {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        // Swift's crash backtracer takes seconds per crash in a debug build; the trap's message is enough.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        _ = FileManager.default.createFile(atPath: output + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: output + ".err", contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: output + ".out")
        process.standardError = FileHandle(forWritingAtPath: output + ".err")
        do {
            try process.run()
        } catch {
            return .exited(-1)
        }
        let deadline = ContinuousClock.now + options.timeout
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return .hung
        }
        switch process.terminationReason {
        case .uncaughtSignal: return .signalled(process.terminationStatus)
        default: return process.terminationStatus == 0 ? .passed : .exited(process.terminationStatus)
        }
    }

    /// One line on standard output, unbuffered (`make fuzz-engine` tees the progress into a file).
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Runs `gst-launch-1.0 -q` with `pipeline`.
    private static func launch(_ pipeline: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gst-launch-1.0", "-q"] + pipeline
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw RunError(description: "gst-launch-1.0 failed: \(pipeline.joined(separator: " "))")
        }
    }

    struct RunError: Error, CustomStringConvertible {
        let description: String
    }
}
