// Workaround "adaptive-start-bitrate" (adaptivestart.c): the variant an adaptive stream starts
// with, for demuxers without a start bitrate of their own.
#pragma once
#include <gst/gst.h>

/// Makes an adaptive demuxer assume `start_kbps` of bandwidth (its `connection-speed`) until its
/// first buffer leaves it, then go back to the speed it had (0: measure the downloads). Does
/// nothing to an element without `connection-speed`.
void me_adaptive_start_at(GstElement *demuxer, guint start_kbps);
