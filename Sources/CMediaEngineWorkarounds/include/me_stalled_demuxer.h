// Workaround "stalled-demuxer" (stalleddemuxer.c): a demuxer that gave up while decodebin set it
// up, whose error decodebin dropped.
#pragma once
#include <gst/gst.h>

/// Looks for a demuxer inside `bin` that has given up: it has no source pads and the task that
/// drives it is no longer running. Returns the demuxer's name (g_free it) or NULL.
gchar *me_find_stalled_demuxer(GstElement *bin);
