// Closed captions out of the video: a probe on a video output bin's input hands the caption
// data each frame carries (GstVideoCaptionMeta, attached by h264parse, h265parse,
// mpegvideoparse and the decoders from ATSC A/53 user data) to a callback, with the frame's
// stream time, and tells it of each flush and each new stream (a queue's next movie, the
// content after a pre-roll ad). Frames without captions cost one meta lookup.
#include "CGStreamerShim.h"

typedef struct {
    MeCaptionCallback callback;
    gpointer user_data;
    GDestroyNotify destroy;
    GstSegment segment;
} MeCaptionWatch;

static void caption_watch_free(gpointer data) {
    MeCaptionWatch *watch = data;
    if (watch->destroy) watch->destroy(watch->user_data);
    g_free(watch);
}

static GstPadProbeReturn on_caption_input(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    MeCaptionWatch *watch = data;
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
        GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
        gpointer state = NULL;
        GstMeta *meta;
        gint64 time = -1;
        gboolean timed = FALSE;
        while ((meta = gst_buffer_iterate_meta_filtered(buffer, &state, GST_VIDEO_CAPTION_META_API_TYPE))) {
            GstVideoCaptionMeta *caption = (GstVideoCaptionMeta *)meta;
            if (!timed) {
                guint64 stream_time = 0;
                if (watch->segment.format == GST_FORMAT_TIME && GST_BUFFER_PTS_IS_VALID(buffer) &&
                    gst_segment_to_stream_time_full(&watch->segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer),
                                                    &stream_time) == 1 &&
                    stream_time <= G_MAXINT64) {
                    time = (gint64)stream_time;
                }
                timed = TRUE;
            }
            if (caption->data && caption->size > 0) {
                watch->callback(watch->user_data, time, (gint)caption->caption_type, caption->data, caption->size);
            }
        }
        return GST_PAD_PROBE_OK;
    }
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) == GST_EVENT_SEGMENT) {
        const GstSegment *segment = NULL;
        gst_event_parse_segment(event, &segment);
        gst_segment_copy_into(segment, &watch->segment);
    } else if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) {
        watch->callback(watch->user_data, -1, 0, NULL, 0);
    } else if (GST_EVENT_TYPE(event) == GST_EVENT_STREAM_START) {
        watch->callback(watch->user_data, -1, -1, NULL, 0);
    }
    return GST_PAD_PROBE_OK;
}

void me_watch_captions(GstElement *bin, MeCaptionCallback callback, gpointer user_data, GDestroyNotify destroy) {
    GstPad *input = gst_element_get_static_pad(bin, "sink");
    if (!input) {
        if (destroy) destroy(user_data);
        return;
    }
    MeCaptionWatch *watch = g_new0(MeCaptionWatch, 1);
    watch->callback = callback;
    watch->user_data = user_data;
    watch->destroy = destroy;
    gst_segment_init(&watch->segment, GST_FORMAT_UNDEFINED);
    gst_pad_add_probe(input,
                      GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH,
                      on_caption_input, watch, caption_watch_free);
    gst_object_unref(input);
}
