// Workaround "fragment-gate": holds an adaptive demuxer's second fragment back until the movie has
// prerolled on its first.
//
// The behaviour worked around (a cost, not a crash): on a fast link an adaptive demuxer (hlsdemux,
// dashdemux) reads ahead as fast as the network allows while the first picture is still being
// decoded: it downloads and demuxes the next segments and, having measured the first download,
// switches variant, after which decodebin builds and starts a second chain (demuxer, parser,
// decoder) for the new variant. On a small machine all of that competes with the first frame for
// the CPU.
//
// GStreamer 1.22's adaptive demuxers read each fragment with a source element in a bin of their own
// (source ! queue, its ghost "src" pad linked to the demuxer's internal pad: gstadaptivedemux.c,
// gst_adaptive_demux_stream_update_source), which ends every fragment with EOS. The gate watches
// that pad: once the first fragment's EOS has passed it, every fragment after it has been pushed
// out of the demuxer whole, and the next buffer the demuxer pushes (on any of its source pads, a
// switched variant's included) is blocked there, as a full queue downstream would block it, until
// the engine opens the gate (preroll done, or a time limit). A flush (a seek) opens it too: the
// gate is about the start only. A demuxer with more than one stream (DASH's separate audio and
// video) is not gated: one stream's first fragment may end before the other's has prerolled. The
// gate must be open before the demuxer goes down to READY: it stops its fragment downloads (joining
// their threads) before it deactivates its own pads, so a download blocked at a closed gate would
// never end. The engine opens the gates before every such state change.
//
// Versions: adaptivedemux (hlsdemux, dashdemux, mssdemux) in every release, seen on 1.22.0;
// unchanged as of 1.29.2 (main, 2026-08). adaptivedemux2 (1.22 on) has no such read-ahead race
// with the first picture, but cannot run in playbin. No upstream issue: a matter of policy.
//
// How it was found: timing network starts against a bare playbin (engine-bench's network
// figures: HLS time to first frame 1.55-1.77x a bare playbin's before, commit 501f436,
// 2026-11-30); the fragment ends from the source's EOS and the several-streams case followed
// (3dfc07a, bd74542).
//
// Off: SourceSetup installs no gate; the demuxer reads ahead while the movie prerolls (HLSTests'
// "reads no further than its first segment" test fails so: 9 requests while preparing, not 1-2).
// WorkaroundReproductionTests' fragment-gate test (engine-workaround-check, forced off and on),
// the first picture held 400 ms: off, 9 segments requested meanwhile; on, 2 (the second waits).
#include "me_fragment_gate.h"

typedef struct {
    GstPad *pad;  // owned
    gulong probe;
} GatedPad;

typedef struct {
    GMutex lock;
    gboolean open;
    gboolean first_fragment_done;  // its EOS reached the demuxer
    gboolean streams_counted;      // the demuxer's pads were counted at its first buffer
    GArray *pads;                  // GatedPad
} FragmentGate;

static GQuark gate_quark(void) { return g_quark_from_static_string("me-fragment-gate"); }
static GQuark watched_quark(void) { return g_quark_from_static_string("me-fragment-gate-watched"); }

static void gate_free(gpointer data) {
    FragmentGate *gate = data;
    for (guint i = 0; i < gate->pads->len; i++) {
        gst_object_unref(g_array_index(gate->pads, GatedPad, i).pad);
    }
    g_array_unref(gate->pads);
    g_mutex_clear(&gate->lock);
    g_free(gate);
}

/// Opens the gate: every pad's blocking probe is removed, which lets a blocked push go on.
static void gate_open(FragmentGate *gate) {
    g_mutex_lock(&gate->lock);
    if (gate->open) {
        g_mutex_unlock(&gate->lock);
        return;
    }
    gate->open = TRUE;
    GArray *pads = gate->pads;
    gate->pads = g_array_new(FALSE, FALSE, sizeof(GatedPad));
    g_mutex_unlock(&gate->lock);
    for (guint i = 0; i < pads->len; i++) {
        GatedPad *gated = &g_array_index(pads, GatedPad, i);
        gst_pad_remove_probe(gated->pad, gated->probe);
        gst_object_unref(gated->pad);
    }
    g_array_unref(pads);
}

