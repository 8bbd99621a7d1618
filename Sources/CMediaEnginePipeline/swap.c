// Swapping a running pipeline's video output. The new output is made ready on the caller's
// thread (the player's): added to the bin, linked inside, brought to the bin's state. Then a
// probe waits until the pad feeding the output is idle (between two buffers) and there, on the
// streaming thread, only moves the link: old output unlinked (the player's thread shuts it down
// afterwards), new one linked. The next buffer goes to the new output: none is lost or repeated.
//
// All the work that can wait is kept off the streaming thread: under load (the whole test suite
// on 2 cores) each millisecond of work there is a chance to be preempted, and a preempted
// streaming thread waits behind every other runnable thread (measured with getrusage's context
// switch counts: 2-15 involuntary switches in a 1 ms swap, and frames 100-220 ms late, when the
// new output was added, linked and brought to PLAYING inside the probe).
#include "me_swap.h"
#include "me_messages.h"
#include <gst/base/gstbasesink.h>

typedef struct {
    GstBin *bin;
    GstElement *upstream;
    GPtrArray *old_chain;
    GPtrArray *new_chain;
    guint width, height; // the upstream scaler's new output size (0: the input's)
    gint done;           // atomic: IDLE probes can fire more than once before they are removed
    GThread *installer;  // the player's thread, which runs the probe itself when the pad is idle
} SwapPlan;

static void swap_plan_free(gpointer data) {
    SwapPlan *plan = data;
    gst_object_unref(plan->bin);
    gst_object_unref(plan->upstream);
    g_ptr_array_unref(plan->old_chain);
    g_ptr_array_unref(plan->new_chain);
    g_free(plan);
}

static void set_sinks_async(GPtrArray *chain, gboolean async) {
    for (guint i = 0; i < chain->len; i++) {
        GstElement *element = g_ptr_array_index(chain, i);
        if (GST_IS_BASE_SINK(element) || g_object_class_find_property(G_OBJECT_GET_CLASS(element), "async")) {
            g_object_set(element, "async", async, NULL);
        }
        if (GST_IS_BIN(element)) {
            GstIterator *sinks = gst_bin_iterate_sinks(GST_BIN(element));
            GValue item = G_VALUE_INIT;
            while (gst_iterator_next(sinks, &item) == GST_ITERATOR_OK) {
                GstElement *sink = g_value_get_object(&item);
                if (g_object_class_find_property(G_OBJECT_GET_CLASS(sink), "async")) {
                    g_object_set(sink, "async", async, NULL);
                }
                g_value_reset(&item);
            }
            g_value_unset(&item);
            gst_iterator_free(sinks);
        }
    }
}

gboolean me_swap_remove_replaced(GstElement *bin, GstElement *element) {
    // Not yet taken out by its swap's probe (which locks its state): still the running output.
    if (!gst_element_is_locked_state(element)) {
        return FALSE;
    }
    gst_element_set_state(element, GST_STATE_NULL);
    GstObject *parent = gst_object_get_parent(GST_OBJECT(element));
    if (parent == GST_OBJECT(bin)) {
        gst_bin_remove(GST_BIN(bin), element);
    }
    if (parent) {
        gst_object_unref(parent);
    }
    return TRUE;
}

static gboolean collect_sticky_event(GstPad *pad, GstEvent **event, gpointer events) {
    (void)pad;
    g_ptr_array_add(events, gst_event_ref(*event));
    return TRUE;
}

// Gives the new output the stream's sticky events, EOS last, as the first push after the relink
// would have, if the stream still ends there (a flush since, for a seek, takes the EOS off
// `output`). Under the new input's stream lock, which the flush's FLUSH_STOP takes too: the EOS
// goes in before that flush or not at all, never after it.
static void deliver_end_now(GstPad *output, GstPad *input) {
    GST_PAD_STREAM_LOCK(input);
    GstEvent *eos = gst_pad_get_sticky_event(output, GST_EVENT_EOS, 0);
    if (eos) {
        gst_event_unref(eos);
        GPtrArray *events = g_ptr_array_new_with_free_func((GDestroyNotify)gst_event_unref);
        gst_pad_sticky_events_foreach(output, collect_sticky_event, events);
        for (guint i = 0; i < events->len; i++) {
            gst_pad_send_event(input, gst_event_ref(g_ptr_array_index(events, i)));
        }
        g_ptr_array_unref(events);
    }
    GST_PAD_STREAM_UNLOCK(input);
}

typedef struct {
    GstPad *output;
    GstPad *input;
} EndDelivery;

static gpointer deliver_end_thread(gpointer data) {
    EndDelivery *delivery = data;
    deliver_end_now(delivery->output, delivery->input);
    gst_object_unref(delivery->output);
    gst_object_unref(delivery->input);
    g_free(delivery);
    return NULL;
}

// A sink given EOS waits in it: for the clock when playing, for PLAYING when paused. On the
// streaming thread that ran the probe, that is where the EOS would have waited anyway; the
// player's thread (the probe ran at once, the pad was idle) must not wait: a thread of its own
// delivers it.
static void deliver_end(SwapPlan *plan, GstPad *output, GstPad *input) {
    GstEvent *eos = gst_pad_get_sticky_event(output, GST_EVENT_EOS, 0);
    if (!eos) {
        return;
    }
    gst_event_unref(eos);
    if (g_thread_self() != plan->installer) {
        deliver_end_now(output, input);
        return;
    }
    EndDelivery *delivery = g_new0(EndDelivery, 1);
    delivery->output = gst_object_ref(output);
    delivery->input = gst_object_ref(input);
    g_thread_unref(g_thread_new("me-swap-eos", deliver_end_thread, delivery));
}

