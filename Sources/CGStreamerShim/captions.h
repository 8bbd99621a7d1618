// Closed captions out of the video (captions.c), for the video output bin's input probe
// (outputbin.c), which already knows each frame's stream time: what Swift does not see.
#pragma once
#include "CGStreamerShim.h"

typedef struct MeCaptionWatch MeCaptionWatch;

/// A watch that calls `callback` (see MeCaptionCallback); `destroy` frees `user_data` with it.
MeCaptionWatch *me_caption_watch_new(MeCaptionCallback callback, gpointer user_data, GDestroyNotify destroy);
void me_caption_watch_free(MeCaptionWatch *watch);
/// Hands each caption meta of `buffer` to the callback, with the frame's stream time (-1: unknown).
void me_caption_watch_frame(MeCaptionWatch *watch, GstBuffer *buffer, gint64 time);
/// A flush (FLUSH_STOP) or a new stream (STREAM_START) reached the input.
void me_caption_watch_flushed(MeCaptionWatch *watch);
void me_caption_watch_stream_started(MeCaptionWatch *watch);
