// Workaround "buffering-thresholds": where network buffering starts and ends.
//
// The gap: playbin exposes the maximum a stream buffers (buffer-duration) but not where buffering
// starts and ends: those are properties of the queue2 (progressive downloads) or multiqueue
// (adaptive streams) that uridecodebin and decodebin make, whose defaults buffer until 99 % full
// (high-watermark) and again from 1 % (low-watermark). The player's thresholds (BufferingPolicy's
// start and resume levels) replace theirs when playbin adds them (buffering.c in
// CMediaEnginePipeline finds them). decodebin sets its multiqueue's thresholds again whenever it
// resets buffering, from its own low-percent and high-percent: those are set too.
//
// Versions: every release of playbin (playbin2), seen on 1.22.0; unchanged as of 1.29.2 (main,
// 2026-08): playbin and uridecodebin have no such properties (urisourcebin, which playbin3 uses,
// has low-watermark and high-watermark). Not a bug upstream: a missing property.
//
// How it was found: written with the buffering policy (commit 89d3fba, 2026-11-30), whose start
// and resume levels had no other way into the pipeline.
//
// Off: the elements keep GStreamer's defaults; a network movie buffers to GStreamer's levels, not
// the policy's (BufferingTests' stall test fails so: no stall within 20 s).
// WorkaroundReproductionTests' buffering-thresholds test (engine-workaround-check, forced off and
// on), a 4-second movie whose download stops at 40 %: off, still interrupted after 3 s (99 % of
// 10 s never comes); on, playing after 0.2 s (the policy's 1 s buffered).
#include "me_buffering_thresholds.h"
#include "me_element_info.h"

void me_buffering_thresholds_apply(GstElement *element, gdouble low, gdouble high) {
    const gchar *factory = me_element_factory_name(element);
    if (factory && g_str_equal(factory, "decodebin")) {
        gint low_percent = CLAMP((gint)(low * 100 + 0.5), 1, 100);
        gint high_percent = CLAMP((gint)(high * 100 + 0.5), low_percent, 100);
        g_object_set(element, "low-percent", low_percent, "high-percent", high_percent, NULL);
    } else {
        g_object_set(element, "low-watermark", low, "high-watermark", high, NULL);
    }
}
