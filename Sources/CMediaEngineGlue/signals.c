// Typed signal connections (me_signals.h).
#include "me_signals.h"

gulong me_signal_connect_element(gpointer instance, const gchar *signal, me_element_callback callback,
                                 gpointer user_data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(callback), user_data, destroy, 0);
}

// Gapless hand-over: playbin's about-to-finish signal, when the current movie's source has
// delivered everything, is where the next movie's URI must be set for playbin to play it right
// after, without a gap (a pre-roll ad, then the content).
gulong me_connect_about_to_finish(GstElement *playbin, me_about_to_finish_callback callback, gpointer user_data,
                                  GClosureNotify destroy) {
    return g_signal_connect_data(playbin, "about-to-finish", G_CALLBACK(callback), user_data, destroy, 0);
}

// Only the sink pads: "pad-added" reports source pads too.
typedef struct {
    me_pad_callback callback;
    gpointer user_data;
    GClosureNotify destroy;
} SinkPadWatch;

static void on_pad_added(GstElement *element, GstPad *pad, gpointer data) {
    SinkPadWatch *watch = data;
    if (GST_PAD_DIRECTION(pad) == GST_PAD_SINK) watch->callback(element, pad, watch->user_data);
}

static void sink_pad_watch_free(gpointer data, GClosure *closure) {
    SinkPadWatch *watch = data;
    if (watch->destroy) watch->destroy(watch->user_data, closure);
    g_free(watch);
}

gboolean me_watch_sink_pads(GstElement *element, me_pad_callback callback, gpointer user_data, GClosureNotify destroy) {
    if (element == NULL) return FALSE;
    SinkPadWatch *watch = g_new0(SinkPadWatch, 1);
    watch->callback = callback;
    watch->user_data = user_data;
    watch->destroy = destroy;
    g_signal_connect_data(element, "pad-added", G_CALLBACK(on_pad_added), watch, sink_pad_watch_free, 0);
    GstIterator *pads = gst_element_iterate_sink_pads(element);
    GValue item = G_VALUE_INIT;
    while (gst_iterator_next(pads, &item) == GST_ITERATOR_OK) {
        callback(element, g_value_get_object(&item), user_data);
        g_value_reset(&item);
    }
    g_value_unset(&item);
    gst_iterator_free(pads);
    return TRUE;
}
