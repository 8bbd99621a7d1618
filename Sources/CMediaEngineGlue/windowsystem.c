// The window system the engine's windows go through: the CMediaEngineX11Window target's, installed from its
// constructor when it is linked (the MediaEngine product), or none (MediaEngineCore alone). Each
// function below passes its call on, or does what "no window system" means.
#include "me_window_system.h"

// Written once, before main (a constructor), read from any thread after.
static const MeWindowSystem *installed;

void me_window_system_install(const MeWindowSystem *system) { g_atomic_pointer_set(&installed, system); }

static const MeWindowSystem *window_system(void) { return g_atomic_pointer_get(&installed); }

gboolean me_window_system_available(void) { return window_system() != NULL; }

MeWindow *me_window_open(const char *display_name, int width, int height, const char *title) {
    const MeWindowSystem *system = window_system();
    return system ? system->open(display_name, width, height, title) : NULL;
}

// A window exists only when a window system opened it: the functions on one need not check.
unsigned long me_window_xid(MeWindow *window) { return window_system()->xid(window); }

void me_window_move_resize(MeWindow *window, int x, int y, int width, int height) {
    window_system()->move_resize(window, x, y, width, height);
}

void me_window_geometry(MeWindow *window, int *x, int *y, int *width, int *height) {
    window_system()->geometry(window, x, y, width, height);
}

void me_window_screen_size(MeWindow *window, int *width, int *height) {
    window_system()->screen_size(window, width, height);
}

gboolean me_window_has_window_manager(MeWindow *window) { return window_system()->has_window_manager(window); }

void me_window_set_fullscreen_hint(MeWindow *window, gboolean fullscreen) {
    window_system()->set_fullscreen_hint(window, fullscreen);
}

void me_window_close(MeWindow *window) { window_system()->close(window); }

gboolean me_window_watch_input(MeWindow *window, const char *display_name, me_window_click_callback clicks,
                               me_window_key_callback keys, gpointer data, GDestroyNotify destroy) {
    return window_system()->watch_input(window, display_name, clicks, keys, data, destroy);
}

void me_x_errors_install(void) {
    const MeWindowSystem *system = window_system();
    if (system) system->errors_install();
}

MeWindowCheck me_window_check(const char *display_name, unsigned long xid, int *width, int *height, char **detail) {
    const MeWindowSystem *system = window_system();
    if (!system) {
        *detail = NULL;
        return ME_WINDOW_NO_WINDOW_SYSTEM;
    }
    return system->check(display_name, xid, width, height, detail);
}

guint64 me_x_watch_window(unsigned long xid, me_x_window_error_callback callback, gpointer data,
                          GDestroyNotify destroy) {
    const MeWindowSystem *system = window_system();
    if (!system) {
        if (destroy) destroy(data);
        return 0;
    }
    return system->watch_window(xid, callback, data, destroy);
}

void me_x_unwatch_window(guint64 token) {
    const MeWindowSystem *system = window_system();
    if (system && token != 0) system->unwatch_window(token);
}
