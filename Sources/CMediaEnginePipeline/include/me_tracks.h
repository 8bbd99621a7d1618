// playbin's audio and subtitle tracks (tracks.c).
#pragma once
#include <gst/gst.h>

/// The tags of playbin's audio (or, with `text`, subtitle) stream `index`, or NULL (tracks.c).
GstTagList *me_playbin_stream_tags(GstElement *playbin, gboolean text, gint index);
/// Keeps playsink's audio queue to 200 ms, so that a new audio track is heard that soon (tracks.c).
void me_shorten_audio_queue(GstElement *playbin);
