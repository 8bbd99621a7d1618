// Workaround "loop-running-time": keeps running time continuous across gapless loops (repeat
// mode's non-flushing segment seeks).
//
// The bug: a non-flushing seek makes the demuxer start the next segment's running time (its base)
// where the last segment's position was, and a demuxer's position is the start of the last
// buffer it pushed, not the end of the segment (gst_segment_do_seek: "base =
// gst_segment_to_running_time (segment, format, position)" for a seek without FLUSH). Each pass of
// a loop so starts one frame (or one audio buffer) early, and the sinks drop or squeeze that
// frame. This probe rewrites the base of each continuation segment passing a sink's input to
// where the previous segment ends.
//
// Versions: every release (seen on 1.22.0); unfixed as of 1.29.2 (main, 2026-08): gstsegment.c's
// non-flushing branch is unchanged. No upstream issue found.
//
// How it was found: the repeat and range tests of seamless loops (RepeatAndRangeTests, RateTests),
// which check the running time at each loop (commit c859c3e, 2026-11-30).
//
// Off: VideoOutputBin and PipelineSession install no probe on their sinks' inputs; each loop
// starts a frame early (RepeatAndRangeTests' "repeat one plays three passes" fails so: a gap of 0
// between passes instead of one frame interval). WorkaroundReproductionTests' loop-running-time
// test (engine-workaround-check, forced off and on), flat out: off, 0 µs between the passes' frames
// on the running time; on, 33,333 µs, as between any two.
#include "me_loop_continuity.h"

typedef struct {
    GstSegment previous; // streaming thread only
    gboolean have_previous;
    gboolean flushed;    // a flush since the previous segment: running time starts over
} LoopContinuity;

static GstPadProbeReturn on_loop_segment(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)pad;
    LoopContinuity *state = user_data;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP || GST_EVENT_TYPE(event) == GST_EVENT_STREAM_START) {
        state->flushed = TRUE;
        return GST_PAD_PROBE_OK;
    }
    if (GST_EVENT_TYPE(event) != GST_EVENT_SEGMENT) {
        return GST_PAD_PROBE_OK;
    }
    GstSegment segment;
    gst_event_copy_segment(event, &segment);
    if (state->have_previous && !state->flushed && segment.format == GST_FORMAT_TIME &&
        state->previous.format == GST_FORMAT_TIME && (segment.flags & GST_SEGMENT_FLAG_SEGMENT) &&
        GST_CLOCK_TIME_IS_VALID(state->previous.stop) && state->previous.stop > state->previous.start) {
        guint64 length = state->previous.stop - state->previous.start;
        gdouble rate = ABS(state->previous.rate);
        guint64 expected = state->previous.base + (guint64)(length / (rate > 0 ? rate : 1.0));
        if (segment.base < expected) {
            segment.base = expected;
            GstEvent *corrected = gst_event_new_segment(&segment);
            gst_event_set_seqnum(corrected, gst_event_get_seqnum(event));
            gst_event_unref(event);
            GST_PAD_PROBE_INFO_DATA(info) = corrected;
        }
    }
    state->previous = segment;
    state->have_previous = TRUE;
    state->flushed = FALSE;
    return GST_PAD_PROBE_OK;
}

gulong me_keep_loops_continuous(GstPad *pad) {
    LoopContinuity *state = g_new0(LoopContinuity, 1);
    return gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH, on_loop_segment,
                             state, g_free);
}
