internal import CMediaEngineCGStreamer

/// A `GstEvent` pointer, kept opaque so that files without the C import can hold one.
struct OpaqueEvent: @unchecked Sendable {
    // `@unchecked Sendable`: a plain pointer value; whoever holds the event owns it exclusively.
    let raw: UnsafeMutableRawPointer

    var pointer: UnsafeMutablePointer<GstEvent> { raw.assumingMemoryBound(to: GstEvent.self) }
}

/// The events the player sends, made and numbered by the function each one's doc names. An event
/// is owned by whoever holds its `OpaqueEvent` until it is sent (which takes it) or released.
enum Events {
    /// `gst_event_new_seek` in time; nil when GStreamer refuses the arguments.
    static func seek(
        rate: Double, flags: GstSeekFlags, startType: GstSeekType, start: gint64, stopType: GstSeekType, stop: gint64
    ) -> OpaqueEvent? {
        gst_event_new_seek(rate, GST_FORMAT_TIME, flags, startType, start, stopType, stop).map {
            OpaqueEvent(raw: UnsafeMutableRawPointer($0))
        }
    }

    /// `gst_event_new_eos`.
    static func endOfStream() -> OpaqueEvent {
        OpaqueEvent(raw: UnsafeMutableRawPointer(gst_event_new_eos()))
    }

    /// `gst_event_get_seqnum`.
    static func seqnum(of event: OpaqueEvent) -> UInt32 {
        gst_event_get_seqnum(event.pointer)
    }

    /// `gst_event_set_seqnum`.
    static func setSeqnum(_ seqnum: UInt32, of event: OpaqueEvent) {
        gst_event_set_seqnum(event.pointer, seqnum)
    }

    /// Drops an event that was not sent (`gst_event_unref`).
    static func release(_ event: OpaqueEvent) {
        gst_event_unref(event.pointer)
    }

    /// A new sequence number from GStreamer's process-wide counter (`gst_util_seqnum_next`).
    static func nextSeqnum() -> UInt32 {
        gst_util_seqnum_next()
    }
}
