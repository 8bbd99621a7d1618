// Closed captions out of the video: the video output bin's input probe (outputbin.c) hands the
// caption data each frame carries (GstVideoCaptionMeta, attached by h264parse, h265parse,
// mpegvideoparse and the decoders from ATSC A/53 user data) to a callback, with the frame's
// stream time, and tells it of each flush and each new stream (a queue's next movie, the
// content after a pre-roll ad). Frames without captions cost one meta lookup.
#include "captions.h"

struct MeCaptionWatch {
    MeCaptionCallback callback;
    gpointer user_data;
    GDestroyNotify destroy;
};

MeCaptionWatch *me_caption_watch_new(MeCaptionCallback callback, gpointer user_data, GDestroyNotify destroy) {
    MeCaptionWatch *watch = g_new0(MeCaptionWatch, 1);
    watch->callback = callback;
    watch->user_data = user_data;
    watch->destroy = destroy;
    return watch;
}

void me_caption_watch_free(MeCaptionWatch *watch) {
    if (!watch) return;
    if (watch->destroy) watch->destroy(watch->user_data);
    g_free(watch);
}

void me_caption_watch_frame(MeCaptionWatch *watch, GstBuffer *buffer, gint64 time) {
    gpointer state = NULL;
    GstMeta *meta;
    while ((meta = gst_buffer_iterate_meta_filtered(buffer, &state, GST_VIDEO_CAPTION_META_API_TYPE))) {
        GstVideoCaptionMeta *caption = (GstVideoCaptionMeta *)meta;
        if (caption->data && caption->size > 0) {
            watch->callback(watch->user_data, time, (gint)caption->caption_type, caption->data, caption->size);
        }
    }
}

void me_caption_watch_flushed(MeCaptionWatch *watch) { watch->callback(watch->user_data, -1, 0, NULL, 0); }

void me_caption_watch_stream_started(MeCaptionWatch *watch) { watch->callback(watch->user_data, -1, -1, NULL, 0); }
