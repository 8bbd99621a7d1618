// Workaround "loop-running-time" (loopcontinuity.c): running time continuous across the gapless
// loops of repeat mode's non-flushing segment seeks.
#pragma once
#include <gst/gst.h>

/// Rewrites the base of each continuation segment passing `pad` to where the previous segment
/// ends, so that each pass of a loop starts where the last one ended instead of a frame early.
/// Install it on every sink's input.
gulong me_keep_loops_continuous(GstPad *pad);
