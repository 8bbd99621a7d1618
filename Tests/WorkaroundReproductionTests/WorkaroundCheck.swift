import Foundation
import MediaEngineCore
import MediaTestSupport
import Testing

/// Runs `engine-workaround-check` (Tests/WorkaroundCheck): a workaround's scenario in a child
/// process with the workaround forced off or on through `MEDIA_ENGINE_WORKAROUNDS`, and the report
/// it prints. A few children at a time, whatever the number of tests running: the scenarios
/// measure what a player does in a few seconds, and forty at once on two cores would measure the
/// machine instead.
enum WorkaroundCheck {
    /// How many children run at once.
    static let slots = Slots(4)

    /// The scenario's report from a child whose workaround was `active`. A child still running
    /// 20 s after its start (its own watchdog reports a hang after at most 5 s) is killed, and
    /// counts as hung.
    /// - Throws: When the child ends without a report (a crash), or its registry did not take
    ///   the variable.
    static func run(_ workaround: GStreamerWorkaround, active: Bool, _ arguments: [String]) async throws
        -> WorkaroundCheckReport
    {
        try await slots.withSlot {
            let result = try await ProcessRunner.run(
                BuildProducts.executable("engine-workaround-check"), [workaround.name] + arguments,
                environment: ["MEDIA_ENGINE_WORKAROUNDS": "\(workaround.name)=\(active ? "on" : "off")"],
                killedAfter: .seconds(20))
            if result.timedOut {
                var report = WorkaroundCheckReport(scenario: workaround.name, active: active)
                report.hung = true
                report.values["killedByTheTest"] = .flag(true)
                return report
            }
            guard let report = WorkaroundCheckReport.parse(result.standardOutput) else {
                throw TestMediaError(
                    message: "\(workaround.name) \(active ? "on" : "off"): no report (status \(result.status)); "
                        + "standard error: \(result.standardError.suffix(2000))")
            }
            try #require(report.active == active, "MEDIA_ENGINE_WORKAROUNDS was not taken: \(report)")
            return report
        }
    }

    /// The scenario run with the workaround off and on, both at once, on the same inputs.
    static func offAndOn(_ workaround: GStreamerWorkaround, _ arguments: [String]) async throws -> (
        off: WorkaroundCheckReport, on: WorkaroundCheckReport
    ) {
        try await offAndOn { active in try await run(workaround, active: active, arguments) }
    }

    /// `body` with the workaround off and on, both at once: for inputs of each run's own (a
    /// server whose requests are counted, say).
    static func offAndOn<Result: Sendable>(_ body: @escaping @Sendable (_ active: Bool) async throws -> Result)
        async throws -> (off: Result, on: Result)
    {
        async let off = body(false)
        async let on = body(true)
        return try await (off, on)
    }

    /// A counting semaphore for tasks: `withSlot` waits for one of `count` slots.
    final class Slots: Sendable {
        private let state: Locked<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

        init(_ count: Int) { state = Locked((count, [])) }

        func withSlot<T: Sendable>(_ body: () async throws -> T) async throws -> T {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    guard state.free > 0 else {
                        state.waiting.append(continuation)
                        return false
                    }
                    state.free -= 1
                    return true
                }
                if now { continuation.resume() }
            }
            defer {
                let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    guard !state.waiting.isEmpty else {
                        state.free += 1
                        return nil
                    }
                    return state.waiting.removeFirst()
                }
                next?.resume()
            }
            return try await body()
        }
    }
}
