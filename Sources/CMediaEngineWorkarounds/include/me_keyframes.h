// Workaround "keyframe-flags" (keyframes.c): decoded pictures that were not keyframes going in are
// flagged DELTA_UNIT, which decoders never set.
#pragma once
#include <gst/gst.h>

/// Flags a video decoder's output pictures that were not keyframes going in as DELTA_UNIT.
void me_mark_keyframes(GstElement *decoder);
/// Does so for every video decoder added anywhere in `bin` from now on (deep-element-added).
void me_mark_keyframes_in(GstElement *bin);
