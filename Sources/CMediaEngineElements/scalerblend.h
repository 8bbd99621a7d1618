// The scaler's blending of overlay rectangles onto 8-bit 4:2:0 frames (scalerblend.c): private to
// this target, used by scaler.c only.
#pragma once
#include <gst/gst.h>
#include <gst/video/video.h>

/// One overlay rectangle for me_blend_420: pixels (`width`x`height`, rows of `stride` bytes,
/// straight alpha; AYUV, or with `argb` GStreamer's native-endian ARGB overlay format) to place
/// at (`x`, `y`) with the opacity `global_alpha`. The planes made from them are kept with
/// `owner` (the rectangle: a rectangle is blended by one scaler at a time, where its pixels may
/// be shared by several players' rectangles).
typedef struct {
    GstBuffer *pixels;
    GstMiniObject *owner;
    gboolean argb;
    gint stride, width, height, x, y;
    gfloat global_alpha;
} MeBlendSource;
/// Blends `count` rectangles, in order, onto an 8-bit 4:2:0 frame (scalerblend.c). With a `source`
/// frame (same format and size), `destination` gets a copy of it with the rectangles blended;
/// without, `destination` is blended in place. False, doing nothing, for other formats.
gboolean me_blend_420(GstVideoFrame *destination, const GstVideoFrame *source, const MeBlendSource *sources,
                      guint count);
