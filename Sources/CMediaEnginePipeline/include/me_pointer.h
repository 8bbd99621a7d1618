// Pointer clicks and keys from a window sink (pointer.c).
#pragma once
#include <gst/gst.h>

typedef void (*me_pointer_callback)(gdouble x, gdouble y, gpointer data);
typedef void (*me_key_callback)(const gchar *key, gboolean shift, gpointer data);
typedef void (*me_motion_callback)(gpointer data);
/// Calls `callback` for each left-button release a window sink reports upstream through
/// `element`'s src pad, at the point in that element's output frames, `key_callback` for
/// each key press (the X keysym's name, "space", "Left", "q", and whether Shift was held), and
/// `motion_callback` for each pointer motion.
void me_watch_pointer(GstElement *element, me_pointer_callback callback, me_key_callback key_callback,
                      me_motion_callback motion_callback, gpointer data, GDestroyNotify destroy);
