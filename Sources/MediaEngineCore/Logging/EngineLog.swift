import Foundation
import Synchronization

/// The engine's own records, from wherever the engine's code emits them: to the app's handler
/// through the logging thread when one is installed (``MediaEngineLog``), otherwise to standard
/// error as the engine always printed them (records below `warning` only under
/// `MEDIA_ENGINE_TRACE=1`). Either way redacted (``LogRedaction``).
///
/// Bounded in cost when nobody listens: a record below the threshold costs one atomic load, and
/// its message (an autoclosure) is never built.
package enum EngineLog {
    /// `MEDIA_ENGINE_TRACE=1`: without a handler, every record is printed to standard error.
    static let tracesToStandardError = getenv("MEDIA_ENGINE_TRACE").map { String(cString: $0) == "1" } ?? false

    /// The threshold without a handler: everything under `MEDIA_ENGINE_TRACE=1`, else warnings.
    static var defaultLevel: MediaEngineLog.Level { tracesToStandardError ? .trace : .warning }

    /// The rank of the least severe level records are built at now.
    private static let threshold = Atomic<Int>(defaultLevel.rank)
    /// Whether a handler receives the records (else standard error does).
    private static let toHandler = Atomic<Bool>(false)

    /// Whether a record at `level` would go anywhere: check it before building an expensive one.
    /// - Parameter level: The record's level.
    /// - Returns: Whether it is wanted.
    package static func isEnabled(_ level: MediaEngineLog.Level) -> Bool {
        level.rank >= threshold.load(ordering: .relaxed)
    }

    /// Emits a record, when its level is wanted.
    /// - Parameters:
    ///   - level: How severe it is.
    ///   - category: ``MediaEngineLog/Category``'s names.
    ///   - message: What happened; built only when wanted.
    ///   - metadata: Details; built only when wanted.
    package static func log(
        _ level: MediaEngineLog.Level, _ category: String, _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> [String: String] = [:]
    ) {
        guard isEnabled(level) else { return }
        if toHandler.load(ordering: .acquiring) {
            LoggingThread.shared.emit(level, category, message(), metadata())
        } else {
            printToStandardError(level, message())
        }
    }

    /// A warning, whatever the threshold: something went wrong that no event can tell (a player
    /// released meanwhile), or that an operator should see.
    /// - Parameters:
    ///   - message: What went wrong.
    ///   - category: Its category (`engine` by default).
    package static func warning(_ message: String, category: String = MediaEngineLog.Category.engine) {
        log(.warning, category, message)
    }

    /// A handler came or went (``MediaEngineLog``, under its lock).
    static func handlerChanged(installed: Bool, level: MediaEngineLog.Level) {
        // Warnings reach standard error whatever the tracing, as before the hook; a handler
        // chooses its own level.
        threshold.store(installed ? level.rank : min(level.rank, MediaEngineLog.Level.warning.rank), ordering: .relaxed)
        toHandler.store(installed, ordering: .releasing)
    }

    /// Today's lines: `[media-engine] 123.456 ms MESSAGE`, or `[media-engine] warning: MESSAGE`
    /// from `warning` up, with no credential in them.
    private static func printToStandardError(_ level: MediaEngineLog.Level, _ message: String) {
        let line = LogRedaction.redact(message)
        if level >= .warning {
            FileHandle.standardError.write(Data("[media-engine] \(level.rawValue): \(line)\n".utf8))
        } else {
            let now = Double(DispatchTime.now().uptimeNanoseconds / 1000) / 1000
            FileHandle.standardError.write(Data("[media-engine] \(now) ms \(line)\n".utf8))
        }
    }
}
