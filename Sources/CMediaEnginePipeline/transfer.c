// Bytes a network source delivered, for the access log. souphttpsrc keeps no statistics; a
// buffer probe on its source pad sees every byte it pushes downstream.
#include "me_transfer.h"
#include "me_messages.h"

struct MeTransferCounter {
    gint references;
    GMutex lock;
    guint64 bytes;
    gint64 first_us;
    gint64 latest_us;
};

MeTransferCounter *me_transfer_counter_new(void) {
    MeTransferCounter *counter = g_new0(MeTransferCounter, 1);
    counter->references = 1;
    g_mutex_init(&counter->lock);
    return counter;
}

static void count(MeTransferCounter *counter, gsize size) {
    gint64 now = g_get_monotonic_time();
    g_mutex_lock(&counter->lock);
    if (counter->bytes == 0) counter->first_us = now;
    counter->bytes += size;
    counter->latest_us = now;
    g_mutex_unlock(&counter->lock);
}

static gboolean add_size(GstBuffer **buffer, guint index, gpointer data) {
    (void)index;
    *(gsize *)data += gst_buffer_get_size(*buffer);
    return TRUE;
}

static GstPadProbeReturn on_data(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
        if (GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info)) == GST_EVENT_EOS) {
            GstObject *source = gst_pad_get_parent(pad);
            if (source) {
                gst_element_post_message(GST_ELEMENT(source),
                                         gst_message_new_application(
                                             source, gst_structure_new_empty(ME_MESSAGE_DOWNLOAD_COMPLETE)));
                gst_object_unref(source);
            }
        }
        return GST_PAD_PROBE_OK;
    }
    gsize size = 0;
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
        size = gst_buffer_get_size(GST_PAD_PROBE_INFO_BUFFER(info));
    } else if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
        gst_buffer_list_foreach(GST_PAD_PROBE_INFO_BUFFER_LIST(info), add_size, &size);
    }
    if (size > 0) count(data, size);
    return GST_PAD_PROBE_OK;
}

void me_transfer_counter_watch(MeTransferCounter *counter, GstElement *source) {
    // playbin announces its source element twice (source-setup and element-setup): count once.
    if (g_object_get_data(G_OBJECT(source), "me-transfer-counted")) return;
    g_object_set_data(G_OBJECT(source), "me-transfer-counted", counter);
    GstPad *pad = gst_element_get_static_pad(source, "src");
    if (!pad) return;
    g_atomic_int_inc(&counter->references);
    gst_pad_add_probe(pad,
                      GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
                      on_data, counter,
                      (GDestroyNotify)me_transfer_counter_unref);
    gst_object_unref(pad);
}

void me_transfer_counter_reset(MeTransferCounter *counter) {
    g_mutex_lock(&counter->lock);
    counter->bytes = 0;
    counter->first_us = counter->latest_us = 0;
    g_mutex_unlock(&counter->lock);
}

void me_transfer_counter_read(MeTransferCounter *counter, guint64 *bytes, gdouble *seconds) {
    g_mutex_lock(&counter->lock);
    *bytes = counter->bytes;
    *seconds = (gdouble)(counter->latest_us - counter->first_us) / 1e6;
    g_mutex_unlock(&counter->lock);
}

void me_transfer_counter_unref(MeTransferCounter *counter) {
    if (!g_atomic_int_dec_and_test(&counter->references)) return;
    g_mutex_clear(&counter->lock);
    g_free(counter);
}
