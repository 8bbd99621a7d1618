// Workaround "fragment-gate" (fragmentgate.c): an adaptive demuxer of one stream pushes its first
// fragment and holds the next back until the movie has prerolled.
#pragma once
#include <gst/gst.h>

/// Lets an adaptive demuxer of one stream push its first fragment and blocks the fragments after
/// it (a switched variant's pads included) until me_adaptive_open_fragment_gates, or a flush,
/// opens the gate: the movie prerolls without the demuxer reading ahead, switching variant and
/// decodebin building a second chain meanwhile. Install before the demuxer adds its pads; each
/// source element the demuxer makes for its fragments goes to
/// me_adaptive_gate_watch_fragment_source.
void me_adaptive_gate_after_first_fragment(GstElement *demuxer);
/// Watches the end of the fragments `source` reads for its demuxer's gate; does nothing when
/// `source` is not in a gated demuxer's fragment bin.
void me_adaptive_gate_watch_fragment_source(GstElement *source);
/// Opens the gate of every adaptive demuxer in `bin` (recursively). Safe to call at any time.
void me_adaptive_open_fragment_gates(GstElement *bin);
