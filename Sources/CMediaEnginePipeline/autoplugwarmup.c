// Builds a playbin's list of candidate elements ahead of its first autoplugging.
#include "me_autoplug_warmup.h"
#include "me_element_info.h"

static gint is_uridecodebin(gconstpointer item, gconstpointer user_data) {
    (void)user_data;
    const gchar *name = me_element_factory_name(g_value_get_object(item));
    return name && g_str_equal(name, "uridecodebin") ? 0 : 1;
}

gboolean me_warm_up_autoplugging(GstElement *playbin) {
    GstIterator *children = gst_bin_iterate_elements(GST_BIN(playbin));
    GValue found = G_VALUE_INIT;
    gboolean has_one = gst_iterator_find_custom(children, is_uridecodebin, &found, NULL);
    gst_iterator_free(children);
    if (!has_one) {
        return FALSE;
    }
    GstElement *uridecodebin = g_value_get_object(&found);
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
    g_value_unset(&found);
    return TRUE;
}
