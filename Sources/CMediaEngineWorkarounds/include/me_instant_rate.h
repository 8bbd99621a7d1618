// Workaround "instant-rate-relay" (instantrate.c): instant rate changes taken out at the sinks and
// applied on the player's thread, never on a streaming thread during a state change.
#pragma once
#include <gst/gst.h>

/// Called with an instant rate change's multiplier and seqnum, on whatever thread delivered it.
typedef void (*me_instant_rate_callback)(gpointer user_data, gdouble multiplier, guint32 seqnum);
/// Takes every GST_EVENT_INSTANT_RATE_CHANGE out on `pad` (a sink's, or a sink bin's, sink pad)
/// and hands it to `callback` instead, so the sink never posts INSTANT_RATE_REQUEST from a
/// streaming thread. `destroy` frees `user_data` with the probe.
gulong me_relay_instant_rate(GstPad *pad, me_instant_rate_callback callback, gpointer user_data,
                             GDestroyNotify destroy);
/// Whether every GstBaseSink inside `bin`, at any depth, has a TIME segment.
gboolean me_sinks_have_time_segments(GstElement *bin);
/// Posts INSTANT_RATE_REQUEST (`multiplier`, `seqnum`) from `sink`, as a sink does; the pipeline
/// handles it on the calling thread (gst_pipeline_handle_instant_rate).
gboolean me_post_instant_rate_request(GstElement *sink, gdouble multiplier, guint32 seqnum);
