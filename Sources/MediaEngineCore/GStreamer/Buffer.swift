internal import CMediaEngineCGStreamer

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

/// Reading a buffer someone else owns, by the function each doc names.
enum Buffers {
    /// Maps `buffer` for reading (`gst_buffer_map`), hands its bytes to `body` and unmaps it
    /// (`gst_buffer_unmap`); nil when it cannot be mapped.
    static func withMappedBytes<Result>(
        _ buffer: UnsafeMutablePointer<GstBuffer>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return nil }
        defer { gst_buffer_unmap(buffer, &map) }
        return body(UnsafeBufferPointer(start: map.data, count: Int(map.size)))
    }
}
