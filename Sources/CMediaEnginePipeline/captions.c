// Closed captions out of the video: the video output bin's input observer (outputbin.c in
// CMediaEngineElements, which knows each frame's stream time) hands the caption data each frame
// carries (GstVideoCaptionMeta, attached by h264parse, h265parse, mpegvideoparse and the decoders
// from ATSC A/53 user data) to a callback, with the frame's stream time, and tells it of each flush
// and each new stream (a queue's next movie, the content after a pre-roll ad). Frames without
// captions cost one meta lookup.
#include "me_captions.h"
#include "me_watch.h"
#include "me_output_bin.h"
#include <gst/video/video.h>

typedef struct MeCaptionWatch MeCaptionWatch;

struct MeCaptionWatch {
    MeWatchOwner owner;
    MeCaptionCallback callback;
};

static void caption_watch_frame(MeCaptionWatch *watch, GstBuffer *buffer, gint64 time) {
    gpointer state = NULL;
    GstMeta *meta;
    while ((meta = gst_buffer_iterate_meta_filtered(buffer, &state, GST_VIDEO_CAPTION_META_API_TYPE))) {
        GstVideoCaptionMeta *caption = (GstVideoCaptionMeta *)meta;
        if (caption->data && caption->size > 0) {
            watch->callback(watch->owner.data, time, (gint)caption->caption_type, caption->data, caption->size);
        }
    }
}

static void caption_watch_flushed(MeCaptionWatch *watch) { watch->callback(watch->owner.data, -1, 0, NULL, 0); }

static void caption_watch_stream_started(MeCaptionWatch *watch) { watch->callback(watch->owner.data, -1, -1, NULL, 0); }

static void on_input(gpointer data, MeOutputInputEvent event, GstBuffer *buffer, gint64 time) {
    switch (event) {
    case ME_OUTPUT_INPUT_FRAME: caption_watch_frame(data, buffer, time); break;
    case ME_OUTPUT_INPUT_FLUSHED: caption_watch_flushed(data); break;
    case ME_OUTPUT_INPUT_STREAM_STARTED: caption_watch_stream_started(data); break;
    }
}

void me_video_output_bin_watch_captions(GstElement *bin, MeCaptionCallback callback, gpointer user_data,
                                        GDestroyNotify destroy) {
    MeCaptionWatch *watch = ME_WATCH_NEW(MeCaptionWatch, user_data, destroy);
    watch->callback = callback;
    me_video_output_bin_set_input_observer(bin, on_input, watch, me_watch_free);
}
