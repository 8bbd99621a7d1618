// Timed metadata (timedmetadata.c): the ID3 tags a movie carries, posted with their presentation
// times as ME_MESSAGE_TIMED_METADATA.
#pragma once
#include <gst/gst.h>

/// Called for an element added anywhere in a player's pipeline: on a tsdemux, posts
/// ME_MESSAGE_TIMED_METADATA for each ID3 tag of its metadata stream, at the tag's presentation
/// time, as the demuxer reads it (making the stream visible first where tsdemux does not expose
/// it: the tsdemux-id3 workaround); on an id3demux, and on an aacparse reading packed audio (the
/// aac-id3 workaround), posts the tag at the start of the audio.
void me_watch_timed_metadata(GstElement *element);
/// Calls me_watch_timed_metadata for every element added anywhere in `bin` from now on.
void me_watch_timed_metadata_in(GstElement *bin);
/// gst_tag_to_id3_tag: the ID3v2 frame ID of a GStreamer tag ("title" -> "TIT2"), or NULL.
const gchar *me_tag_to_id3_frame(const gchar *tag);
