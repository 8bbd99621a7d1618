// An X11 window for the `window` video sink: the engine creates it, hands its id to the video
// sink (GstVideoOverlay), and moves and resizes it (fullscreen). The sink draws into it with its
// own display connection; this one only manages the window.
#include "CMediaEngineX11Window.h"
#include "xerrors.h"
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <errno.h>
#include <poll.h>
#include <unistd.h>

// Clicks and keys on the window, read on a thread of their own over a second display
// connection. ximagesink selects no button events on a window it did not create, so clicks on
// the engine's own window would reach nobody; and it reads keys on its drawing connection, whose
// event queue it drains after redrawing a resized window, throwing away a key press that arrived
// meanwhile (GStreamer 1.22's gst_x_image_sink_handle_xevents). Here every event read is handled.
typedef struct {
    Display *display;
    Window window;
    int wake[2]; // a pipe: writing to it ends the thread
    GThread *thread;
    me_window_click_callback clicks;
    me_window_key_callback keys;
    gpointer data;
    GDestroyNotify destroy;
} InputWatch;

struct MeWindow {
    Display *display;
    Window window;
    InputWatch *input;
};

// A key's name as ximagesink gives it: the keysym of the key's first level (unshifted), so
// that Shift+Right is "Right" with Shift held; "unknown" for a key without one.
static const char *key_name(XKeyEvent *key) {
    KeySym keysym = XLookupKeysym(key, 0);
    const char *name = keysym != NoSymbol ? XKeysymToString(keysym) : NULL;
    return name ? name : "unknown";
}

static gpointer watch_input(gpointer data) {
    InputWatch *watch = data;
    struct pollfd fds[2] = {{ConnectionNumber(watch->display), POLLIN, 0}, {watch->wake[0], POLLIN, 0}};
    for (;;) {
        while (!me_x_display_lost(watch->display) && XPending(watch->display) > 0) {
            XEvent event;
            XNextEvent(watch->display, &event);
            if (event.type == ButtonRelease && event.xbutton.button == Button1) {
                // Zero if the window is gone (the error is recorded on this connection, not fatal).
                XWindowAttributes attributes = {0};
                XGetWindowAttributes(watch->display, watch->window, &attributes);
                watch->clicks(event.xbutton.x, event.xbutton.y, attributes.width, attributes.height, watch->data);
            } else if (event.type == KeyPress && watch->keys) {
                watch->keys(key_name(&event.xkey), (event.xkey.state & ShiftMask) != 0, watch->data);
            }
        }
        if (me_x_display_lost(watch->display)) {
            break; // the X server is gone: nothing more to read
        }
        int ready = poll(fds, 2, -1);
        if ((ready < 0 && errno != EINTR) || (ready > 0 && fds[1].revents != 0)) {
            break;
        }
    }
    return NULL;
}

gboolean me_x11_window_watch_input(MeWindow *window, const char *display_name, me_window_click_callback clicks,
                                   me_window_key_callback keys, gpointer data, GDestroyNotify destroy) {
    if (window->input) {
        return FALSE;
    }
    Display *display = me_x_open_display(display_name);
    if (!display) {
        return FALSE;
    }
    InputWatch *watch = g_new0(InputWatch, 1);
    watch->display = display;
    watch->window = window->window;
    watch->clicks = clicks;
    watch->keys = keys;
    watch->data = data;
    watch->destroy = destroy;
    if (pipe(watch->wake) != 0) {
        me_x_close_display(display);
        g_free(watch);
        return FALSE;
    }
    XSelectInput(display, window->window, ButtonPressMask | ButtonReleaseMask | (keys ? KeyPressMask : 0));
    XSync(display, False);
    watch->thread = g_thread_new("me-window-input", watch_input, watch);
    window->input = watch;
    return TRUE;
}

