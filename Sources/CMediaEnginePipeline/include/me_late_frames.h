// Late frames in a playback group (lateframes.c): a member's video sinks drop a frame that comes
// too late for its time instead of showing it late, so a member behind its group catches up.
#pragma once
#include <gst/gst.h>

/// Sets `max-lateness` to `max_lateness` (nanoseconds; -1: never drop) and turns QoS on for
/// every synchronised base sink inside `bin` (at any depth), so that late frames are dropped and
/// the decoders upstream are told to skip what they would finish late. Returns how many sinks it
/// set.
guint me_drop_late_frames(GstElement *bin, gint64 max_lateness);
