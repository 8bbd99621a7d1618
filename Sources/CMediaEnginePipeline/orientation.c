// The orientation stage: a videoflip that sits in the video path only while the picture is
// turned or mirrored. Even a pass-through videoflip costs a few per cent of 1080p decoding
// (and videoflip's "auto" mode copies every frame), so the stage stays unlinked, beside the
// path, until an image-orientation tag that turns the picture reaches the path (in "automatic"
// mode) or the app asks for a fixed turn; it is linked in, or taken out, between two buffers
// by an idle probe on the element before it. Sticky events (caps, segment, the tag itself)
// are sent again over a new link, so the flip sees the orientation tag and the elements after
// it renegotiate the turned size before the next frame.
#include "me_orientation.h"
#include <gst/video/video.h>

struct MeOrientation {
    gint refs;
    GMutex relink;          // one relink at a time
    GstElement *upstream;   // what feeds the stage: not a reference (it holds the tag probe,
                            // which holds this), alive as long as its bin, which the caller keeps
    GstElement *flip;       // the stage (a reference)
    GstElement *downstream; // what the stage feeds (a reference)
    gint automatic;         // atomic: follow the tag
    gint tag_turns;         // atomic: the latest tag turns or mirrors the picture
    gint wanted;            // atomic: the stage should be linked in
};

static MeOrientation *orientation_ref(MeOrientation *orientation) {
    g_atomic_int_inc(&orientation->refs);
    return orientation;
}

void me_orientation_unref(MeOrientation *orientation) {
    if (!g_atomic_int_dec_and_test(&orientation->refs)) {
        return;
    }
    gst_object_unref(orientation->flip);
    gst_object_unref(orientation->downstream);
    g_mutex_clear(&orientation->relink);
    g_free(orientation);
}

static void link_pads(GstElement *from, GstElement *to) {
    GstPad *src = gst_element_get_static_pad(from, "src");
    GstPad *sink = gst_element_get_static_pad(to, "sink");
    gst_pad_link_full(src, sink, GST_PAD_LINK_CHECK_NOTHING);
    gst_object_unref(src);
    gst_object_unref(sink);
}

static void unlink_pads(GstElement *from, GstElement *to) {
    GstPad *src = gst_element_get_static_pad(from, "src");
    GstPad *sink = gst_element_get_static_pad(to, "sink");
    gst_pad_unlink(src, sink);
    gst_object_unref(src);
    gst_object_unref(sink);
}

static GstPadProbeReturn on_idle_relink(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    (void)info;
    MeOrientation *orientation = data;
    g_mutex_lock(&orientation->relink);
    GstPad *flip_sink = gst_element_get_static_pad(orientation->flip, "sink");
    gboolean linked = gst_pad_is_linked(flip_sink);
    gst_object_unref(flip_sink);
    gboolean wanted = g_atomic_int_get(&orientation->wanted);
    if (wanted && !linked) {
        unlink_pads(orientation->upstream, orientation->downstream);
        link_pads(orientation->flip, orientation->downstream);
        link_pads(orientation->upstream, orientation->flip);
    } else if (!wanted && linked) {
        unlink_pads(orientation->upstream, orientation->flip);
        unlink_pads(orientation->flip, orientation->downstream);
        link_pads(orientation->upstream, orientation->downstream);
    }
    g_mutex_unlock(&orientation->relink);
    return GST_PAD_PROBE_REMOVE;
}

// Links the stage in or out as `wanted` says, now if the path is idle, else after its buffer.
static void request_relink(MeOrientation *orientation, gboolean wanted) {
    g_atomic_int_set(&orientation->wanted, wanted);
    GstPad *pad = gst_element_get_static_pad(orientation->upstream, "src");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_IDLE, on_idle_relink, orientation_ref(orientation),
                      (GDestroyNotify)me_orientation_unref);
    gst_object_unref(pad);
}

static GstPadProbeReturn on_tag(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) != GST_EVENT_TAG) {
        return GST_PAD_PROBE_OK;
    }
    MeOrientation *orientation = data;
    GstTagList *tags = NULL;
    gst_event_parse_tag(event, &tags);
    gchar *tag = NULL;
    if (tags && gst_tag_list_get_string(tags, GST_TAG_IMAGE_ORIENTATION, &tag)) {
        gboolean turns = g_strcmp0(tag, "rotate-0") != 0;
        g_atomic_int_set(&orientation->tag_turns, turns);
        if (g_atomic_int_get(&orientation->automatic)) {
            // The flip follows the tag itself, which reaches it again when it is linked.
            request_relink(orientation, turns);
        }
        g_free(tag);
    }
    return GST_PAD_PROBE_OK;
}

MeOrientation *me_orientation_new(GstElement *upstream, GstElement *flip, GstElement *downstream) {
    MeOrientation *orientation = g_new0(MeOrientation, 1);
    orientation->refs = 1;
    g_mutex_init(&orientation->relink);
    orientation->upstream = upstream;
    orientation->flip = gst_object_ref(flip);
    orientation->downstream = gst_object_ref(downstream);
    orientation->automatic = TRUE;
    g_object_set(flip, "video-direction", GST_VIDEO_ORIENTATION_AUTO, NULL);
    // The probe lives on upstream's pad and holds the stage; neither references the pad.
    GstPad *pad = gst_element_get_static_pad(upstream, "src");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_tag, orientation_ref(orientation),
                      (GDestroyNotify)me_orientation_unref);
    gst_object_unref(pad);
    return orientation;
}

void me_orientation_set_automatic(MeOrientation *orientation) {
    g_atomic_int_set(&orientation->automatic, TRUE);
    g_object_set(orientation->flip, "video-direction", GST_VIDEO_ORIENTATION_AUTO, NULL);
    request_relink(orientation, g_atomic_int_get(&orientation->tag_turns));
}

void me_orientation_set_fixed(MeOrientation *orientation, gint method) {
    g_atomic_int_set(&orientation->automatic, FALSE);
    g_object_set(orientation->flip, "video-direction", method, NULL);
    request_relink(orientation, method != GST_VIDEO_ORIENTATION_IDENTITY);
}
