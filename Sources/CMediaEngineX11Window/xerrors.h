// The engine's own X connections (xerrors.c), for window.c: what Swift does not see.
#pragma once
#include <X11/Xlib.h>
#include <glib.h>

/// XOpenDisplay, the connection registered as the engine's: X errors on it are recorded for
/// me_x_take_error instead of reaching the app's handler or Xlib's default (which exits), and a
/// lost connection leaves it unusable instead of exiting the process.
Display *me_x_open_display(const char *display_name);
/// Forgets the connection and closes it (XCloseDisplay).
void me_x_close_display(Display *display);
/// The first X error recorded on `display` since the last call, cleared (FALSE: none). Call
/// after XSync, so every error of the requests made so far has arrived.
gboolean me_x_take_error(Display *display, XErrorEvent *error);
/// Whether the connection to the X server was lost.
gboolean me_x_display_lost(Display *display);
/// "BadWindow on request 14.0 (X_GetGeometry) for resource 0x400003": for people. g_free it.
char *me_x_describe_error(const XErrorEvent *error);
