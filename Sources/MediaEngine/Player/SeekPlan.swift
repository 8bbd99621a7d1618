/// What a seek asks of the pipeline: where, how fast afterwards, how precisely, and whether the
/// segment should end with SEGMENT_DONE (for gapless looping) instead of EOS.
struct SeekPlan: Sendable, Equatable {
    enum Accuracy: Sendable, Equatable {
        /// Decode up to the exact frame.
        case exact
        /// Snap to the keyframe at or before the position.
        case keyFrame
        /// Play keyframes only (scanning): fast, and what decoders can keep up with at high rates.
        case keyFramesOnly
    }

    /// Where to go. Forward: where playback starts. Backward: where it starts going back from.
    var position: Duration
    var rate: Double
    var accuracy: Accuracy
    /// A flushing seek drops what is queued and lands at once; a non-flushing one (a loop's
    /// restart) queues after the data already in flight, so no frame is lost.
    var flush = true
    /// Ask for SEGMENT_DONE at the end instead of EOS (repeat mode).
    var looping = false
    /// The playback range: `initialPlaybackTime` and `endPlaybackTime`.
    var rangeStart: Duration?
    var rangeEnd: Duration?
}

/// A seek event, made before it is sent so that its sequence number is known first.
///
/// `@unchecked Sendable`: the event is owned by this object alone until ``take()`` hands it to
/// GStreamer, and ``take()`` is called once, by the thread that sends it.
final class SeekRequest: @unchecked Sendable {
    let seqnum: UInt32
    let plan: SeekPlan?
    private var event: OpaqueEvent?

    /// A seek that moves the playhead (`gst_event_new_seek`), numbered `seqnum` (the number the
    /// player chose for it when it decided the seek; its segment and first frame carry it).
    init?(_ plan: SeekPlan, seqnum: UInt32) {
        guard let event = SeekEvents.seek(plan) else { return nil }
        SeekEvents.setSeqnum(event, seqnum)
        self.plan = plan
        self.event = event
        self.seqnum = seqnum
    }

    /// A rate change that keeps the playhead and flushes nothing (`GST_SEEK_FLAG_INSTANT_RATE_CHANGE`).
    init?(instantRate rate: Double) {
        guard let event = SeekEvents.instantRate(rate) else { return nil }
        self.plan = nil
        self.event = event
        seqnum = SeekEvents.seqnum(event)
    }

    /// Hands the event over; sending it transfers ownership to GStreamer.
    func take() -> OpaqueEvent {
        defer { event = nil }
        return event!
    }

    deinit {
        if let event { SeekEvents.release(event) }
    }
}
