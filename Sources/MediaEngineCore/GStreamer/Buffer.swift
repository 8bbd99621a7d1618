internal import CGStreamer

/// An owned reference to a `GstBuffer`; `deinit` drops it with `gst_buffer_unref`.
///
/// `@unchecked Sendable`: the engine only makes buffers it fills once and never writes to
/// again; reference counts are atomic.
final class Buffer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstBuffer>

    init(owning pointer: UnsafeMutablePointer<GstBuffer>) {
        self.pointer = pointer
    }

    deinit {
        gst_buffer_unref(pointer)
    }
}
