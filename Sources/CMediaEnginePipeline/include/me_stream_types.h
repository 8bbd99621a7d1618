// The stream-type watch (streamtypes.c).
#pragma once
#include <gst/gst.h>

/// Watches every typefind element that `bin` (or any bin below it) creates and posts
/// ME_MESSAGE_STREAM_TYPE (fields ME_FIELD_CAPS, ME_FIELD_PROBABILITY) when it finds the stream's
/// type, and ME_MESSAGE_VIDEO_DECODER (field ME_FIELD_FACTORY) on each video decoder added.
void me_watch_stream_types(GstElement *bin);
