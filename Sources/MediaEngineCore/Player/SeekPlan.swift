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
