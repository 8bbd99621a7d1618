internal import CMediaEngineCGStreamer

/// An owned reference to a `GstBus`.
///
/// `@unchecked Sendable`: the bus is GStreamer's thread-safe message queue; posting and
/// popping are guarded by its queue lock.
final class Bus: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstBus>

    init(owning pointer: UnsafeMutablePointer<GstBus>) {
        self.pointer = pointer
    }

    deinit {
        gst_object_unref(pointer)
    }

    /// Blocks until a message of one of `types` arrives (`gst_bus_timed_pop_filtered` with no
    /// timeout); other messages are dropped unread.
    func waitForMessage(of types: GstMessageType) -> Message? {
        gst_bus_timed_pop_filtered(pointer, clockTimeNone, types).map { Message(owning: $0) }
    }

    /// Posts an empty application message named `name` from `source` (`gst_bus_post`).
    @discardableResult
    func postApplicationMessage(_ name: String, from source: Element? = nil) -> Bool {
        let structure = gst_structure_new_empty(name)
        let message = gst_message_new_application(source?.objectPointer, structure)
        return gst_bus_post(pointer, message) != 0
    }
}