static GstPadProbeReturn on_idle_swap(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)info;
    SwapPlan *plan = data;
    if (!g_atomic_int_compare_and_exchange(&plan->done, FALSE, TRUE)) {
        return GST_PAD_PROBE_REMOVE;
    }
    GstPad *old_input = gst_pad_get_peer(pad);
    if (old_input) {
        gst_pad_unlink(pad, old_input);
        gst_object_unref(old_input);
    }
    // The old output is shut down and taken out of the bin by the player's thread when it
    // handles the message posted below (me_swap_remove_replaced), before any later seek: its
    // state change waits for its pads' locks, which an event on its way upstream through it may
    // hold while it waits for this very streaming thread to move on; and while it is in the bin,
    // a seek sent to the bin goes to its sink too, which refuses it (a bin's send_event needs
    // every sink to take the event). Locked, it ignores the bin's state changes meanwhile.
    for (guint i = 0; i < plan->old_chain->len; i++) {
        gst_element_set_locked_state(g_ptr_array_index(plan->old_chain, i), TRUE);
    }
    // Only a new size renegotiates (the scaler ignores a property set to the value it has).
    g_object_set(plan->upstream, "width", plan->width, "height", plan->height, NULL);
    // The link needs no caps query down the new output (a not-negotiated output fails on its
    // first buffer, as it would have after a query).
    GstPad *new_input = gst_element_get_static_pad(g_ptr_array_index(plan->new_chain, 0), "sink");
    if (new_input) {
        gst_pad_link_full(pad, new_input, GST_PAD_LINK_CHECK_HIERARCHY | GST_PAD_LINK_CHECK_TEMPLATE_CAPS);
    }
    // Linked, the output may preroll again like any other when the pipeline pauses.
    set_sinks_async(plan->new_chain, TRUE);
    gst_element_post_message(GST_ELEMENT(plan->bin),
                             gst_message_new_application(GST_OBJECT(plan->bin),
                                                         gst_structure_new_empty(ME_MESSAGE_OUTPUT_SWAPPED)));
    // After the message: a paused output waits in its sink with the EOS until the repaint's seek
    // (which the message leads to) flushes it.
    if (new_input) {
        deliver_end(plan, pad, new_input);
        gst_object_unref(new_input);
    }
    return GST_PAD_PROBE_REMOVE;
}

void me_swap_chain(GstElement *bin, GstElement *upstream, GstElement **old_chain, guint old_count,
                   GstElement **new_chain, guint new_count, guint width, guint height, gboolean unblock_old) {
    SwapPlan *plan = g_new0(SwapPlan, 1);
    plan->bin = GST_BIN(gst_object_ref(bin));
    plan->upstream = gst_object_ref(upstream);
    plan->old_chain = g_ptr_array_new_with_free_func(gst_object_unref);
    plan->new_chain = g_ptr_array_new_with_free_func(gst_object_unref);
    for (guint i = 0; i < old_count; i++) {
        g_ptr_array_add(plan->old_chain, gst_object_ref(old_chain[i]));
    }
    for (guint i = 0; i < new_count; i++) {
        g_ptr_array_add(plan->new_chain, gst_object_ref_sink(new_chain[i]));
    }
    plan->width = width;
    plan->height = height;
    plan->installer = g_thread_self();
    // The new output is made ready here, off the streaming thread: added, linked inside, and
    // brought to the bin's state without waiting for a preroll (the pipeline is already running;
    // and unlinked, it would wait for ever). It is brought up before it is linked: linking sends
    // RECONFIGURE upstream, and the decoder, on a thread of its own, may renegotiate at once;
    // against an output still in NULL (flushing pads) that fails, and a failed renegotiation is a
    // not-negotiated error that stops playback.
    for (guint i = 0; i < new_count; i++) {
        gst_bin_add(plan->bin, new_chain[i]);
    }
    for (guint i = 1; i < new_count; i++) {
        gst_element_link(new_chain[i - 1], new_chain[i]);
    }
    set_sinks_async(plan->new_chain, FALSE);
    for (gint i = (gint)new_count - 1; i >= 0; i--) {
        gst_element_sync_state_with_parent(new_chain[i]);
    }
    if (unblock_old) {
        // Paused: the streaming thread waits inside the old sink with the prerolled frame, and
        // the pad is idle only once that wait ends. Shutting the old output down ends it, sink
        // first: an element before it cannot stop while the thread holds its stream lock. This
        // comes before the probe: an idle pad runs the probe at once, and the old elements must
        // not change state after it has taken them out and set them to NULL.
        for (gint i = (gint)old_count - 1; i >= 0; i--) {
            gst_element_set_state(old_chain[i], GST_STATE_READY);
        }
    }
    GstPad *pad = gst_element_get_static_pad(upstream, "src");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_IDLE, on_idle_swap, plan, swap_plan_free);
    gst_object_unref(pad);
}
