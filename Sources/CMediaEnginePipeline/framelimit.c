// Refuses video frames too large to allocate, before anything allocates them: a query probe on
// a sink pad answers the ACCEPT_CAPS query that every CAPS event is checked with (gstpad.c,
// pre_eventfunc_check) with "no" for raw video over the limits, so the decoder's negotiation
// fails before it asks for an output buffer. The first refusal posts an error naming the size on
// `poster` (before the decoder's own not-negotiated error), which the engine reads as tooLarge.
// A header can claim 30000x30000 pixels in a few bytes (a JPEG's SOF, a PNG's IHDR): a 1.3 GB
// frame, allocated by the decoder as soon as negotiation succeeds.
#include "me_frame_limit.h"

typedef struct {
    GstElement *poster;  // weak: the bin or pipeline the pad belongs to outlives the probe
    guint max_side;
    guint64 max_pixels;
    gint posted;
} MeFrameLimit;

static GstPadProbeReturn me_frame_limit_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    MeFrameLimit *limit = data;
    GstQuery *query = GST_PAD_PROBE_INFO_QUERY(info);
    if (GST_QUERY_TYPE(query) != GST_QUERY_ACCEPT_CAPS) {
        return GST_PAD_PROBE_OK;
    }
    GstCaps *caps = NULL;
    gst_query_parse_accept_caps(query, &caps);
    if (!caps) {
        return GST_PAD_PROBE_OK;
    }
    for (guint index = 0; index < gst_caps_get_size(caps); index++) {
        const GstStructure *structure = gst_caps_get_structure(caps, index);
        gint width = 0, height = 0;
        if (!gst_structure_get_int(structure, "width", &width) || !gst_structure_get_int(structure, "height", &height)) {
            continue;
        }
        guint64 pixels = (guint64)(width > 0 ? width : 0) * (guint64)(height > 0 ? height : 0);
        if ((guint)width <= limit->max_side && (guint)height <= limit->max_side && pixels <= limit->max_pixels) {
            continue;
        }
        if (g_atomic_int_compare_and_exchange(&limit->posted, 0, 1)) {
            GError *error = g_error_new(
                GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
                "the video frames are %dx%d pixels, more than the engine decodes (%u a side, %" G_GUINT64_FORMAT
                " pixels)",
                width, height, limit->max_side, limit->max_pixels);
            gst_element_post_message(
                limit->poster, gst_message_new_error(GST_OBJECT(limit->poster), error, "me-frame-too-large"));
            g_error_free(error);
        }
        gst_query_set_accept_caps_result(query, FALSE);
        return GST_PAD_PROBE_HANDLED;
    }
    return GST_PAD_PROBE_OK;
}

void me_limit_frame_size(GstPad *pad, GstElement *poster, guint max_side, guint64 max_pixels) {
    MeFrameLimit *limit = g_new0(MeFrameLimit, 1);
    limit->poster = poster;
    limit->max_side = max_side;
    limit->max_pixels = max_pixels;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, me_frame_limit_probe, limit, g_free);
}
