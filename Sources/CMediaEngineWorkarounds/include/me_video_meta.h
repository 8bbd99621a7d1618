// Workaround "appsink-video-meta" (videometa.c): an appsink that tells upstream it reads
// GstVideoMeta, so decoders hand their pictures over instead of copying them.
#pragma once
#include <gst/gst.h>

/// Makes `sink` (an appsink) answer the allocation query with GstVideoMeta, so the engine's
/// decoder can hand over the pictures it decoded, with their own strides and padding, instead of
/// copying each one.
void me_accept_video_meta(GstElement *sink);
