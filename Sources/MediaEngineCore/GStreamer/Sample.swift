internal import CMediaEngineCGStreamer

/// An owned reference to a `GstSample` (buffer + caps + segment); `deinit` drops it with
/// `gst_sample_unref`.
///
/// `@unchecked Sendable`: samples are reference counted atomically and never written
/// after the sink hands them out.
final class Sample: @unchecked Sendable {
    let pointer: OpaquePointer

    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Takes a new reference to a sample someone else owns (`gst_sample_ref`).
    convenience init(borrowing pointer: OpaquePointer) {
        self.init(owning: gst_sample_ref(pointer))
    }

    deinit {
        gst_sample_unref(pointer)
    }

    /// `gst_sample_get_buffer` (borrowed from the sample).
    var buffer: UnsafeMutablePointer<GstBuffer>? { gst_sample_get_buffer(pointer) }

    /// `gst_sample_get_caps` (borrowed from the sample).
    var caps: UnsafeMutablePointer<GstCaps>? { gst_sample_get_caps(pointer) }

    /// The buffer's PTS converted to running time through the sample's segment
    /// (`gst_segment_to_running_time`): when, on the pipeline's clock, the frame is due.
    func runningTime(of clockTime: GstClockTime) -> GstClockTime {
        guard clockTime != clockTimeNone, let segment = gst_sample_get_segment(pointer),
            segment.pointee.format == GST_FORMAT_TIME
        else { return clockTime }
        return gst_segment_to_running_time(segment, GST_FORMAT_TIME, clockTime)
    }

    /// The buffer's PTS converted to stream time through the sample's segment
    /// (`gst_segment_to_stream_time`), which is what a position in the movie means.
    func streamTime(of clockTime: GstClockTime) -> GstClockTime {
        guard clockTime != clockTimeNone, let segment = gst_sample_get_segment(pointer),
            segment.pointee.format == GST_FORMAT_TIME
        else { return clockTime }
        return gst_segment_to_stream_time(segment, GST_FORMAT_TIME, clockTime)
    }
}
