internal import CMediaEngineCGStreamer
internal import CMediaEnginePipeline

/// The player's ``BufferingPolicy`` on a playbin's buffering elements (`buffering.c`): the
/// maximum as playbin's buffer-duration, the start and resume thresholds as the high
/// watermark of the queue2 or multiqueue that buffers the network stream.
// @unchecked Sendable: `handle` is only passed to buffering.c, which guards its state with its
// own GMutex; the handle lives as long as the playbin, which the owning session keeps.
final class BufferingThresholds: @unchecked Sendable {
    private let handle: OpaquePointer
    let policy: BufferingPolicy

    /// Watches `playbin` for buffering elements, ending buffering at the start threshold.
    init(playbin: Element, policy: BufferingPolicy) {
        self.policy = policy
        // Buffering starts again when the buffer is all but empty (GStreamer's own low watermark).
        handle = me_buffering_watch(playbin.pointer, 0.01, policy.startFraction)
    }

    /// Playback has started once: buffering after a stall ends at the resume threshold.
    func useResumeThreshold() {
        me_buffering_set_high(handle, policy.resumeFraction)
    }

    /// What the progressive download's queue holds ahead, in time; nil without such a queue.
    var queuedAhead: Duration? {
        let level = me_buffering_level_time(handle)
        return level >= 0 ? .nanoseconds(level) : nil
    }
}
