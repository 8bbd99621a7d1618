// Installs the X11 window system in the core when this target is linked: a constructor, since a
// Swift app has no static initializers to do it from, and it runs before main, before any thread.
#include "CMediaEngineX11Window.h"

static const MeWindowSystem x11_window_system = {
    .open = me_x11_window_open,
    .xid = me_x11_window_xid,
    .move_resize = me_x11_window_move_resize,
    .geometry = me_x11_window_geometry,
    .screen_size = me_x11_window_screen_size,
    .has_window_manager = me_x11_window_has_window_manager,
    .set_fullscreen_hint = me_x11_window_set_fullscreen_hint,
    .close = me_x11_window_close,
    .watch_input = me_x11_window_watch_input,
    .errors_install = me_x11_errors_install,
    .check = me_x11_window_check,
    .watch_window = me_x11_watch_window,
    .unwatch_window = me_x11_unwatch_window,
};

__attribute__((constructor)) static void install_x11_window_system(void) {
    me_window_system_install(&x11_window_system);
}
