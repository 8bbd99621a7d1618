// The engine's X11 window system: its own windows (window.c) and the X error handling that keeps
// Xlib from ending the app (xerrors.c). The only target that links libX11; it installs itself in
// the core (me_window_system_install) from a constructor, so linking it is all it takes.
#pragma once
#include "me_window_system.h"

MeWindow *me_x11_window_open(const char *display_name, int width, int height, const char *title);
unsigned long me_x11_window_xid(MeWindow *window);
void me_x11_window_move_resize(MeWindow *window, int x, int y, int width, int height);
void me_x11_window_geometry(MeWindow *window, int *x, int *y, int *width, int *height);
void me_x11_window_screen_size(MeWindow *window, int *width, int *height);
gboolean me_x11_window_has_window_manager(MeWindow *window);
void me_x11_window_set_fullscreen_hint(MeWindow *window, gboolean fullscreen);
void me_x11_window_close(MeWindow *window);
gboolean me_x11_window_watch_input(MeWindow *window, const char *display_name, me_window_click_callback clicks,
                                   me_window_key_callback keys, gpointer data, GDestroyNotify destroy);
void me_x11_errors_install(void);
MeWindowCheck me_x11_window_check(const char *display_name, unsigned long xid, int *width, int *height,
                                  char **detail);
guint64 me_x11_watch_window(unsigned long xid, me_x_window_error_callback callback, gpointer data,
                            GDestroyNotify destroy);
void me_x11_unwatch_window(guint64 token);
