/// When repeat mode's loop, a seek that does not flush, may be sent into the pipeline.
///
/// The demuxer takes such a seek only once its streaming thread has stopped
/// (`gst_pad_pause_task`), and the thread that sends it waits until then. At the movie's end that
/// streaming thread can be blocked, pushing into a queue that is full because its sinks hold a
/// prerolled frame and wait for PLAYING. While the movie is paused, only the player's thread, the
/// one that would send the seek, could set PLAYING: sent then, the seek waited for ever, and the
/// player with it (a looping movie paused near its end: one run in three). So the loop is held
/// while the pipeline is paused, or on its way from PLAYING to PAUSED, and goes when the player
/// sets it to PLAYING again.
///
/// While the pipeline is on its way to PLAYING (a state lost to an output that prerolls on its
/// own, hlssink2's splitmuxsink, after a swap), the loop goes at once: GStreamer returns to PLAYING
/// on a thread of its own, and `me_send_seek_upstream` holds none of the state locks that needs.
/// So does a paused pipeline prerolling after a flushing seek: the loop's data may be all there is
/// to preroll (a range that ends a frame after where the seek went).
enum LoopSeekTiming: Equatable, Sendable {
    /// The sinks will take what the demuxer pushes: send it.
    case now
    /// Hold it until the player plays: the pipeline is paused, its sinks holding their frame.
    case later
    /// The pipeline is being shut down: drop it.
    case never

    /// Decides from the pipeline's state: the one its application asked for (`target`), and the
    /// current and pending ones of `gst_element_get_state`.
    static func decide(target: GstStateValue, current: GstStateValue, pending: GstStateValue) -> LoopSeekTiming {
        switch target {
        case .playing:
            .now
        case .paused:
            // Prerolling again after a flushing seek, or prerolled (or on its way from PLAYING to
            // PAUSED: the sinks take one frame more and hold it).
            current == .paused && pending != .voidPending ? .now : .later
        case .voidPending, .null, .ready:
            .never
        }
    }
}

/// Repeat mode's loop as the player's machine decided it.
struct LoopSeek: Sendable {
    var plan: SeekPlan
    var seqnum: UInt32
}
