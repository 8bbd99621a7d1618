internal import CMediaEngineCGStreamer

/// An owned reference to a `GstClock` that pipelines of a playback group run on: the group's
/// time source's own clock on the member that publishes it, a network client clock that follows
/// it on the others. Made by the target that links GStreamer's network library (PlaybackSync's
/// C, `CMediaEngineNetClock`), which hands the reference over (``init(adopting:)``); the core only
/// reads it and gives it to pipelines (`gst_pipeline_use_clock`).
///
/// `@unchecked Sendable`: GStreamer clocks are thread-safe (their time is read under their own
/// object lock or atomically), and this wrapper has no state of its own.
package final class PlaybackClock: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstClock>

    /// Takes over a reference to a `GstClock` the caller owns (a `transfer full` return value).
    /// - Parameter raw: A `GstClock *`.
    package init(adopting raw: UnsafeMutableRawPointer) {
        pointer = raw.assumingMemoryBound(to: GstClock.self)
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// The clock, for C that takes a `GstClock *` (borrowed: valid while this object lives).
    package var rawPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }

    /// The clock's time (`gst_clock_get_time`).
    package var now: Duration {
        Duration(clockTime: gst_clock_get_time(pointer)) ?? .zero
    }

    /// Whether the clock follows its source (`gst_clock_is_synced`; a clock that needs no
    /// source always is).
    package var isSynced: Bool {
        gst_clock_is_synced(pointer) != 0
    }

    /// Waits up to `limit` for the clock to be synced (`gst_clock_wait_for_sync`). Blocks the
    /// calling thread: call it on a thread of the caller's own.
    /// - Parameter limit: How long to wait.
    /// - Returns: Whether the clock is synced.
    package func waitForSync(within limit: Duration) -> Bool {
        gst_clock_wait_for_sync(pointer, limit.clockTime) != 0
    }
}

extension Element {
    /// Runs a pipeline on `clock` for good (`gst_pipeline_use_clock`), with its start time left to
    /// the caller (`gst_element_set_start_time` with `GST_CLOCK_TIME_NONE`: pauses and flushing
    /// seeks no longer move the base time) and a fixed latency (`gst_pipeline_set_latency`).
    /// The element must be a pipeline. The clock is also given to its elements now
    /// (`gst_element_set_clock`): a pipeline chooses its clock only on its first way to PLAYING
    /// after READY, which a prepared one has made already.
    func runOnGroupClock(_ clock: PlaybackClock, latency: Duration) {
        let pipeline: UnsafeMutablePointer<GstPipeline> = gcast(pointer)
        gst_pipeline_use_clock(pipeline, clock.pointer)
        gst_element_set_clock(pointer, clock.pointer)
        gst_element_set_start_time(pointer, clockTimeNone)
        gst_pipeline_set_latency(pipeline, latency.clockTime)
    }

    /// Lets the pipeline choose its clock and base time again (`gst_pipeline_auto_clock`, start
    /// time 0, latency computed): it keeps the group's clock until its next clock selection.
    func leaveGroupClock() {
        let pipeline: UnsafeMutablePointer<GstPipeline> = gcast(pointer)
        gst_pipeline_auto_clock(pipeline)
        gst_pipeline_set_latency(pipeline, clockTimeNone)
        gst_element_set_start_time(pointer, 0)
    }

    /// `gst_element_set_base_time`: the clock time at which running time 0 is rendered (before
    /// latency). A pipeline hands it to its children at their next state change.
    func setBaseTime(_ time: Duration) {
        gst_element_set_base_time(pointer, time.clockTime)
    }

    /// `gst_element_get_base_time`.
    var baseTime: Duration? {
        Duration(clockTime: gst_element_get_base_time(pointer))
    }
}
