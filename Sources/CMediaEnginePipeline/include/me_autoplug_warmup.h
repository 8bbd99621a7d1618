// playbin's list of elements to autoplug, built ahead of its first autoplugging (autoplugwarmup.c).
#pragma once
#include <gst/gst.h>

/// Has `playbin` (already past READY, so that its uridecodebin exists) build the list of elements
/// it chooses from when autoplugging, which it otherwise builds on the streaming thread at the
/// first pad to decode. Called while the source is still connecting or reading its first bytes,
/// it overlaps that work with the wait. Returns FALSE when playbin has no uridecodebin yet.
gboolean me_warm_up_autoplugging(GstElement *playbin);
