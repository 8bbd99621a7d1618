// Closed captions out of the video output bin's frames (captions.c).
#pragma once
#include <gst/gst.h>

/// Called on the streaming thread with one frame's caption data: `time` is the frame's stream
/// time (-1 when unknown), `type` its GstVideoCaptionType (1 to 4); or, with `type` 0 and no
/// data, for a flush; with `type` -1 and no data, for a new stream.
typedef void (*MeCaptionCallback)(gpointer user_data, gint64 time, gint type, const guint8 *data, gsize size);
/// Hands the caption metas of the frames entering a video output bin (me_video_output_bin_new,
/// its input watched by me_video_output_bin_watch_input) to `callback`, with each frame's stream
/// time; `destroy` frees `user_data` with the bin. Call before the pipeline starts.
void me_video_output_bin_watch_captions(GstElement *bin, MeCaptionCallback callback, gpointer user_data,
                                        GDestroyNotify destroy);
