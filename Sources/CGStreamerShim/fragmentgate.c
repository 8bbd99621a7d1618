// Holds an adaptive demuxer's second fragment back until the movie has prerolled on its first.
//
// On a fast link an adaptive demuxer (hlsdemux, dashdemux) reads ahead as fast as the network
// allows while the first picture is still being decoded: it downloads and demuxes the next
// segments and, having measured the first download, switches variant, after which decodebin
// builds and starts a second chain (demuxer, parser, decoder) for the new variant. On a small
// machine all of that competes with the first frame for the CPU. The gate lets each of the
// demuxer's first pads carry its first fragment (the first buffer of a fragment is the only
// one with a timestamp: gstadaptivedemux.c, _src_chain) and blocks the next fragment, on any
// pad, at the demuxer's source pad, as a full queue downstream would, until the engine opens
// the gate (preroll done, or a time limit). A flush (a seek) opens it too: the gate is about
// the start only. Closing the pipeline releases a blocked pad (deactivating it wakes its
// blocking probes), so teardown never waits on the gate.
#include "CGStreamerShim.h"

typedef struct {
    GstPad *pad;  // owned
    gulong probe;
} GatedPad;

typedef struct {
    GMutex lock;
    gboolean open;
    gboolean data_passed;  // a buffer left the demuxer: pads added from now on are new variants
    GArray *pads;          // GatedPad
} FragmentGate;

static GQuark gate_quark(void) { return g_quark_from_static_string("me-fragment-gate"); }
static GQuark admitted_quark(void) { return g_quark_from_static_string("me-fragment-gate-admitted"); }

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

static GstClockTime first_timestamp(GstPadProbeInfo *info) {
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
        return GST_BUFFER_PTS(GST_PAD_PROBE_INFO_BUFFER(info));
    }
    GstBufferList *list = GST_PAD_PROBE_INFO_BUFFER_LIST(info);
    return gst_buffer_list_length(list) > 0 ? GST_BUFFER_PTS(gst_buffer_list_get(list, 0)) : GST_CLOCK_TIME_NONE;
}

static GstPadProbeReturn on_gated_data(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    FragmentGate *gate = user_data;
    g_mutex_lock(&gate->lock);
    gboolean open = gate->open;
    gate->data_passed = TRUE;
    g_mutex_unlock(&gate->lock);
    if (open) {
        return GST_PAD_PROBE_PASS;
    }
    if (!GST_CLOCK_TIME_IS_VALID(first_timestamp(info))) {
        return GST_PAD_PROBE_PASS;  // inside a fragment already let through
    }
    if (!g_object_get_qdata(G_OBJECT(pad), admitted_quark())) {
        g_object_set_qdata(G_OBJECT(pad), admitted_quark(), GINT_TO_POINTER(1));
        return GST_PAD_PROBE_PASS;  // this pad's first fragment
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
    if (gate->data_passed) {
        // A pad of a variant switched to after the start: it has no first fragment of its own.
        g_object_set_qdata(G_OBJECT(pad), admitted_quark(), GINT_TO_POINTER(1));
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

void me_adaptive_open_fragment_gates(GstElement *bin) {
    GstIterator *iterator = gst_bin_iterate_recurse(GST_BIN(bin));
    GValue item = G_VALUE_INIT;
    gboolean done = FALSE;
    while (!done) {
        switch (gst_iterator_next(iterator, &item)) {
        case GST_ITERATOR_OK: {
            FragmentGate *gate = g_object_get_qdata(G_OBJECT(g_value_get_object(&item)), gate_quark());
            if (gate) {
                gate_open(gate);
            }
            g_value_reset(&item);
            break;
        }
        case GST_ITERATOR_RESYNC:
            gst_iterator_resync(iterator);
            break;
        default:
            done = TRUE;
            break;
        }
    }
    g_value_unset(&item);
    gst_iterator_free(iterator);
}
