// What an element is (me_element_info.h).
#include "me_element_info.h"
#include <string.h>

const gchar *me_element_factory_name(GstElement *element) {
    GstElementFactory *factory = gst_element_get_factory(element);
    return factory ? GST_OBJECT_NAME(factory) : NULL;
}

const gchar *me_element_klass(GstElement *element) {
    GstElementFactory *factory = gst_element_get_factory(element);
    return factory ? gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS) : NULL;
}

GstState me_element_target_state(GstElement *element) {
    GST_OBJECT_LOCK(element);
    GstState target = GST_STATE_TARGET(element);
    GST_OBJECT_UNLOCK(element);
    return target;
}

gboolean me_element_is_demuxer(GstElement *element) {
    const gchar *klass = me_element_klass(element);
    return klass && strstr(klass, "Demux");
}

gboolean me_is_demuxer_without_streams(GstObject *object) {
    if (!object || !GST_IS_ELEMENT(object) || !me_element_is_demuxer(GST_ELEMENT(object))) {
        return FALSE;
    }
    GST_OBJECT_LOCK(object);
    gboolean without = GST_ELEMENT(object)->numsrcpads == 0;
    GST_OBJECT_UNLOCK(object);
    return without;
}

gboolean me_is_adaptive_demuxer(GstElement *element) {
    const gchar *klass = me_element_klass(element);
    return klass && strstr(klass, "Demux") && strstr(klass, "Adaptive");
}

gboolean me_is_uri_source(GstElement *element) {
    return GST_IS_URI_HANDLER(element) && gst_uri_handler_get_uri_type(GST_URI_HANDLER(element)) == GST_URI_SRC;
}
