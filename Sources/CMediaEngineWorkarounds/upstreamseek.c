// Workaround "upstream-loop-seek": sending a seek up from an output's input pad, as a sink does
// with a seek it is given, but without gst_element_send_event: that holds the state lock of the
// pipeline (and of every bin down to the sink) until the demuxer has taken the seek. A seek that
// does not flush is taken only once the demuxer's streaming thread has stopped, which can be
// blocked in a full queue until the pipeline returns to PLAYING; GStreamer's own return to
// PLAYING (a state lost to an output that prerolls on its own, gst_bin_continue_func) waits for
// that state lock. The two waited for each other for ever. Pushed from a pad, the seek holds no
// element's state lock.
//
// playsink sends a seek to one of its sinks, the video one when there is one (the demuxer seeks
// all its streams at once): the same order here.
//
// The bug: gst_element_send_event takes the element's STATE_LOCK (gstelement.c) for as long as the
// event takes, and a demuxer takes a non-flushing seek only once its streaming thread has stopped;
// gst_bin_continue_func (a bin's return to PLAYING after an element lost its state) waits for the
// same lock. A deadlock of GStreamer's own locking, not of the engine's.
//
// Versions: seen on 1.22.0. No upstream issue found; unfixed as of 1.29.2 (main, 2026-08):
// gst_element_send_event still holds the state lock through the event.
//
// How it was found: repeat mode's loop (a non-flushing segment seek) hung the player, paused near
// the end of a looping movie (RepeatAndRangeTests, 1 run in 3) and after a swap to an HLS output
// under make stress (from its backtraces) (commit 28c7dad, 2026-12-02).
//
// Off: the loop's seek goes to the pipeline (gst_element_send_event), as before that commit.
// RepeatAndRangeTests usually pass so: the hang is a race (1 run in 3 of the paused-near-the-end
// test when found; the HLS swap test under make stress). WorkaroundReproductionTests'
// upstream-loop-seek test forces its order (engine-workaround-check, forced off and on): a flushing
// seek near the end while playing, its first frame held in the sink until the loop is sent, and
// qtdemux's thread, once it has posted the segment's end, waiting for PLAYING as in a full queue.
// Off: the loop's sender (STATE_LOCK held, in gst_pad_pause_task for qtdemux) and
// gst_bin_continue_func (for the STATE_LOCK) wait for each other; on: the movie loops.
#include "me_upstream_seek.h"

static gboolean push_from_input(GstElement *element, GstEvent *event) {
    if (!element) {
        return FALSE;
    }
    GstPad *input = gst_element_get_static_pad(element, "sink");
    if (!input) {
        return FALSE;
    }
    gboolean sent = FALSE;
    if (gst_pad_is_linked(input)) {
        // An upstream event pushed from a sink pad goes to its peer.
        sent = gst_pad_push_event(input, gst_event_ref(event));
    }
    gst_object_unref(input);
    return sent;
}

gboolean me_send_seek_upstream(GstElement *video_output, GstElement *audio_sink, GstEvent *event) {
    gboolean sent = push_from_input(video_output, event) || push_from_input(audio_sink, event);
    gst_event_unref(event);
    return sent;
}
