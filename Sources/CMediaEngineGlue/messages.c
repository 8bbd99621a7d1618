// Posting the engine's own bus messages, and the macros Swift needs to read GStreamer's
// (me_messages.h).
#include "me_messages.h"

gboolean me_post_application_message(GstElement *element, const gchar *name) {
    GstMessage *message = gst_message_new_application(GST_OBJECT(element), gst_structure_new_empty(name));
    return gst_element_post_message(element, message);
}

// Posted on the bus directly, as the player posts its other markers: the pipeline's own
// handle_message is not involved.
static gboolean post_marker(GstElement *pipeline, GstStructure *structure) {
    GstBus *bus = gst_element_get_bus(pipeline);
    if (!bus) {
        gst_structure_free(structure);
        return FALSE;
    }
    gboolean posted = gst_bus_post(bus, gst_message_new_application(GST_OBJECT(pipeline), structure));
    gst_object_unref(bus);
    return posted;
}

gboolean me_post_epoch_marker(GstElement *pipeline, guint epoch) {
    return post_marker(pipeline, gst_structure_new(ME_MESSAGE_EPOCH, ME_FIELD_EPOCH, G_TYPE_UINT, epoch, NULL));
}

gboolean me_post_seek_sent_marker(GstElement *pipeline, guint32 seqnum) {
    return post_marker(pipeline,
                       gst_structure_new(ME_MESSAGE_SEEK_SENT, ME_FIELD_SEQNUM, G_TYPE_UINT, (guint)seqnum, NULL));
}

GstObject *me_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }
GstMessageType me_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }

guint me_message_group_id(GstMessage *message) {
    guint group = 0;
    if (!gst_message_parse_group_id(message, &group)) return 0;
    return group;
}
