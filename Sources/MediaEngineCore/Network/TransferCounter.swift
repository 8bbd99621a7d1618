internal import CMediaEngineCGStreamer
internal import CMediaEnginePipeline

/// The bytes a pipeline's network source delivered (`transfer.c`), for the access log.
// @unchecked Sendable: `counter` is only used through transfer.c, which guards it with its own
// GMutex and reference count.
final class TransferCounter: @unchecked Sendable {
    private let counter: OpaquePointer

    init() {
        counter = me_transfer_counter_new()
    }

    deinit {
        me_transfer_counter_unref(counter)
    }

    /// Counts what `source` delivers from now on.
    func watch(_ source: Element) {
        me_transfer_counter_watch(counter, source.pointer)
    }

    /// Starts again from zero.
    func reset() {
        me_transfer_counter_reset(counter)
    }

    /// The bytes so far, and the seconds between the first and the latest.
    var total: (bytes: Int, seconds: Double) {
        var bytes: guint64 = 0
        var seconds: gdouble = 0
        me_transfer_counter_read(counter, &bytes, &seconds)
        return (Int(clamping: bytes), seconds)
    }
}
