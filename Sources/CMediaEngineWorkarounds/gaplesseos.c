// Workaround "gapless-eos": the end-of-stream gate that makes playbin's gapless hand-over work for
// movies with more than one stream (sound and picture).
//
// The bug: playbin (playbin2) deadlocks at a gapless switch when a movie has two streams. The
// stream that ends first (say the sound) takes its EOS into playsink's stream synchronizer, which
// holds that streaming thread until every stream has ended, while it still holds its pad's stream
// lock. The last stream's end makes decodebin "drained", and playbin's about-to-finish handler, on
// that last streaming thread, then unlinks the old group: it deactivates playsink's sink pad of
// the first stream, which waits for that pad's stream lock, held by the thread waiting for the
// last stream's end. Neither goes on (gdb: one multiqueue thread in gst_pad_set_active under
// drained_cb, the other in a g_cond_wait of the stream synchronizer).
//
// Versions: seen on 1.22.0 (Debian 12). No upstream issue found; unfixed as of 1.29.2 (GStreamer's
// main in the GitHub mirror, 2026-08): no commit to gstplaybin2.c, gstplaysink.c or
// gststreamsynchronizer.c since 1.22 touches this path (playbin3 does gapless in uridecodebin3).
//
// How it was found: the engine's gapless queues of movies with sound hung at the switch; a plain
// playbin with fakesinks and two WebM or MP4 files with sound hangs too (commit 39cf86c,
// 2026-12-01, "Gapless hand-over after movies with sound").
//
// The gate sits on playsink's sink pads and drops an EOS that would park: one that comes while
// another stream of the movie is still running and a next movie is queued (or being handed
// over). The stream then just stops; when the last one ends, playbin switches to the next movie,
// which releases the old pads. Its promises:
//   - an EOS is dropped only while a hand-over is possible: if about-to-finish then finds
//     nothing to hand over, the dropped EOS is sent again (from a GStreamer thread, since it
//     blocks in the stream synchronizer until the last stream's end comes), so the movie ends;
//   - once an EOS has gone through while another stream runs (nothing was queued then), no
//     hand-over may start in that movie: me_gapless_gate_begin_hand_over says no.
// Pads are tracked from their STREAM_START or SEGMENT to their EOS; a flush or a pad's removal
// forgets what was dropped on it (the stream will end again, or the pad is gone).
//
// Off (the gate not installed): every call below takes a NULL gate, hand-overs are never refused,
// and a movie with sound followed by a queued movie hangs at the switch (QueueTests' movies with
// sound fail so: playbackDidFinish never comes, and the test process stays deadlocked).
// WorkaroundReproductionTests' gapless-eos test runs it in a child process (engine-workaround-check
// gapless-eos, forced off and on), MP4 with AAC then WebM: off, no hand-over (the child's watchdog
// ends it after 5 s); on, the WebM follows after 0.6 s and the queue plays to its end.
// (Dropping a withdrawn movie's buffers at playsink, which shared this probe until the split into
// workarounds, is the engine's own feature: groupwithdrawal.c in CMediaEnginePipeline.)
#include "me_gapless_eos.h"
#include "me_signals.h"

struct MeGaplessGate {
    GMutex lock;
    GstElement *playbin; // not owned: the gate lives as the playbin's data
    GList *live;         // playsink sink pads between their start and their EOS (no refs)
    GList *held;         // pads whose EOS was dropped (refs)
    gboolean next_queued;
    gboolean handing_over;
    gboolean parked;     // an EOS went through while another stream ran
};

static MeGaplessGate *gate_ref(MeGaplessGate *gate) { return g_atomic_rc_box_acquire(gate); }

static void gate_clear(MeGaplessGate *gate) {
    g_list_free(gate->live);
    g_list_free_full(gate->held, gst_object_unref);
    g_mutex_clear(&gate->lock);
}

static void gate_unref(gpointer gate) { g_atomic_rc_box_release_full(gate, (GDestroyNotify)gate_clear); }

static void forget_held(MeGaplessGate *gate, GstPad *pad) {
    GList *link = g_list_find(gate->held, pad);
    if (link == NULL) return;
    gate->held = g_list_delete_link(gate->held, link);
    gst_object_unref(pad);
}

