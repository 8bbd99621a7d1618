// The orientation stage's tag watch. videoflip in "auto" mode copies every frame even when the
// movie carries no orientation tag (GStreamer 1.22), about 10 % of 1080p decoding speed. So the
// engine keeps the flip at "identity" (a pass-through) until an image-orientation tag that turns
// or mirrors the picture reaches it, and only then switches it to "auto", before the tag event
// arrives, so the flip applies it from that frame on.
#include "CGStreamerShim.h"

static GstPadProbeReturn on_flip_event(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) != GST_EVENT_TAG) {
        return GST_PAD_PROBE_OK;
    }
    GstTagList *tags = NULL;
    gst_event_parse_tag(event, &tags);
    gchar *orientation = NULL;
    if (tags && gst_tag_list_get_string(tags, GST_TAG_IMAGE_ORIENTATION, &orientation)) {
        GObject *flip = G_OBJECT(data);
        gboolean turned = g_strcmp0(orientation, "rotate-0") != 0;
        g_object_set_data(flip, "me-tag-turns", GINT_TO_POINTER(turned));
        if (turned && GPOINTER_TO_INT(g_object_get_data(flip, "me-automatic"))) {
            g_object_set(flip, "video-direction", GST_VIDEO_ORIENTATION_AUTO, NULL);
        }
        g_free(orientation);
    }
    return GST_PAD_PROBE_OK;
}

void me_flip_watch_tags(GstElement *flip) {
    GstPad *pad = gst_element_get_static_pad(flip, "sink");
    // The probe lives on the flip's own pad, so the flip outlives it: no reference needed.
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_flip_event, flip, NULL);
    gst_object_unref(pad);
}

void me_flip_set_automatic(GstElement *flip) {
    g_object_set_data(G_OBJECT(flip), "me-automatic", GINT_TO_POINTER(TRUE));
    gboolean turned = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(flip), "me-tag-turns"));
    g_object_set(flip, "video-direction", turned ? GST_VIDEO_ORIENTATION_AUTO : GST_VIDEO_ORIENTATION_IDENTITY, NULL);
}

void me_flip_set_fixed(GstElement *flip) {
    g_object_set_data(G_OBJECT(flip), "me-automatic", GINT_TO_POINTER(FALSE));
}
