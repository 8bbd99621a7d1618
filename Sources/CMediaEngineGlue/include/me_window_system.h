// The window system the engine's windows go through (windowsystem.c): a table of functions a
// window-system target installs, and the dispatchers the core calls.
#pragma once
#include <glib.h>

// The engine's own X11 code (its windows, and the X error handling that keeps Xlib from ending
// the app) lives in the CMediaEngineX11Window target, which links libX11 and installs itself here from a
// constructor when it is linked (the MediaEngine product). The core alone (MediaEngineCore) has
// no window system: me_window_open returns NULL, me_window_check says
// ME_WINDOW_NO_WINDOW_SYSTEM, and the watches do nothing.
typedef struct MeWindow MeWindow;
typedef void (*me_window_click_callback)(int x, int y, int width, int height, gpointer data);
/// A key pressed in the window: its unshifted keysym's name (as ximagesink names them: "space",
/// "Right", "q", "Shift_L") and whether Shift was held.
typedef void (*me_window_key_callback)(const char *key, gboolean shift, gpointer data);
typedef enum {
    ME_WINDOW_USABLE,
    ME_WINDOW_NO_DISPLAY,
    ME_WINDOW_MISSING,
    ME_WINDOW_REFUSED,
    ME_WINDOW_NO_WINDOW_SYSTEM
} MeWindowCheck;
/// Called with X's error, for people, when a request on a watched window fails; inside Xlib's
/// error handler, on whichever thread made the request: it must call no Xlib, take no lock that
/// thread may hold, and hand the work to another thread.
typedef void (*me_x_window_error_callback)(const char *detail, gpointer data);
/// A window system's functions, each documented at its dispatcher below.
typedef struct {
    MeWindow *(*open)(const char *display_name, int width, int height, const char *title);
    unsigned long (*xid)(MeWindow *window);
    void (*move_resize)(MeWindow *window, int x, int y, int width, int height);
    void (*geometry)(MeWindow *window, int *x, int *y, int *width, int *height);
    void (*screen_size)(MeWindow *window, int *width, int *height);
    gboolean (*has_window_manager)(MeWindow *window);
    void (*set_fullscreen_hint)(MeWindow *window, gboolean fullscreen);
    void (*close)(MeWindow *window);
    gboolean (*watch_input)(MeWindow *window, const char *display_name, me_window_click_callback clicks,
                            me_window_key_callback keys, gpointer data, GDestroyNotify destroy);
    void (*errors_install)(void);
    MeWindowCheck (*check)(const char *display_name, unsigned long xid, int *width, int *height, char **detail);
    guint64 (*watch_window)(unsigned long xid, me_x_window_error_callback callback, gpointer data,
                            GDestroyNotify destroy);
    void (*unwatch_window)(guint64 token);
} MeWindowSystem;
/// Installs the window system (once, before main: from the CMediaEngineX11Window target's constructor).
void me_window_system_install(const MeWindowSystem *system);
/// Whether a window system is linked in.
gboolean me_window_system_available(void);

/// Opens `display_name` (NULL: $DISPLAY) and maps a black window; NULL when there is no display.
MeWindow *me_window_open(const char *display_name, int width, int height, const char *title);
unsigned long me_window_xid(MeWindow *window);
void me_window_move_resize(MeWindow *window, int x, int y, int width, int height);
void me_window_geometry(MeWindow *window, int *x, int *y, int *width, int *height);
void me_window_screen_size(MeWindow *window, int *width, int *height);
gboolean me_window_has_window_manager(MeWindow *window);
void me_window_set_fullscreen_hint(MeWindow *window, gboolean fullscreen);
void me_window_close(MeWindow *window);
/// Calls `clicks` on a thread of its own for each left-button click on the window (at the
/// release), with the point and the window's size, and `keys` for each key pressed in it, until
/// the window is closed. Over a display connection of its own: a video sink's connection that
/// drains its events may drop some (ximagesink 1.22 throws away a key press that arrives while it
/// redraws the window after a resize).
gboolean me_window_watch_input(MeWindow *window, const char *display_name, me_window_click_callback clicks,
                               me_window_key_callback keys, gpointer data, GDestroyNotify destroy);
/// Installs, once, the process's X error handlers that keep X errors of the engine's making from
/// Xlib's default handler (which exits); errors of other connections go to the previous handler.
void me_x_errors_install(void);
/// Whether window `xid` on `display_name` exists and can be drawn in (XGetWindowAttributes on a
/// connection of the engine's), and its size. `detail` gets X's error, if any, for people (g_free it).
MeWindowCheck me_window_check(const char *display_name, unsigned long xid, int *width, int *height, char **detail);
/// Reports the first X error that names window `xid`, on any connection (ximagesink's own
/// included), to `callback`, and keeps that error and later ones from the previous handler.
/// Returns a token for me_x_unwatch_window (0 and nothing watched without a window system);
/// `destroy` frees `data` then.
guint64 me_x_watch_window(unsigned long xid, me_x_window_error_callback callback, gpointer data,
                          GDestroyNotify destroy);
/// Ends a watch: errors naming the window go to the previous handler again.
void me_x_unwatch_window(guint64 token);
