// Workaround "upstream-loop-seek" (upstreamseek.c): a non-flushing seek pushed upstream from an
// output's input pad, holding no element's state lock.
#pragma once
#include <gst/gst.h>

/// Pushes `event` (a seek; taken) upstream from the "sink" pad of `video_output`, or of
/// `audio_sink` when the video's is not linked (either may be NULL), holding no element's state
/// lock; FALSE when neither pad is linked or nothing upstream took it.
gboolean me_send_seek_upstream(GstElement *video_output, GstElement *audio_sink, GstEvent *event);
