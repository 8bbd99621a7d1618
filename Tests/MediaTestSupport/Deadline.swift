import Dispatch
import Foundation
import MediaEngine

/// The test waited longer than it allows.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    /// What was being waited for.
    public let what: String
    /// The limit.
    public let limit: Duration
    /// What the waiter knew when time ran out (the events so far, ...), for the report.
    public var details: String?
    /// A sentence for the test report.
    public var description: String {
        "\(what) did not happen within \(limit)" + (details.map { "; \($0)" } ?? "")
    }
}

/// How much slower than normal the tests may run: `MEDIA_ENGINE_TEST_TIME_SCALE` (a number,
/// 1 when unset), which `make tsan` and `make asan` set because the sanitizers slow everything
/// (GStreamer's locks and allocations included) several times over. Every deadline
/// (``withDeadline(_:_:_:)``) and every bound on how long something took is multiplied by it,
/// so a normal run keeps its bounds exactly.
public enum TestTime {
    /// The factor; at least 1.
    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["MEDIA_ENGINE_TEST_TIME_SCALE"],
            let value = Double(text), value.isFinite, value >= 1
        else { return 1 }
        return value
    }()
}

extension Duration {
    /// This bound on how long something may take, multiplied by ``TestTime/scale``.
    public var scaled: Duration { self * TestTime.scale }
}

/// Runs `body` and fails with ``DeadlineExceeded`` if it has not finished within `limit`
/// (multiplied by ``TestTime/scale``). The limit is enforced by a dispatch timer, not by
/// sleeping, and the body is cancelled.
/// - Parameters:
///   - limit: How long to allow at normal speed.
///   - what: What is awaited, for the failure message.
///   - body: The work.
/// - Returns: What `body` returned.
public func withDeadline<Result: Sendable>(
    _ limit: Duration, _ what: String = "the operation", _ body: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let limit = limit.scaled
    return try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            let alarm = Alarm()
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    alarm.arm(continuation)
                    DispatchQueue.global().asyncAfter(deadline: .now() + limit.inSeconds) { alarm.ring() }
                }
            } onCancel: {
                alarm.ring()
            }
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let result = first else {
            throw DeadlineExceeded(what: what, limit: limit)
        }
        return result
    }
}

/// A continuation resumed once, by whichever comes first: the timer or cancellation.
private final class Alarm: Sendable {
    private let state = Locked<(continuation: CheckedContinuation<Void, Never>?, rung: Bool)>((nil, false))

    func arm(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = state.withLock { state -> Bool in
            if state.rung { return true }
            state.continuation = continuation
            return false
        }
        if resumeNow { continuation.resume() }
    }

    func ring() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.rung = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}

extension Duration {
    /// Whether this duration is within `tolerance` of `other`.
    public func isClose(to other: Duration, within tolerance: Duration) -> Bool {
        self - other < tolerance && other - self < tolerance
    }
}
