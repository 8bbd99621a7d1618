// Volume changes without a click: ramps of a volume element's gain over the stream's time
// (volume.c).
#pragma once
#include <gst/gst.h>

/// Moves a volume element's gain to `target` in a linear ramp from stream time `now` over
/// `duration`, without a click; me_volume_settle ends the ramp at `target` (volume.c).
void me_volume_ramp(GstElement *volume, gdouble target, GstClockTime now, GstClockTime duration);
void me_volume_settle(GstElement *volume, gdouble target);
/// Lets a volume element start ramps at its next buffer: me_volume_request_ramp asks for one (the
/// streaming thread starts it where that buffer starts, and ends it at the first buffer past it),
/// me_volume_set_now sets the gain at once (nothing playing), withdrawing any ramp.
void me_volume_watch(GstElement *volume);
void me_volume_request_ramp(GstElement *volume, gdouble target, GstClockTime duration);
void me_volume_set_now(GstElement *volume, gdouble target);
