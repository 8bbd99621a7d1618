// Still images decoded from memory (imagedecode.c), for image overlays.
#pragma once
#include <gst/gst.h>

/// Decodes an image held in memory to one RGBA sample, or NULL with `error` set (g_free it).
GstSample *me_decode_image(
    const guint8 *data, gsize size, guint64 timeout_ns, guint max_side, guint64 max_pixels, gchar **error);
