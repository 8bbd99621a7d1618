// The window a video sink draws in, through GStreamer's GstVideoOverlay interface (ximagesink,
// waylandsink, ...): no window system's code of the engine's is needed for it.
#include "me_video_overlay.h"
#include <gst/video/videooverlay.h>

static GstElement *find_video_overlay(GstElement *element) {
    if (GST_IS_VIDEO_OVERLAY(element)) {
        return gst_object_ref(element);
    }
    if (GST_IS_BIN(element)) {
        return gst_bin_get_by_interface(GST_BIN(element), GST_TYPE_VIDEO_OVERLAY);
    }
    return NULL;
}

gboolean me_video_overlay_attach(GstElement *bin, guintptr handle, int x, int y, int width, int height) {
    GstElement *overlay = find_video_overlay(bin);
    if (!overlay) {
        return FALSE;
    }
    gst_video_overlay_set_window_handle(GST_VIDEO_OVERLAY(overlay), handle);
    if (width > 0 && height > 0) {
        gst_video_overlay_set_render_rectangle(GST_VIDEO_OVERLAY(overlay), x, y, width, height);
    }
    gst_object_unref(overlay);
    return TRUE;
}

gboolean me_has_video_overlay(GstElement *element) {
    GstElement *overlay = find_video_overlay(element);
    if (overlay) {
        gst_object_unref(overlay);
        return TRUE;
    }
    return FALSE;
}

void me_video_overlay_expose(GstElement *bin) {
    GstElement *overlay = find_video_overlay(bin);
    if (overlay) {
        gst_video_overlay_expose(GST_VIDEO_OVERLAY(overlay));
        gst_object_unref(overlay);
    }
}
