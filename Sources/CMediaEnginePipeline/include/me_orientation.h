// The orientation stage: a videoflip linked into the video path only while the picture is turned
// (orientation.c).
#pragma once
#include <gst/gst.h>

typedef struct MeOrientation MeOrientation;
/// Manages `flip` (in the same bin, unlinked) between `upstream` and `downstream` (linked to
/// each other): it is linked in only while the picture is turned. Starts automatic.
MeOrientation *me_orientation_new(GstElement *upstream, GstElement *flip, GstElement *downstream);
/// Follows the movie's image-orientation tag.
void me_orientation_set_automatic(MeOrientation *orientation);
/// Turns by a fixed GstVideoOrientationMethod, ignoring the tag.
void me_orientation_set_fixed(MeOrientation *orientation, gint method);
void me_orientation_unref(MeOrientation *orientation);
