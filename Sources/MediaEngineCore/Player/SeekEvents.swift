internal import CGStreamer

/// A `GstEvent` pointer, kept opaque so that files without the C import can hold one.
struct OpaqueEvent: @unchecked Sendable {
    // `@unchecked Sendable`: a plain pointer value; whoever holds the event owns it exclusively.
    let raw: UnsafeMutableRawPointer
}

/// Builds GStreamer's seek events.
enum SeekEvents {
    static func seek(_ plan: SeekPlan) -> OpaqueEvent? {
        var flags: UInt32 = 0
        if plan.flush { flags |= GST_SEEK_FLAG_FLUSH.rawValue }
        if plan.looping { flags |= GST_SEEK_FLAG_SEGMENT.rawValue }
        switch plan.accuracy {
        case .exact:
            flags |= GST_SEEK_FLAG_ACCURATE.rawValue
        case .keyFrame:
            flags |= GST_SEEK_FLAG_KEY_UNIT.rawValue | GST_SEEK_FLAG_SNAP_BEFORE.rawValue
        case .keyFramesOnly:
            flags |=
                GST_SEEK_FLAG_KEY_UNIT.rawValue | GST_SEEK_FLAG_TRICKMODE.rawValue
                | GST_SEEK_FLAG_TRICKMODE_KEY_UNITS.rawValue | GST_SEEK_FLAG_TRICKMODE_NO_AUDIO.rawValue
        }
        // Forward: from the position to the end of the range. Backward: from the start of the
        // range to the position. -1 (GST_CLOCK_TIME_NONE) as a stop means the end of the movie.
        let start: gint64
        let stop: gint64
        if plan.rate >= 0 {
            start = gint64(plan.position.clockTime)
            stop = plan.rangeEnd.map { gint64($0.clockTime) } ?? -1
        } else {
            start = gint64((plan.rangeStart ?? .zero).clockTime)
            stop = gint64(plan.position.clockTime)
        }
        guard
            let event = gst_event_new_seek(
                plan.rate, GST_FORMAT_TIME, GstSeekFlags(flags), GST_SEEK_TYPE_SET, start, GST_SEEK_TYPE_SET, stop)
        else { return nil }
        return OpaqueEvent(raw: UnsafeMutableRawPointer(event))
    }

    static func instantRate(_ rate: Double) -> OpaqueEvent? {
        gst_event_new_seek(
            rate, GST_FORMAT_TIME, GST_SEEK_FLAG_INSTANT_RATE_CHANGE, GST_SEEK_TYPE_NONE, -1, GST_SEEK_TYPE_NONE, -1
        ).map { OpaqueEvent(raw: UnsafeMutableRawPointer($0)) }
    }

    /// A new sequence number from GStreamer's process-wide counter (`gst_util_seqnum_next`), so
    /// a seek's number never equals that of another event or message in the pipeline.
    @Sendable static func nextSeqnum() -> UInt32 {
        gst_util_seqnum_next()
    }

    static func seqnum(_ event: OpaqueEvent) -> UInt32 {
        gst_event_get_seqnum(event.raw.assumingMemoryBound(to: GstEvent.self))
    }

    /// Gives `event` a sequence number: the one the player chose when it decided the seek, or
    /// another event's, so that it stands in for that one.
    static func setSeqnum(_ event: OpaqueEvent, _ seqnum: UInt32) {
        gst_event_set_seqnum(event.raw.assumingMemoryBound(to: GstEvent.self), seqnum)
    }

    static func release(_ event: OpaqueEvent) {
        gst_event_unref(event.raw.assumingMemoryBound(to: GstEvent.self))
    }

    /// An end-of-stream event, sent into the pipeline to finish a looping segment.
    static func endOfStream() -> OpaqueEvent {
        OpaqueEvent(raw: UnsafeMutableRawPointer(gst_event_new_eos()))
    }
}
