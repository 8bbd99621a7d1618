// The engine's own elements, registered privately (no plugin file) when GStreamer starts.
#include "CGStreamerShim.h"

GType me_scaler_get_type_public(void);
GType me_frame_select_get_type_public(void);

gboolean me_register_elements(void) {
    return gst_element_register(NULL, "mescaler", GST_RANK_NONE, me_scaler_get_type_public()) &&
           gst_element_register(NULL, "meframeselect", GST_RANK_NONE, me_frame_select_get_type_public());
}
