// Workaround "buffering-thresholds" (bufferingthresholds.c): the player's buffering thresholds on
// the buffering elements playbin makes, which it does not expose.
#pragma once
#include <gst/gst.h>

/// Gives a queue2 or multiqueue (low-watermark, high-watermark) or a decodebin (low-percent,
/// high-percent) the thresholds `low` and `high`, as fractions of its maximum.
void me_buffering_thresholds_apply(GstElement *element, gdouble low, gdouble high);
