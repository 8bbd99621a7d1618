// Pointer clicks, motion and keys from a window sink: navigation events travel upstream from it,
// and a probe on the element before it reads them (overlays' hit regions, the on-screen controls).
#include "me_pointer.h"
#include "me_watch.h"
#include <gst/video/navigation.h>

typedef struct {
    MeWatchOwner owner;
    me_pointer_callback callback;
    me_key_callback key_callback;       // may be NULL
    me_motion_callback motion_callback; // may be NULL
} PointerWatch;

// Navigation events travel upstream from a window sink, in the coordinates of the frames it
// was given (ximagesink maps window pixels back through its own scaling).
static GstPadProbeReturn on_navigation(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) != GST_EVENT_NAVIGATION) {
        return GST_PAD_PROBE_OK;
    }
    if (gst_navigation_event_get_type(event) == GST_NAVIGATION_EVENT_KEY_PRESS) {
        // ximagesink (1.22) names the key by its unshifted keysym and passes the modifiers.
        const gchar *key = NULL;
        GstNavigationModifierType state = GST_NAVIGATION_MODIFIER_NONE;
        PointerWatch *watch = data;
        if (watch->key_callback && gst_navigation_event_parse_key_event(event, &key) && key) {
            gst_navigation_event_parse_modifier_state(event, &state);
            watch->key_callback(key, (state & GST_NAVIGATION_MODIFIER_SHIFT_MASK) != 0, watch->owner.data);
        }
        return GST_PAD_PROBE_OK;
    }
    if (gst_navigation_event_get_type(event) == GST_NAVIGATION_EVENT_MOUSE_MOVE) {
        PointerWatch *watch = data;
        if (watch->motion_callback) watch->motion_callback(watch->owner.data);
        return GST_PAD_PROBE_OK;
    }
    if (gst_navigation_event_get_type(event) != GST_NAVIGATION_EVENT_MOUSE_BUTTON_RELEASE) {
        return GST_PAD_PROBE_OK;
    }
    gint button = 0;
    gdouble x = 0, y = 0;
    if (gst_navigation_event_parse_mouse_button_event(event, &button, &x, &y) && button == 1) {
        PointerWatch *watch = data;
        watch->callback(x, y, watch->owner.data);
    }
    return GST_PAD_PROBE_OK;
}

void me_watch_pointer(GstElement *element, me_pointer_callback callback, me_key_callback key_callback,
                      me_motion_callback motion_callback, gpointer data, GDestroyNotify destroy) {
    PointerWatch *watch = ME_WATCH_NEW(PointerWatch, data, destroy);
    watch->callback = callback;
    watch->key_callback = key_callback;
    watch->motion_callback = motion_callback;
    GstPad *pad = gst_element_get_static_pad(element, "src");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, on_navigation, watch, me_watch_free);
    gst_object_unref(pad);
}
