// X errors must never end the app that embeds the engine. Xlib's error handler is one per
// process (XSetErrorHandler), and its default prints the error and calls exit(): an app's window
// id that names no window, or an app's window destroyed while ximagesink draws into it, would
// take the whole app down. This file installs one handler, once, before the engine's first X
// request, which sorts each error:
// - on a connection the engine opened (its own window, the click watcher, the probe that checks
//   an app's window): recorded for the code that made the request (me_x_take_error);
// - naming a window handed to a video sink (me_x11_watch_window): reported, once, to whoever
//   watches it (the player, which ends playback with a typed error). This catches ximagesink's
//   errors, made on a connection of its own that the engine cannot reach, by the window's id;
// - anything else: passed on to the handler that was there before (the app's own, or Xlib's
//   default), so an app's handler keeps working for its own connections.
// A lost connection (the X server gone) on the engine's own connections does not exit either
// (XSetIOErrorExitHandler, libX11 >= 1.7): the connection becomes unusable and
// me_x_display_lost says so. ximagesink's connection still exits on that, as the app's would.
#include "CMediaEngineX11Window.h"
#include "xerrors.h"

typedef struct {
    Display *display;
    XErrorEvent error; // the first since me_x_take_error; type 0 when none
    gboolean lost;
} OwnDisplay;

typedef struct {
    guint64 token;
    Window window;
    me_x_window_error_callback callback;
    gpointer data;
    GDestroyNotify destroy;
    gboolean reported;
} WindowWatch;

// Guards the two lists. Never held while calling Xlib (the handlers run inside Xlib with the
// display's lock held), and nothing but a watch's callback runs under it.
static GMutex lock;
static GPtrArray *own_displays;
static GPtrArray *watches;
static guint64 next_token = 1;
static XErrorHandler previous_handler;
static XIOErrorHandler previous_io_handler;

static OwnDisplay *find_own(Display *display) {
    for (guint i = 0; own_displays && i < own_displays->len; i++) {
        OwnDisplay *own = g_ptr_array_index(own_displays, i);
        if (own->display == display) {
            return own;
        }
    }
    return NULL;
}

static const char *error_name(int code) {
    static const char *names[] = {"Success",     "BadRequest", "BadValue",  "BadWindow",   "BadPixmap",
                                  "BadAtom",     "BadCursor",  "BadFont",   "BadMatch",    "BadDrawable",
                                  "BadAccess",   "BadAlloc",   "BadColor",  "BadGC",       "BadIDChoice",
                                  "BadName",     "BadLength",  "BadImplementation"};
    return code >= 0 && code < (int)G_N_ELEMENTS(names) ? names[code] : "an extension's error";
}

static const char *request_name(int major) {
    switch (major) {
    case 2: return "X_ChangeWindowAttributes";
    case 3: return "X_GetWindowAttributes";
    case 12: return "X_ConfigureWindow";
    case 14: return "X_GetGeometry";
    case 25: return "X_SendEvent";
    case 40: return "X_TranslateCoords";
    case 55: return "X_CreateGC";
    case 61: return "X_ClearArea";
    case 70: return "X_PolyFillRectangle";
    case 72: return "X_PutImage";
    default: return major >= 128 ? "an extension's request" : "a core request";
    }
}

char *me_x_describe_error(const XErrorEvent *error) {
    return g_strdup_printf("%s (%d) on request %d.%d (%s) for resource 0x%lx", error_name(error->error_code),
                           error->error_code, error->request_code, error->minor_code,
                           request_name(error->request_code), error->resourceid);
}

// Calls the callbacks of the watches of `window` that have not reported yet. Under `lock`.
static gboolean report_to_watches(Window window, const char *detail) {
    gboolean watched = FALSE;
    for (guint i = 0; watches && i < watches->len; i++) {
        WindowWatch *watch = g_ptr_array_index(watches, i);
        if (watch->window != window) {
            continue;
        }
        watched = TRUE;
        if (!watch->reported) {
            watch->reported = TRUE;
            watch->callback(detail, watch->data);
        }
    }
    return watched;
}

static int handle_error(Display *display, XErrorEvent *error) {
    g_mutex_lock(&lock);
    OwnDisplay *own = find_own(display);
    if (own && own->error.type == 0) {
        own->error = *error;
        own->error.type = 1;
    }
    char *detail = me_x_describe_error(error);
    gboolean watched = report_to_watches(error->resourceid, detail);
    g_free(detail);
    XErrorHandler previous = previous_handler;
    g_mutex_unlock(&lock);
    if (own || watched || !previous) {
        return 0;
    }
    return previous(display, error);
}

static int handle_io_error(Display *display) {
    g_mutex_lock(&lock);
    OwnDisplay *own = find_own(display);
    if (own) {
        own->lost = TRUE;
    }
    XIOErrorHandler previous = previous_io_handler;
    g_mutex_unlock(&lock);
    // For the engine's own connections the exit handler (below) comes next, and returns.
    if (own || !previous) {
        return 0;
    }
    return previous(display);
}

