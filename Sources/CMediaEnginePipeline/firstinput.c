// An element's first input: a callback when the first buffer reaches an element's sink pad, for
// settings its parent would overwrite between creating the element and starting it (decodebin sets
// every demuxer's connection-speed after adding it).
#include "me_first_input.h"
#include "me_watch.h"

typedef struct {
    MeWatchOwner owner;
    me_element_callback callback;
} FirstInput;

static GstPadProbeReturn on_first_input(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)info;
    FirstInput *input = user_data;
    GstElement *element = gst_pad_get_parent_element(pad);
    if (element) {
        input->callback(element, element, input->owner.data);
        gst_object_unref(element);
    }
    return GST_PAD_PROBE_REMOVE;
}

gboolean me_on_first_input(GstElement *element, me_element_callback callback, gpointer user_data,
                           GDestroyNotify destroy) {
    GstPad *pad = gst_element_get_static_pad(element, "sink");
    if (!pad) {
        return FALSE;
    }
    FirstInput *input = ME_WATCH_NEW(FirstInput, user_data, destroy);
    input->callback = callback;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_first_input, input, me_watch_free);
    gst_object_unref(pad);
    return TRUE;
}
