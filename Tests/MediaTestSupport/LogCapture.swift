import Foundation
import MediaEngine

/// A ``MediaEngineLogHandler`` that keeps every record it is given, with the name of the thread
/// it was given on and whether another call was in progress: the log's tests install one for the
/// process, one test at a time (``capture(level:forwarding:_:)``), and look at what came.
public final class LogCapture: MediaEngineLogHandler {
    /// One record as the handler got it.
    public struct Record: Sendable {
        /// Its level.
        public let level: MediaEngineLog.Level
        /// Its category.
        public let category: String
        /// Its message.
        public let message: String
        /// Its metadata.
        public let metadata: [String: String]
        /// The name of the thread the handler was called on.
        public let thread: String
        /// Whether another call of the handler was running at the same time.
        public let overlapped: Bool

        /// The message and every metadata key and value, for searching.
        public var text: String {
            ([message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }

    /// The least severe level it asks the engine for.
    public let logLevel: MediaEngineLog.Level
    private let records = Locked<[Record]>([])
    private let calls = Locked(0)

    /// A capture asking for `level` and above.
    /// - Parameter logLevel: Its ``MediaEngineLogHandler/logLevel``.
    public init(logLevel: MediaEngineLog.Level) {
        self.logLevel = logLevel
    }

    /// Keeps the record.
    public func log(level: MediaEngineLog.Level, category: String, message: String, metadata: [String: String]) {
        let overlapped = calls.withLock { calls in
            calls += 1
            return calls > 1
        }
        let thread = Self.currentThreadName()
        records.withLock {
            $0.append(
                Record(
                    level: level, category: category, message: message, metadata: metadata, thread: thread,
                    overlapped: overlapped))
        }
        calls.withLock { $0 -= 1 }
    }

    /// Thread names by thread, read once each (a file read per record would load the machine
    /// the other tests run on while GStreamer logs thousands of records).
    private static let threadNames = Locked<[UInt: String]>([:])

    /// The calling thread's name. (pthread_getname_np needs _GNU_SOURCE, which Swift's Glibc
    /// module lacks.)
    private static func currentThreadName() -> String {
        let id = UInt(pthread_self())
        if let name = threadNames.withLock({ $0[id] }) { return name }
        let name =
            (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
            .trimmingCharacters(in: .newlines) ?? ""
        threadNames.withLock { $0[id] = name }
        return name
    }

    /// Every record so far, oldest first.
    public var all: [Record] { records.withLock { $0 } }

    /// Whose turn it is to have a handler installed: the handler is the process's, and the
    /// tests of every suite run in one process.
    private static let turn = TurnLock()

    /// Installs a capture as the process's handler while `body` runs (waiting for any other
    /// test's capture to be done first), then flushes the log, removes the handler and returns
    /// what `body` returned and the capture.
    /// - Parameters:
    ///   - level: The capture's level.
    ///   - forwarding: What to forward besides the engine's records.
    ///   - body: The test's work.
    /// - Throws: What `body` or ``MediaEngineLog/setHandler(_:forwarding:)`` throw.
    /// - Returns: `body`'s result and the capture, complete.
    public static func capture<T: Sendable>(
        level: MediaEngineLog.Level, forwarding: MediaEngineLog.Forwarding = .init(),
        _ body: @Sendable (LogCapture) async throws -> T
    ) async throws -> (T, LogCapture) {
        let capture = LogCapture(logLevel: level)
        let result = try await exclusively {
            try MediaEngineLog.setHandler(capture, forwarding: forwarding)
            return try await body(capture)
        }
        return (result, capture)
    }

    /// Runs `body` while no other test has a handler installed, then flushes the log and removes
    /// whatever handler `body` installed (after a flush, so that every record has reached it).
    /// - Parameter body: The test's work, which installs a handler of its own.
    /// - Throws: What `body` throws.
    /// - Returns: What `body` returns.
    public static func exclusively<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await turn.acquire()
        let result: Result<T, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        await MediaEngineLog.flush()
        MediaEngineLog.removeHandler()
        await MediaEngineLog.flush()
        await turn.release()
        return try result.get()
    }
}

/// One holder at a time, waiting without blocking a thread.
private actor TurnLock {
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if !held {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