static void own_connection_lost(Display *display, void *data) {
    (void)data;
    g_mutex_lock(&lock);
    OwnDisplay *own = find_own(display);
    if (own) {
        own->lost = TRUE;
    }
    g_mutex_unlock(&lock);
    // Returning leaves the connection unusable: its calls fail from now on, nothing exits.
}

void me_x11_errors_install(void) {
    static gsize installed = 0;
    if (g_once_init_enter(&installed)) {
        // Video sinks use Xlib from their own threads; Xlib must know before any connection
        // (libX11 1.8 does this by itself; older ones do not).
        XInitThreads();
        g_mutex_lock(&lock);
        own_displays = g_ptr_array_new_with_free_func(g_free);
        watches = g_ptr_array_new();
        g_mutex_unlock(&lock);
        // Set outside the lock: XSetErrorHandler takes Xlib's global lock, which a handler
        // running now on another thread may hold while it waits for ours.
        XErrorHandler previous = XSetErrorHandler(handle_error);
        XIOErrorHandler previous_io = XSetIOErrorHandler(handle_io_error);
        g_mutex_lock(&lock);
        previous_handler = previous;
        previous_io_handler = previous_io;
        g_mutex_unlock(&lock);
        g_once_init_leave(&installed, 1);
    }
}

Display *me_x_open_display(const char *display_name) {
    me_x11_errors_install();
    Display *display = XOpenDisplay(display_name);
    if (!display) {
        return NULL;
    }
    OwnDisplay *own = g_new0(OwnDisplay, 1);
    own->display = display;
    g_mutex_lock(&lock);
    g_ptr_array_add(own_displays, own);
    g_mutex_unlock(&lock);
    XSetIOErrorExitHandler(display, own_connection_lost, NULL);
    return display;
}

void me_x_close_display(Display *display) {
    g_mutex_lock(&lock);
    OwnDisplay *own = find_own(display);
    g_mutex_unlock(&lock);
    // Closing flushes what is queued; errors that causes still find the display ours. Only then
    // is it forgotten (the entry, not the address, which another XOpenDisplay may reuse at once).
    XCloseDisplay(display);
    if (own) {
        g_mutex_lock(&lock);
        g_ptr_array_remove_fast(own_displays, own);
        g_mutex_unlock(&lock);
    }
}

gboolean me_x_take_error(Display *display, XErrorEvent *error) {
    g_mutex_lock(&lock);
    OwnDisplay *own = find_own(display);
    gboolean found = own && own->error.type != 0;
    if (found) {
        *error = own->error;
        own->error.type = 0;
    }
    g_mutex_unlock(&lock);
    return found;
}

gboolean me_x_display_lost(Display *display) {
    g_mutex_lock(&lock);
    OwnDisplay *own = find_own(display);
    gboolean lost = own && own->lost;
    g_mutex_unlock(&lock);
    return lost;
}

guint64 me_x11_watch_window(unsigned long xid, me_x_window_error_callback callback, gpointer data,
                          GDestroyNotify destroy) {
    me_x11_errors_install();
    WindowWatch *watch = g_new0(WindowWatch, 1);
    watch->window = (Window)xid;
    watch->callback = callback;
    watch->data = data;
    watch->destroy = destroy;
    g_mutex_lock(&lock);
    watch->token = next_token++;
    g_ptr_array_add(watches, watch);
    g_mutex_unlock(&lock);
    return watch->token;
}

void me_x11_unwatch_window(guint64 token) {
    WindowWatch *found = NULL;
    g_mutex_lock(&lock);
    for (guint i = 0; watches && i < watches->len; i++) {
        WindowWatch *watch = g_ptr_array_index(watches, i);
        if (watch->token == token) {
            found = watch;
            g_ptr_array_remove_index_fast(watches, i);
            break;
        }
    }
    g_mutex_unlock(&lock);
    if (found) {
        if (found->destroy) {
            found->destroy(found->data);
        }
        g_free(found);
    }
}

MeWindowCheck me_x11_window_check(const char *display_name, unsigned long xid, int *width, int *height,
                              char **detail) {
    *detail = NULL;
    Display *display = me_x_open_display(display_name);
    if (!display) {
        return ME_WINDOW_NO_DISPLAY;
    }
    XWindowAttributes attributes = {0};
    Status ok = XGetWindowAttributes(display, (Window)xid, &attributes);
    XSync(display, False);
    XErrorEvent error;
    MeWindowCheck result = ME_WINDOW_USABLE;
    if (me_x_take_error(display, &error)) {
        *detail = me_x_describe_error(&error);
        result = error.error_code == BadWindow || error.error_code == BadDrawable ? ME_WINDOW_MISSING
                                                                                   : ME_WINDOW_REFUSED;
    } else if (!ok) {
        result = ME_WINDOW_MISSING;
    } else if (attributes.class == InputOnly) {
        // Nothing can be drawn in an input-only window: ximagesink's first XPutImage would fail.
        *detail = g_strdup_printf("window 0x%lx is InputOnly", xid);
        result = ME_WINDOW_REFUSED;
    }
    *width = attributes.width;
    *height = attributes.height;
    me_x_close_display(display);
    return result;
}
