// Workaround "sink-flow-guard": keeps a sink that says "flushing" while it is not from stopping the
// stream for good.
//
// A GstBaseSink that returns GST_FLOW_FLUSHING from its render when its pad is not flushing makes
// the element upstream stop its streaming task, as it would for a flush, and no flush follows to
// start it again: nothing reaches the sink any more, with no error and no end of stream. A pause
// then waits for a preroll frame that never comes.
//
// srtsink does this (GStreamer 1.22, and upstream's gst_srt_sink_render today): it sets FLUSHING
// when its cancellable is cancelled and returns it after writing the buffer. GstBaseSink cancels
// it (::unlock) when the pipeline goes from PLAYING to PAUSED, before it takes the preroll lock,
// and resets it (::unlock_stop) once it has; a frame whose clock wait ended in between is
// rendered with the cancellable cancelled. mpegtsmux then stopped its task, and the player's
// pause() waited for PAUSED for ever (make stress: one SRT test in about 30 runs under load).
//
// The guard wraps the chain functions of the sink pad of each base sink in an output: a FLUSHING
// while that pad is not flushing becomes OK, that one buffer is dropped, and the stream goes on.
// The pad's flag is read under the pad's stream lock, which its chain holds: a real flush (the
// flag set by FLUSH_START, cleared by a FLUSH_STOP that the GStreamer contract sends only once
// upstream's streaming thread has stopped) is passed on as it came.
//
// Versions: seen on 1.22.0 (Debian 12). No upstream issue found; unfixed as of 1.29.2 (main,
// 2026-08): gst_srt_sink_render still returns GST_FLOW_FLUSHING when its cancellable is cancelled.
//
// How it was found: make stress, one SRT test in about 30 runs; reproduced every time with the
// race window widened under gdb (100 ms after srtsink's cancel) (commit 918a937, 2026-12-01).
//
// Off: VideoOutputBin does not guard its element outputs; a pause of an SRT output can wait for
// PAUSED for ever, about once in 30 make stress runs (SinkFlowGuardTests calls the guard itself,
// and its unguarded case shows the stop with an appsink; NetworkVideoSinkTests pass unless the
// race is hit). WorkaroundReproductionTests' sink-flow-guard test makes the race's outcome certain
// through the engine (engine-workaround-check, forced off and on): an element output whose base
// sink says FLUSHING for its 5th frame. Off: 5 frames, then nothing and no end; on: 60 frames (the
// refused one dropped) and the end.
#include "me_sink_flow_guard.h"
#include <gst/base/gstbasesink.h>

GST_DEBUG_CATEGORY_STATIC(me_sink_flow_guard_debug);
#define GST_CAT_DEFAULT me_sink_flow_guard_debug

typedef struct {
    GstPadChainFunction chain;
    GstPadChainListFunction chain_list;
} MeSinkFlowGuard;

static GQuark guard_quark(void) {
    static GQuark quark = 0;
    static gsize initialized = 0;
    if (g_once_init_enter(&initialized)) {
        quark = g_quark_from_static_string("me-sink-flow-guard");
        GST_DEBUG_CATEGORY_INIT(me_sink_flow_guard_debug, "mesinkflowguard", 0, "sinks' FLUSHING outside a flush");
        g_once_init_leave(&initialized, 1);
    }
    return quark;
}

static GstFlowReturn guarded(GstPad *pad, GstFlowReturn result) {
    if (result != GST_FLOW_FLUSHING) {
        return result;
    }
    GST_OBJECT_LOCK(pad);
    gboolean flushing = GST_PAD_IS_FLUSHING(pad);
    GST_OBJECT_UNLOCK(pad);
    if (flushing) {
        return result;
    }
    GST_WARNING_OBJECT(pad, "the sink said FLUSHING while not flushing: that buffer is dropped, the stream goes on");
    return GST_FLOW_OK;
}

static GstFlowReturn guard_chain(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
    const MeSinkFlowGuard *guard = g_object_get_qdata(G_OBJECT(pad), guard_quark());
    return guarded(pad, guard->chain(pad, parent, buffer));
}

static GstFlowReturn guard_chain_list(GstPad *pad, GstObject *parent, GstBufferList *list) {
    const MeSinkFlowGuard *guard = g_object_get_qdata(G_OBJECT(pad), guard_quark());
    return guarded(pad, guard->chain_list(pad, parent, list));
}

static void guard_pad(GstPad *pad) {
    GQuark quark = guard_quark();
    // Once per pad; and only a pad whose chain data has no destroy function: setting a chain
    // function calls the old one's, and the original keeps its data (GST_PAD_CHAINDATA).
    if (g_object_get_qdata(G_OBJECT(pad), quark) || pad->chainnotify || pad->chainlistnotify) {
        return;
    }
    MeSinkFlowGuard *guard = g_new0(MeSinkFlowGuard, 1);
    guard->chain = GST_PAD_CHAINFUNC(pad);
    guard->chain_list = GST_PAD_CHAINLISTFUNC(pad);
    g_object_set_qdata_full(G_OBJECT(pad), quark, guard, g_free);
    if (guard->chain) {
        gst_pad_set_chain_function_full(pad, guard_chain, pad->chaindata, NULL);
    }
    if (guard->chain_list) {
        gst_pad_set_chain_list_function_full(pad, guard_chain_list, pad->chainlistdata, NULL);
    }
}

static void guard_element(GstElement *element) {
    if (!GST_IS_BASE_SINK(element)) {
        return;
    }
    GstPad *pad = gst_element_get_static_pad(element, "sink");
    if (pad) {
        guard_pad(pad);
        gst_object_unref(pad);
    }
}

void me_guard_sink_flow(GstElement *output) {
    guard_element(output);
    if (!GST_IS_BIN(output)) {
        return;
    }
    GstIterator *elements = gst_bin_iterate_recurse(GST_BIN(output));
    GValue item = G_VALUE_INIT;
    GstIteratorResult result;
    while ((result = gst_iterator_next(elements, &item)) != GST_ITERATOR_DONE && result != GST_ITERATOR_ERROR) {
        if (result == GST_ITERATOR_RESYNC) {
            // Guarding a pad twice is a no-op, so the walk can simply start over.
            gst_iterator_resync(elements);
            continue;
        }
        guard_element(g_value_get_object(&item));
        g_value_reset(&item);
    }
    g_value_unset(&item);
    gst_iterator_free(elements);
}