static GstPadProbeReturn on_event(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    MeGaplessGate *gate = data;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    GstPadProbeReturn result = GST_PAD_PROBE_OK;
    g_mutex_lock(&gate->lock);
    switch (GST_EVENT_TYPE(event)) {
    case GST_EVENT_STREAM_START:
        // A new movie on this pad: whatever the old one parked or dropped is over.
        gate->parked = FALSE;
        gate->handing_over = FALSE;
        /* fallthrough */
    case GST_EVENT_SEGMENT:
        if (g_list_find(gate->live, pad) == NULL) gate->live = g_list_prepend(gate->live, pad);
        break;
    case GST_EVENT_FLUSH_STOP:
        forget_held(gate, pad);
        gate->parked = FALSE;
        break;
    case GST_EVENT_EOS: {
        gate->live = g_list_remove(gate->live, pad);
        if (gate->live == NULL) break; // the last stream: the movie ends, or playbin switches
        if (gate->next_queued || gate->handing_over) {
            if (g_list_find(gate->held, pad) == NULL) gate->held = g_list_prepend(gate->held, gst_object_ref(pad));
            result = GST_PAD_PROBE_DROP;
        } else {
            gate->parked = TRUE;
        }
        break;
    }
    default:
        break;
    }
    g_mutex_unlock(&gate->lock);
    return result;
}

static void on_sink_pad(GstElement *playsink, GstPad *pad, gpointer data) {
    (void)playsink;
    MeGaplessGate *gate = data;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH, on_event,
                      gate_ref(gate), gate_unref);
}

static void on_pad_removed(GstElement *playsink, GstPad *pad, gpointer data) {
    (void)playsink;
    MeGaplessGate *gate = data;
    g_mutex_lock(&gate->lock);
    gate->live = g_list_remove(gate->live, pad);
    forget_held(gate, pad);
    g_mutex_unlock(&gate->lock);
}

static void closure_unref(gpointer data, GClosure *closure) {
    (void)closure;
    gate_unref(data);
}

MeGaplessGate *me_gapless_gate_install(GstElement *playbin) {
    GstElement *playsink = gst_bin_get_by_name(GST_BIN(playbin), "playsink");
    if (playsink == NULL) return NULL;
    MeGaplessGate *gate = g_atomic_rc_box_new0(MeGaplessGate);
    g_mutex_init(&gate->lock);
    gate->playbin = playbin;
    me_watch_sink_pads(playsink, on_sink_pad, gate_ref(gate), closure_unref);
    g_signal_connect_data(playsink, "pad-removed", G_CALLBACK(on_pad_removed), gate_ref(gate), closure_unref, 0);
    gst_object_unref(playsink);
    // The playbin's reference; the probes and handlers hold their own.
    g_object_set_data_full(G_OBJECT(playbin), "me-gapless-gate", gate, gate_unref);
    return gate;
}

void me_gapless_gate_set_next_queued(MeGaplessGate *gate, gboolean queued) {
    if (gate == NULL) return;
    g_mutex_lock(&gate->lock);
    gate->next_queued = queued;
    g_mutex_unlock(&gate->lock);
}

gboolean me_gapless_gate_begin_hand_over(MeGaplessGate *gate) {
    if (gate == NULL) return TRUE;
    g_mutex_lock(&gate->lock);
    gboolean may = !gate->parked;
    if (may) gate->handing_over = TRUE;
    g_mutex_unlock(&gate->lock);
    return may;
}

static void send_eos(GstElement *playbin, gpointer pad) {
    (void)playbin;
    gst_pad_send_event(pad, gst_event_new_eos());
}

void me_gapless_gate_cancel_hand_over(MeGaplessGate *gate) {
    if (gate == NULL) return;
    g_mutex_lock(&gate->lock);
    gate->handing_over = FALSE;
    gate->next_queued = FALSE;
    GList *held = gate->held;
    gate->held = NULL;
    g_mutex_unlock(&gate->lock);
    // Sent from a GStreamer thread: each EOS waits in the stream synchronizer for the end of the
    // stream whose thread is calling this.
    for (GList *link = held; link != NULL; link = link->next)
        gst_element_call_async(gate->playbin, send_eos, link->data, gst_object_unref);
    g_list_free(held);
}
