// Video frames too large to allocate, refused before anything allocates them (framelimit.c).
#pragma once
#include <gst/gst.h>

/// Refuses raw video caps over `max_side` a side or `max_pixels` in all (ACCEPT_CAPS answered
/// "no" on `pad`), posting one error on `poster` (debug detail "me-frame-too-large").
void me_limit_frame_size(GstPad *pad, GstElement *poster, guint max_side, guint64 max_pixels);
