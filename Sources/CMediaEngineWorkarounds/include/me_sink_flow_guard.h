// Workaround "sink-flow-guard" (sinkflowguard.c): a sink's FLUSHING outside a flush drops that
// buffer instead of stopping the stream.
#pragma once
#include <gst/gst.h>

/// Wraps the sink pad's chain functions of every GstBaseSink in `output` (the element itself, or
/// any depth of a bin) so that a GST_FLOW_FLUSHING returned while that pad is not flushing
/// (srtsink's render racing its ::unlock on a pause) drops that buffer instead of stopping the
/// stream for good. Call before the output receives data.
void me_guard_sink_flow(GstElement *output);
