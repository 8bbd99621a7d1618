internal import CMediaEngineCGStreamer

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
        return Events.seek(
            rate: plan.rate, flags: GstSeekFlags(flags), startType: GST_SEEK_TYPE_SET, start: start,
            stopType: GST_SEEK_TYPE_SET, stop: stop)
    }

    static func instantRate(_ rate: Double) -> OpaqueEvent? {
        Events.seek(
            rate: rate, flags: GST_SEEK_FLAG_INSTANT_RATE_CHANGE, startType: GST_SEEK_TYPE_NONE, start: -1,
            stopType: GST_SEEK_TYPE_NONE, stop: -1)
    }

    /// A new sequence number from GStreamer's process-wide counter (`gst_util_seqnum_next`), so
    /// a seek's number never equals that of another event or message in the pipeline.
    @Sendable static func nextSeqnum() -> UInt32 {
        Events.nextSeqnum()
    }

    static func seqnum(_ event: OpaqueEvent) -> UInt32 {
        Events.seqnum(of: event)
    }

    /// Gives `event` a sequence number: the one the player chose when it decided the seek, or
    /// another event's, so that it stands in for that one.
    static func setSeqnum(_ event: OpaqueEvent, _ seqnum: UInt32) {
        Events.setSeqnum(seqnum, of: event)
    }

    static func release(_ event: OpaqueEvent) {
        Events.release(event)
    }

    /// An end-of-stream event, sent into the pipeline to finish a looping segment.
    static func endOfStream() -> OpaqueEvent {
        Events.endOfStream()
    }
}
