// Pictures encoded as PNG or JPEG with GStreamer's own encoders (imageencode.c), for the images
// sink, thumbnails and screenshots.
#pragma once
#include <gst/gst.h>

/// Encodes `width`x`height` RGBA pixels (rows of `stride` bytes) as PNG, or as JPEG at
/// `quality` (1-100), with GStreamer's pngenc/jpegenc. NULL with `error` set (g_free it).
GBytes *me_encode_rgba(const guint8 *rgba, gint width, gint height, gint stride, gboolean jpeg, gint quality,
                       gchar **error);
/// Frees the encoders me_encode_rgba keeps between calls (before gst_deinit, for leak checks).
void me_release_image_encoders(void);
