// Workaround "instant-rate-relay": instant rate changes applied on the player's thread instead of
// a streaming thread.
//
// The bug: GStreamer 1.22's path for an instant rate change (GST_SEEK_FLAG_INSTANT_RATE_CHANGE): the
// demuxer pushes a sticky GST_EVENT_INSTANT_RATE_CHANGE down every stream; each sink posts
// INSTANT_RATE_REQUEST when it gets it; the pipeline's handle_message (gstpipeline.c), run
// synchronously by whichever thread posted, answers with gst_element_send_event (pipeline,
// instant-rate-sync-time), which takes the pipeline's STATE_LOCK. The event is sticky, so it can
// reach a sink on a streaming thread (pushed again with the next buffer after a flush, or by a
// pad that could not take it at once). If the player's thread is then changing the pipeline's
// state, it holds the STATE_LOCK and waits for that very streaming thread (gst_pad_stop_task):
// a deadlock. The same late copies, arriving after a flush, reach sinks that have no segment
// yet: gst_segment_do_seek asserts 'segment->format == format'.
//
// A probe on each sink's pad takes the event out before the sink sees it and hands it to a
// callback, which only enqueues it onto the player's thread. That thread posts the sink's
// request itself (me_post_instant_rate_request), so the pipeline's handling, the STATE_LOCK
// included, runs on the thread that owns the state changes, between them, never during one.
//
// Versions: instant rate changes exist since 1.18; seen on 1.22.0. No upstream issue found;
// unfixed as of 1.29.2 (main, 2026-08): gstpipeline.c's handling of INSTANT_RATE_REQUEST and
// gstbasesink.c's posting of it are unchanged in this respect since 1.22.
//
// How it was found: engine-leak-check's stress (12 players, random commands, one core busy) hung
// and hit the 'segment->format == format' assertion in most seeds (commit 3f59c3d, 2026-11-30:
// after it, 0 assertions and 0 hangs in seeds 1-30).
//
// Off: the relay is not installed (PipelineSession); each sink posts its own request from the
// thread that brought it the event, as GStreamer does. RateTests still pass so: the deadlock and
// the assertion are races that engine-leak-check's stress finds (seeds 1-30, one core busy).
// WorkaroundReproductionTests' instant-rate-relay test forces the deadlock's order
// (engine-workaround-check, forced off and on): after a change to rate 2, an output swap hands the
// new sink the sticky change with its first frame, on playsink's vqueue thread, whose request is
// held there until a flushing seek's flush reaches the sink. Off: the seek (STATE_LOCK held, in
// gst_pad_pause_task for vqueue) and that thread (in gst_element_send_event, for the STATE_LOCK)
// wait for each other; on: the new sink never gets the change and the seek lands in 0.6 s.
#include "me_instant_rate.h"
#include "me_watch.h"
#include <gst/base/gstbasesink.h>

typedef struct {
    MeWatchOwner owner;
    me_instant_rate_callback callback;
} InstantRateRelay;

static GstPadProbeReturn on_instant_rate_change(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) != GST_EVENT_INSTANT_RATE_CHANGE) return GST_PAD_PROBE_OK;
    InstantRateRelay *relay = data;
    gdouble multiplier = 1.0;
    gst_event_parse_instant_rate_change(event, &multiplier, NULL);
    relay->callback(relay->owner.data, multiplier, gst_event_get_seqnum(event));
    // Dropped: reported to the pusher as handled, so the sticky event is not pushed again.
    return GST_PAD_PROBE_DROP;
}

gulong me_relay_instant_rate(GstPad *pad, me_instant_rate_callback callback, gpointer user_data,
                             GDestroyNotify destroy) {
    InstantRateRelay *relay = ME_WATCH_NEW(InstantRateRelay, user_data, destroy);
    relay->callback = callback;
    return gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_instant_rate_change, relay, me_watch_free);
}

// Whether every GstBaseSink inside `bin` (at any depth) has a TIME segment: the pipeline sends
// instant-rate-sync-time to all of its sinks, and one without (after a flush, before its first
// segment) asserts in gst_segment_do_seek and keeps its old rate.
gboolean me_sinks_have_time_segments(GstElement *bin) {
    GstIterator *iterator = gst_bin_iterate_recurse(GST_BIN(bin));
    GValue item = G_VALUE_INIT;
    gboolean all = TRUE;
    gboolean done = FALSE;
    while (!done) {
        switch (gst_iterator_next(iterator, &item)) {
        case GST_ITERATOR_OK: {
            GstElement *element = g_value_get_object(&item);
            if (GST_IS_BASE_SINK(element)) {
                GstBaseSink *sink = GST_BASE_SINK(element);
                GST_OBJECT_LOCK(sink);
                if (sink->segment.format != GST_FORMAT_TIME) all = FALSE;
                GST_OBJECT_UNLOCK(sink);
            }
            g_value_reset(&item);
            break;
        }
        case GST_ITERATOR_RESYNC:
            gst_iterator_resync(iterator);
            all = TRUE;
            break;
        case GST_ITERATOR_ERROR:
        case GST_ITERATOR_DONE:
            done = TRUE;
            break;
        }
    }
    g_value_unset(&item);
    gst_iterator_free(iterator);
    return all;
}

// The sink's INSTANT_RATE_REQUEST, as the sink itself would post it (gstbasesink.c): the
// pipeline computes the anchors and sends instant-rate-sync-time to its sinks, on this thread.
gboolean me_post_instant_rate_request(GstElement *sink, gdouble multiplier, guint32 seqnum) {
    GstMessage *message = gst_message_new_instant_rate_request(GST_OBJECT(sink), multiplier);
    gst_message_set_seqnum(message, seqnum);
    return gst_element_post_message(sink, message);
}
