internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// The engine's logging thread (`me-log`): pops the log's queue (`me_log.h`: GStreamer's records,
/// pushed by its log function on any thread, and the engine's own, pushed by ``EngineLog``),
/// redacts each record and hands it to the installed handler, one at a time. Started by the first
/// handler installed; then parked on the queue for the process's life (a thread waiting on a
/// condition costs nothing).
///
/// Changes of handler and flush markers travel through the same queue, so that each record goes
/// to the handler installed when it was emitted, and a flush returns after what came before it.
final class LoggingThread: Sendable {
    /// What the engine pushes into the queue.
    private enum Item: Sendable {
        case record(MediaEngineLog.Level, String, String, [String: String])
        case handler((any MediaEngineLogHandler)?)
        case flush(CheckedContinuation<Void, Never>)
    }

    /// An item as the queue holds it: a retained object, taken back by the logging thread.
    private final class Box: Sendable {
        let item: Item
        init(_ item: Item) { self.item = item }
    }

    /// The one logging thread.
    static let shared = LoggingThread()

    /// Whether the thread runs.
    private let started = Locked(false)
    /// Counts the thread (never waited for: it lives as long as the process).
    private let group = DispatchGroup()

    private init() {}

    /// Queues a change of handler (nil: none), starting the thread first if needed.
    /// - Returns: False when the thread cannot start (then no handler is called).
    @discardableResult
    func install(_ handler: (any MediaEngineLogHandler)?) -> Bool {
        if handler != nil { start() }
        guard started.withLock({ $0 }) else { return false }
        push(.handler(handler), bytes: 0, force: true)
        return true
    }

    /// Queues one of the engine's records; dropped (and counted) when the queue is full.
    func emit(_ level: MediaEngineLog.Level, _ category: String, _ message: String, _ metadata: [String: String]) {
        let bytes = message.utf8.count + metadata.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        push(.record(level, category, message, metadata), bytes: bytes, force: false)
    }

    /// Returns once what was queued before has been handled.
    func flush() async {
        guard started.withLock({ $0 }) else { return }
        await withCheckedContinuation { continuation in
            push(.flush(continuation), bytes: 0, force: true)
        }
    }

    private func push(_ item: Item, bytes: Int, force: Bool) {
        let box = Unmanaged.passRetained(Box(item))
        if me_log_queue_push_payload(box.toOpaque(), gsize(bytes), force ? 1 : 0) == 0 {
            box.release()
        }
    }

    private func start() {
        started.withLock { started in
            guard !started else { return }
            switch NativeThread.start(counting: group, { Self.run() }) {
            case .success(let thread):
                pthread_detach(thread)
                started = true
            case .failure(let error):
                // No thread, no handler: the records keep going to standard error.
                EngineLog.warning("cannot start the logging thread (error \(error.code)): no handler will be called")
            }
        }
    }

    /// The thread's loop: never returns.
    private static func run() {
        me_name_current_thread("me-log")
        var handler: (any MediaEngineLogHandler)?
        while true {
            var record = MeLogRecord()
            me_log_queue_pop(&record)
            if record.dropped > 0, let handler {
                deliver(
                    .warning, MediaEngineLog.Category.engine,
                    "\(record.dropped) log records dropped: the handler was slower than the log", [:], to: handler)
            }
            if record.kind == ME_LOG_RECORD_PAYLOAD {
                let box = Unmanaged<Box>.fromOpaque(record.payload).takeRetainedValue()
                switch box.item {
                case .record(let level, let category, let message, let metadata):
                    if let handler { deliver(level, category, message, metadata, to: handler) }
                case .handler(let new):
                    handler = new
                case .flush(let continuation):
                    continuation.resume()
                }
            } else {
                if let handler { deliverGStreamer(record, to: handler) }
                me_log_record_clear(&record)
            }
        }
    }

    /// A GStreamer record (libav's too, through its categories) with its details as metadata.
    private static func deliverGStreamer(_ record: MeLogRecord, to handler: any MediaEngineLogHandler) {
        let name = record.category.map { String(cString: $0) } ?? "default"
        let category =
            name == "libav" || name == "melibav" ? MediaEngineLog.Category.libav : MediaEngineLog.Category.gstreamer
        var metadata = ["gst.category": name]
        let levelName = gst_debug_level_get_name(GstDebugLevel(rawValue: UInt32(clamping: max(record.level, 0))))
        if let levelName { metadata["gst.level"] = String(cString: levelName).trimmingSpaces }
        if let object = record.object { metadata["gst.object"] = String(cString: object) }
        if let file = record.file { metadata["file"] = String(cString: file) }
        if let function = record.function { metadata["function"] = String(cString: function) }
        metadata["line"] = String(record.line)
        let message = record.message.map { String(cString: $0) } ?? ""
        deliver(MediaEngineLog.Level(gstreamer: record.level), category, message, metadata, to: handler)
    }

    private static func deliver(
        _ level: MediaEngineLog.Level, _ category: String, _ message: String, _ metadata: [String: String],
        to handler: any MediaEngineLogHandler
    ) {
        handler.log(
            level: level, category: category, message: LogRedaction.redact(message),
            metadata: metadata.mapValues(LogRedaction.redact))
    }
}

extension String {
    /// Without the spaces GStreamer pads level names with.
    fileprivate var trimmingSpaces: String {
        String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
