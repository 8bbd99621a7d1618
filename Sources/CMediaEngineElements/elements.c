// The engine's own elements, as one GStreamer plugin, "mediaengine": registered statically in the
// engine's process when GStreamer starts (me_register_elements), and built as a loadable plugin
// too (plugin.c, the `gstmediaengine` product: libgstmediaengine.so), so gst-inspect-1.0 and
// gst-launch-1.0 can use them without Swift.
#include "me_elements.h"
#include "me_decoders.h"
#include <stdlib.h>
#include <string.h>

GType me_scaler_get_type_public(void);
GType me_frame_select_get_type_public(void);
GType me_backdrop_get_type_public(void);
GType me_video_output_bin_get_type_public(void);

// GStreamer applies GST_PLUGIN_FEATURE_RANK ("name:rank,...", rank a number or NONE, MARGINAL,
// SECONDARY, PRIMARY, MAX) while it initializes, before these elements exist; so it is read
// again here: `GST_PLUGIN_FEATURE_RANK=meh264dec:NONE` gives H.264 back to avdec_h264.
static guint rank_for(const gchar *name, guint rank) {
    const gchar *setting = g_getenv("GST_PLUGIN_FEATURE_RANK");
    if (!setting) {
        return rank;
    }
    gchar **entries = g_strsplit(setting, ",", -1);
    for (gchar **entry = entries; *entry; entry++) {
        gchar **parts = g_strsplit(*entry, ":", 2);
        if (parts[0] && parts[1] && g_str_equal(g_strstrip(parts[0]), name)) {
            const gchar *value = g_strstrip(parts[1]);
            if (g_ascii_strcasecmp(value, "NONE") == 0) rank = GST_RANK_NONE;
            else if (g_ascii_strcasecmp(value, "MARGINAL") == 0) rank = GST_RANK_MARGINAL;
            else if (g_ascii_strcasecmp(value, "SECONDARY") == 0) rank = GST_RANK_SECONDARY;
            else if (g_ascii_strcasecmp(value, "PRIMARY") == 0) rank = GST_RANK_PRIMARY;
            else if (g_ascii_strcasecmp(value, "MAX") == 0) rank = G_MAXINT;
            else if (g_ascii_isdigit(value[0])) rank = (guint)strtoul(value, NULL, 10);
        }
        g_strfreev(parts);
    }
    g_strfreev(entries);
    return rank;
}

// The engine's decoders take avdec_*'s place, never that of a decoder the system ranks above
// avdec_* (PRIMARY): hardware decoders such as v4l2h264dec on boards or nvh264dec sit at
// PRIMARY + 1 and would lose a tie to "meh264dec" by name. With one of those present for the
// codec, the engine's decoder takes PRIMARY and stays behind it (and behind avdec_*, which wins
// that tie by name).
static guint decoder_rank(const gchar *media_type) {
    GstCaps *caps = gst_caps_new_empty_simple(media_type);
    GList *decoders = gst_element_factory_list_get_elements(
        GST_ELEMENT_FACTORY_TYPE_DECODER | GST_ELEMENT_FACTORY_TYPE_MEDIA_VIDEO, GST_RANK_PRIMARY + 1);
    gboolean outranked = FALSE;
    for (GList *item = decoders; item && !outranked; item = item->next) {
        outranked = gst_element_factory_can_sink_any_caps(GST_ELEMENT_FACTORY(item->data), caps);
    }
    gst_plugin_feature_list_free(decoders);
    gst_caps_unref(caps);
    return outranked ? GST_RANK_PRIMARY : GST_RANK_PRIMARY + 1;
}

// Above avdec_h264 and avdec_h265 (PRIMARY) unless outranked as above, and as the variable says.
static guint libav_decoder_rank(const gchar *element, const gchar *media_type) {
    return rank_for(element, decoder_rank(media_type));
}

static gboolean register_in(GstPlugin *plugin, gboolean ranked) {
    return gst_element_register(plugin, "mescaler", GST_RANK_NONE, me_scaler_get_type_public()) &&
           gst_element_register(plugin, "meframeselect", GST_RANK_NONE, me_frame_select_get_type_public()) &&
           gst_element_register(plugin, "mebackdrop", GST_RANK_NONE, me_backdrop_get_type_public()) &&
           gst_element_register(plugin, "meoutputbin", GST_RANK_NONE, me_video_output_bin_get_type_public()) &&
           me_register_decoders(plugin, libav_decoder_rank, ranked);
}

// The loadable plugin: loading it is the opt-in, so its decoders have their ranks.
gboolean me_register_elements_in(GstPlugin *plugin) { return register_in(plugin, TRUE); }

// In the engine's process: the decoders are preferred in the engine's pipelines only.
static gboolean register_in_engine(GstPlugin *plugin) { return register_in(plugin, FALSE); }

gboolean me_register_elements(void) {
    return gst_plugin_register_static(GST_VERSION_MAJOR, GST_VERSION_MINOR, "mediaengine", ME_PLUGIN_DESCRIPTION,
                                      register_in_engine, "1.0", GST_LICENSE_UNKNOWN, "swift-media-engine",
                                      "swift-media-engine", "https://github.com/swift-media-engine");
}