static void stop_watching_input(InputWatch *watch) {
    if (write(watch->wake[1], "x", 1) < 0) {
        // The pipe cannot be full: nothing else writes to it.
    }
    g_thread_join(watch->thread);
    close(watch->wake[0]);
    close(watch->wake[1]);
    me_x_close_display(watch->display);
    if (watch->destroy) {
        watch->destroy(watch->data);
    }
    g_free(watch);
}

MeWindow *me_x11_window_open(const char *display_name, int width, int height, const char *title) {
    Display *display = me_x_open_display(display_name);
    if (!display) {
        return NULL;
    }
    int screen = DefaultScreen(display);
    Window window = XCreateSimpleWindow(display, RootWindow(display, screen), 0, 0, (unsigned)MAX(width, 1),
                                        (unsigned)MAX(height, 1), 0, BlackPixel(display, screen),
                                        BlackPixel(display, screen));
    XStoreName(display, window, title ? title : "swift-media-engine");
    XSelectInput(display, window, StructureNotifyMask);
    XMapRaised(display, window);
    XSync(display, False);
    MeWindow *result = g_new0(MeWindow, 1);
    result->display = display;
    result->window = window;
    return result;
}

unsigned long me_x11_window_xid(MeWindow *window) { return (unsigned long)window->window; }

void me_x11_window_move_resize(MeWindow *window, int x, int y, int width, int height) {
    XMoveResizeWindow(window->display, window->window, x, y, (unsigned)MAX(width, 1), (unsigned)MAX(height, 1));
    XSync(window->display, False);
}

void me_x11_window_geometry(MeWindow *window, int *x, int *y, int *width, int *height) {
    Window root, child;
    unsigned int w = 0, h = 0, border = 0, depth = 0;
    int gx = 0, gy = 0;
    XGetGeometry(window->display, window->window, &root, &gx, &gy, &w, &h, &border, &depth);
    XTranslateCoordinates(window->display, window->window, root, 0, 0, &gx, &gy, &child);
    *x = gx;
    *y = gy;
    *width = (int)w;
    *height = (int)h;
}

void me_x11_window_screen_size(MeWindow *window, int *width, int *height) {
    int screen = DefaultScreen(window->display);
    *width = DisplayWidth(window->display, screen);
    *height = DisplayHeight(window->display, screen);
}

gboolean me_x11_window_has_window_manager(MeWindow *window) {
    Atom supported = XInternAtom(window->display, "_NET_SUPPORTING_WM_CHECK", True);
    if (supported == None) {
        return FALSE;
    }
    Atom type;
    int format;
    unsigned long count = 0, remaining = 0;
    unsigned char *data = NULL;
    int status = XGetWindowProperty(window->display, DefaultRootWindow(window->display), supported, 0, 1, False,
                                    XA_WINDOW, &type, &format, &count, &remaining, &data);
    gboolean present = status == Success && count > 0;
    if (data) {
        XFree(data);
    }
    return present;
}

void me_x11_window_set_fullscreen_hint(MeWindow *window, gboolean fullscreen) {
    // EWMH: ask the window manager, which then resizes the window itself.
    XEvent event = {0};
    event.xclient.type = ClientMessage;
    event.xclient.window = window->window;
    event.xclient.message_type = XInternAtom(window->display, "_NET_WM_STATE", False);
    event.xclient.format = 32;
    event.xclient.data.l[0] = fullscreen ? 1 : 0;
    event.xclient.data.l[1] = (long)XInternAtom(window->display, "_NET_WM_STATE_FULLSCREEN", False);
    event.xclient.data.l[3] = 1;
    XSendEvent(window->display, DefaultRootWindow(window->display), False,
               SubstructureRedirectMask | SubstructureNotifyMask, &event);
    XSync(window->display, False);
}

void me_x11_window_close(MeWindow *window) {
    if (window->input) {
        stop_watching_input(window->input);
    }
    XDestroyWindow(window->display, window->window);
    me_x_close_display(window->display);
    g_free(window);
}
