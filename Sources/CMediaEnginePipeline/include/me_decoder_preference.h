// The engine's decoders preferred in its own pipelines (decoderpreference.c), at the ranks kept in
// me_decoders.h.
#pragma once
#include <gst/gst.h>

/// Makes the decodebins inside `pipeline` (at any depth, added later) try the engine's decoders
/// at their preferred rank, though the registry ranks them NONE.
void me_prefer_engine_decoders(GstElement *pipeline);
/// The factory name of the first video decoder inside `bin` (g_free it), or NULL.
gchar *me_video_decoder_name(GstElement *bin);
