import Dispatch
import Foundation
import MediaEngine
import MediaEngineCore
import MediaTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One workaround's scenario: what the child does with a player (its arguments are the inputs
/// the test made: movie paths, server addresses) and what it records in the report.
struct Scenario: Sendable {
    /// The workaround the scenario is for; the scenario is called by its name.
    let workaround: GStreamerWorkaround
    /// How long the scenario may take before the watchdog reports it as hung.
    let limit: Duration
    /// What it takes: the usage line's arguments.
    let arguments: [String]
    /// The scenario itself.
    let run: @Sendable (_ arguments: [String], _ report: Measurements) async throws -> Void

    init(
        _ workaround: GStreamerWorkaround, limit: Duration = .seconds(5), arguments: [String] = [],
        run: @escaping @Sendable (_ arguments: [String], _ report: Measurements) async throws -> Void
    ) {
        self.workaround = workaround
        self.limit = limit
        self.arguments = arguments
        self.run = run
    }
}

/// Waits for `condition`, polling, for at most `limit`; returns either way (the report says
/// what held).
func waitUntil(within limit: Duration, _ condition: () -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + limit.scaled
    while !condition(), clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
}

extension AudioOutput {
    /// The sound decoded and dropped flat out, for a movie played flat out with its sound: with a
    /// frames sink that is not synchronized, ``AudioOutput/discard`` leaves the sound out.
    static let unpaced = AudioOutput.element(ElementDescription(factory: "fakesink", properties: ["sync": false]))
}

/// The report a scenario fills in as it goes, written once: when the scenario ends, or when the
/// watchdog finds it still running at its limit (a deadlock holds its threads for ever: the
/// report is written from a thread of its own, and the process ends with `_exit`, which waits
/// for no thread and runs no clean-up that could wait for a lock the deadlock holds).
final class Measurements: Sendable {
    private let report: Locked<WorkaroundCheckReport>
    private let written = Locked(false)
    private let start = ContinuousClock.now

    init(_ workaround: GStreamerWorkaround) {
        report = Locked(WorkaroundCheckReport(scenario: workaround.name, active: workaround.isActive))
    }

    /// Records `value` as `name`.
    func set(_ name: String, _ value: WorkaroundCheckReport.Value) {
        report.withLock { $0.values[name] = value }
    }

    /// Records `value` as `name`.
    func set(_ name: String, _ value: Bool) { set(name, .flag(value)) }

    /// Records `value` as `name`.
    func set(_ name: String, _ value: Int) { set(name, .number(Double(value))) }

    /// Records `value` as `name`.
    func set(_ name: String, _ value: Double) { set(name, .number(value)) }

    /// Records `value` as `name`.
    func set(_ name: String, _ value: String) { set(name, .text(value)) }

    /// Records `values` as `name`.
    func set(_ name: String, _ values: [Int]) { set(name, .numbers(values.map(Double.init))) }

    /// Prepares `player` and records how that went as `error`: `none`, or the error's code (and
    /// its `message`).
    func recordPreparation(of player: MoviePlayer) async {
        do throws(MediaError) {
            try await player.prepareToPlay()
            set("error", "none")
        } catch {
            set("error", "\(error.code)")
            set("message", error.message)
        }
    }

    /// Records the seconds since the scenario started as `name`.
    func mark(_ name: String) { set(name, secondsSinceStart) }

    private var secondsSinceStart: Double { (ContinuousClock.now - start).inSeconds }

    /// Writes the report and ends the process; `hung` when the watchdog ends it.
    func finish(hung: Bool = false) -> Never {
        // The scenario and the watchdog may both get here: the second waits for the first's _exit.
        let second = written.withLock { written in
            defer { written = true }
            return written
        }
        if second {
            while true { pause() }
        }
        let line = report.withLock { report in
            report.hung = hung
            report.seconds = (secondsSinceStart * 1000).rounded() / 1000
            return report.jsonLine()
        }
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
        _exit(0)
    }

    /// Ends the process with the report so far, marked hung, if the scenario is still running
    /// after `limit`.
    func armWatchdog(after limit: Duration) {
        DispatchQueue.global().asyncAfter(deadline: .now() + limit.scaled.inSeconds) { self.finish(hung: true) }
    }
}
