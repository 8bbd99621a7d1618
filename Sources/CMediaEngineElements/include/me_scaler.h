// mescaler (scaler.c): the scaling mode's fit and the one compositing step for overlays. Its
// properties are set by name (gst-inspect-1.0 mescaler lists them); the compositor callback and
// the geometry it used are C-only.
#pragma once
#include <gst/gst.h>
#include <gst/video/video.h>

/// Where the scaler put the movie's picture in its output, in pixels, for the frame at hand.
typedef struct {
    gint canvas_width, canvas_height;   // the output frame
    gint input_width, input_height;     // the picture as it arrives (turned by the orientation)
    gint source_x, source_y, source_width, source_height;     // the part of it that is shown
    gint picture_x, picture_y, picture_width, picture_height; // where that part is in the output
    GstClockTime stream_time;           // the frame's position in the movie, or NONE
} MeScalerGeometry;
/// Returns the overlays for one frame (full reference, or NULL for none). Runs on the
/// streaming thread.
typedef GstVideoOverlayComposition *(*me_compose_callback)(const MeScalerGeometry *geometry, gpointer user_data);
/// Sets the scaler's compose callback, once, before it starts; `destroy` runs when it is freed.
void me_scaler_set_compositor(GstElement *scaler, me_compose_callback compose, gpointer user_data,
                              GDestroyNotify destroy);
/// The geometry of the latest frame; false before the first.
gboolean me_scaler_geometry(GstElement *scaler, MeScalerGeometry *geometry);
