// Builds a playbin's list of candidate elements ahead of its first autoplugging.
#include "CGStreamerShim.h"

static GstElement *find_child(GstElement *bin, const gchar *factory_name) {
    GstElement *found = NULL;
    GstIterator *iterator = gst_bin_iterate_elements(GST_BIN(bin));
    GValue item = G_VALUE_INIT;
    gboolean done = FALSE;
    while (!done && !found) {
        switch (gst_iterator_next(iterator, &item)) {
        case GST_ITERATOR_OK: {
            GstElement *element = g_value_get_object(&item);
            const gchar *name = me_element_factory_name(element);
            if (name && g_str_equal(name, factory_name)) {
                found = gst_object_ref(element);
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
    return found;
}

gboolean me_warm_up_autoplugging(GstElement *playbin) {
    GstElement *uridecodebin = find_child(playbin, "uridecodebin");
    if (!uridecodebin) {
        return FALSE;
    }
    // playbin answers uridecodebin's first "autoplug-factories" by listing and sorting every
    // decoder, demuxer, parser and sink of the registry and pairing decoders with sinks (4-5 ms
    // on a machine with gstreamer1.0-libav), once per playbin. Asked here with caps no element
    // takes, the list is built and kept (until the registry changes) and the answer is empty;
    // the streaming thread's real question then finds the list made. playbin's handler uses its
    // pad argument only to name it in a debug line, where NULL is allowed.
    GstCaps *caps = gst_caps_new_empty_simple("application/x-media-engine-warm-up");
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GValueArray *factories = NULL;
    g_signal_emit_by_name(uridecodebin, "autoplug-factories", NULL, caps, &factories);
    if (factories) {
        g_value_array_free(factories);
    }
    G_GNUC_END_IGNORE_DEPRECATIONS
    gst_caps_unref(caps);
    gst_object_unref(uridecodebin);
    return TRUE;
}
