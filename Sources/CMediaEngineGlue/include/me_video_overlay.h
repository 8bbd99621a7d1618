// The window a video sink draws in, through GStreamer's GstVideoOverlay interface (videooverlay.c).
#pragma once
#include <gst/gst.h>

/// gst_video_overlay_set_window_handle and set_render_rectangle on the first element in `bin`
/// (or `bin` itself) that implements GstVideoOverlay. Returns whether one did.
gboolean me_video_overlay_attach(GstElement *bin, guintptr handle, int x, int y, int width, int height);
/// Whether `element` (or an element in it, if a bin) implements GstVideoOverlay: a window sink.
gboolean me_has_video_overlay(GstElement *element);
/// gst_video_overlay_expose on that element.
void me_video_overlay_expose(GstElement *bin);
