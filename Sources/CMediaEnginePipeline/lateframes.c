// A playback group's member shows each frame at the group's time. A frame that reaches the sink
// after that time (a member that joined late, a decoder too slow) is dropped rather than shown
// late: base sinks only drop late buffers when their max-lateness is set (appsink and fakesink
// leave it at -1 and show everything late, falling behind the group), and QoS events then tell
// the decoders to skip work they would finish late.
#include "me_late_frames.h"
#include <gst/base/gstbasesink.h>

guint me_drop_late_frames(GstElement *bin, gint64 max_lateness) {
    if (bin == NULL) return 0;
    if (!GST_IS_BIN(bin)) {
        if (!GST_IS_BASE_SINK(bin) || !gst_base_sink_get_sync(GST_BASE_SINK(bin))) return 0;
        gst_base_sink_set_max_lateness(GST_BASE_SINK(bin), max_lateness);
        gst_base_sink_set_qos_enabled(GST_BASE_SINK(bin), max_lateness >= 0);
        return 1;
    }
    guint count = 0;
    GstIterator *elements = gst_bin_iterate_recurse(GST_BIN(bin));
    GValue item = G_VALUE_INIT;
    gboolean done = FALSE;
    while (!done) {
        switch (gst_iterator_next(elements, &item)) {
        case GST_ITERATOR_OK: {
            GstElement *element = g_value_get_object(&item);
            if (GST_IS_BASE_SINK(element) && gst_base_sink_get_sync(GST_BASE_SINK(element))) {
                gst_base_sink_set_max_lateness(GST_BASE_SINK(element), max_lateness);
                gst_base_sink_set_qos_enabled(GST_BASE_SINK(element), max_lateness >= 0);
                count++;
            }
            g_value_reset(&item);
            break;
        }
        case GST_ITERATOR_RESYNC:
            gst_iterator_resync(elements);
            count = 0;
            break;
        default:
            done = TRUE;
            break;
        }
    }
    g_value_unset(&item);
    gst_iterator_free(elements);
    return count;
}