static GstPadProbeReturn on_gated_data(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)info;
    FragmentGate *gate = user_data;
    g_mutex_lock(&gate->lock);
    gboolean open = gate->open, blocks = gate->first_fragment_done, counted = gate->streams_counted;
    gate->streams_counted = TRUE;
    g_mutex_unlock(&gate->lock);
    if (open) {
        return GST_PAD_PROBE_PASS;
    }
    if (!blocks && counted) {
        return GST_PAD_PROBE_PASS;  // the first fragment
    }
    if (!blocks) {
        // The first buffer: the demuxer has exposed all of its first streams by now.
        GstElement *demuxer = gst_pad_get_parent_element(pad);
        gboolean several_streams = FALSE;
        if (demuxer) {
            GST_OBJECT_LOCK(demuxer);
            several_streams = demuxer->numsrcpads > 1;
            GST_OBJECT_UNLOCK(demuxer);
            gst_object_unref(demuxer);
        }
        if (several_streams) {
            gate_open(gate);
        }
        return GST_PAD_PROBE_PASS;  // the first fragment
    }
    return GST_PAD_PROBE_OK;  // a later fragment: blocked until the gate opens
}

static GstPadProbeReturn on_gated_flush(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)pad;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_START || GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) {
        gate_open(user_data);
        return GST_PAD_PROBE_REMOVE;
    }
    return GST_PAD_PROBE_OK;
}

static void on_gated_pad_added(GstElement *demuxer, GstPad *pad, gpointer user_data) {
    (void)demuxer;
    FragmentGate *gate = user_data;
    if (GST_PAD_DIRECTION(pad) != GST_PAD_SRC) {
        return;
    }
    g_mutex_lock(&gate->lock);
    if (gate->open) {
        g_mutex_unlock(&gate->lock);
        return;
    }
    GatedPad gated = {
        .pad = gst_object_ref(pad),
        .probe = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BLOCK | GST_PAD_PROBE_TYPE_BUFFER |
                                            GST_PAD_PROBE_TYPE_BUFFER_LIST,
                                   on_gated_data, gate, NULL),
    };
    g_array_append_val(gate->pads, gated);
    g_mutex_unlock(&gate->lock);
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_FLUSH, on_gated_flush, gate, NULL);
}

void me_adaptive_gate_after_first_fragment(GstElement *demuxer) {
    if (g_object_get_qdata(G_OBJECT(demuxer), gate_quark())) {
        return;
    }
    FragmentGate *gate = g_new0(FragmentGate, 1);
    g_mutex_init(&gate->lock);
    gate->pads = g_array_new(FALSE, FALSE, sizeof(GatedPad));
    // The demuxer owns the gate; its pads (and their probes) go before it.
    g_object_set_qdata_full(G_OBJECT(demuxer), gate_quark(), gate, gate_free);
    g_signal_connect(demuxer, "pad-added", G_CALLBACK(on_gated_pad_added), gate);
}

static GstPadProbeReturn on_fragment_source_event(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)pad;
    if (GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info)) != GST_EVENT_EOS) {
        return GST_PAD_PROBE_OK;
    }
    FragmentGate *gate = user_data;
    g_mutex_lock(&gate->lock);
    gate->first_fragment_done = TRUE;
    g_mutex_unlock(&gate->lock);
    return GST_PAD_PROBE_REMOVE;
}

void me_adaptive_gate_watch_fragment_source(GstElement *source) {
    GstObject *bin = gst_object_get_parent(GST_OBJECT(source));
    GstObject *demuxer = bin ? gst_object_get_parent(bin) : NULL;
    FragmentGate *gate = demuxer ? g_object_get_qdata(G_OBJECT(demuxer), gate_quark()) : NULL;
    GstPad *pad = gate && GST_IS_BIN(bin) ? gst_element_get_static_pad(GST_ELEMENT(bin), "src") : NULL;
    // One watch per fragment bin (its source is set up again for every fragment's URI). The
    // probe's data is the gate, which the demuxer owns and outlives its bins.
    if (pad && !g_object_get_qdata(G_OBJECT(pad), watched_quark())) {
        g_object_set_qdata(G_OBJECT(pad), watched_quark(), GINT_TO_POINTER(1));
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_fragment_source_event, gate, NULL);
    }
    if (pad) {
        gst_object_unref(pad);
    }
    if (demuxer) {
        gst_object_unref(demuxer);
    }
    if (bin) {
        gst_object_unref(bin);
    }
}

static void open_gate_of(const GValue *item, gpointer user_data) {
    (void)user_data;
    FragmentGate *gate = g_object_get_qdata(G_OBJECT(g_value_get_object(item)), gate_quark());
    if (gate) {
        gate_open(gate);
    }
}

void me_adaptive_open_fragment_gates(GstElement *bin) {
    // gst_iterator_foreach starts again after a resync: opening a gate twice does nothing.
    GstIterator *iterator = gst_bin_iterate_recurse(GST_BIN(bin));
    gst_iterator_foreach(iterator, open_gate_of, NULL);
    gst_iterator_free(iterator);
}
