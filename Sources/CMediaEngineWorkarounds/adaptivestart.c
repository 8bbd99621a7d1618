// Workaround "adaptive-start-bitrate": the variant an adaptive stream starts with.
//
// The gap: hlsdemux and dashdemux (adaptivedemux) have no start bitrate: they start with the first
// variant, or whatever their connection-speed (0: measured) picks. hlsdemux2 and dashdemux2 have
// one ("start-bitrate", since 1.22), but need a streams-aware parent and refuse to start in
// playbin's decodebin. So the demuxer is made to assume `start_kbps` of bandwidth (its
// connection-speed) until its first buffer leaves it, then goes back to the speed it had.
//
// Versions: every release of hlsdemux and dashdemux, seen on 1.22.0; unchanged as of 1.29.2 (main,
// 2026-08). Not a bug upstream: a missing property of the older elements.
//
// How it was found: written with HLS and DASH in the core (commit 2d6356f, 2026-11-30: "1.22's
// hlsdemux has no start-bitrate"), where SourceSettings.startBitrate had no other way in.
//
// Off: SourceSetup does not call it; a stream starts with the variant the demuxer picks (HLSTests'
// "starts on its lowest variant" test fails so: the first picture is 640x480, not 160x120).
// WorkaroundReproductionTests' adaptive-start-bitrate test (engine-workaround-check, forced off and
// on): off, the first picture 640x480 (the master playlist's first variant); on, 160x120.
#include "me_adaptive_start.h"

typedef struct {
    GstElement *demuxer; // weak: the probe is removed with the pad, which the demuxer owns
    guint then_kbps;
    gint done;           // atomic
} AdaptiveStart;

static GstPadProbeReturn on_adaptive_first_buffer(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)pad;
    (void)info;
    AdaptiveStart *start = user_data;
    if (g_atomic_int_compare_and_exchange(&start->done, FALSE, TRUE)) {
        g_object_set(start->demuxer, "connection-speed", start->then_kbps, NULL);
    }
    return GST_PAD_PROBE_REMOVE;
}

static void on_adaptive_pad_added(GstElement *demuxer, GstPad *pad, gpointer user_data) {
    (void)demuxer;
    AdaptiveStart *start = user_data;
    if (GST_PAD_DIRECTION(pad) != GST_PAD_SRC || g_atomic_int_get(&start->done)) {
        return;
    }
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_adaptive_first_buffer, start, NULL);
}

void me_adaptive_start_at(GstElement *demuxer, guint start_kbps) {
    if (!g_object_class_find_property(G_OBJECT_GET_CLASS(demuxer), "connection-speed")) {
        return;
    }
    AdaptiveStart *start = g_new0(AdaptiveStart, 1);
    start->demuxer = demuxer;
    g_object_get(demuxer, "connection-speed", &start->then_kbps, NULL);
    g_object_set(demuxer, "connection-speed", start_kbps, NULL);
    // Freed with the demuxer: its pads, and their probes, go before it.
    g_signal_connect_data(demuxer, "pad-added", G_CALLBACK(on_adaptive_pad_added), start,
                          (GClosureNotify)(void (*)(void))g_free, 0);
}
