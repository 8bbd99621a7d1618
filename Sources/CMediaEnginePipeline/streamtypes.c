// The stream-type watch: what typefind found each stream to be (so the engine can refuse images
// and text before decodebin tries to play them), and which element decodebin chose to decode the
// video (MoviePlayer.videoDecoder), as the engine's bus messages.
#include "me_stream_types.h"
#include "me_element_info.h"
#include "me_messages.h"
#include <string.h>

static void on_have_type(GstElement *typefind, guint probability, GstCaps *caps, gpointer user_data) {
    (void)user_data;
    gchar *text = gst_caps_to_string(caps);
    GstStructure *s = gst_structure_new(ME_MESSAGE_STREAM_TYPE, ME_FIELD_CAPS, G_TYPE_STRING, text, ME_FIELD_PROBABILITY,
                                        G_TYPE_UINT, probability, NULL);
    g_free(text);
    gst_element_post_message(typefind, gst_message_new_application(GST_OBJECT(typefind), s));
}

static void on_deep_element_added(GstBin *bin, GstBin *sub_bin, GstElement *element, gpointer user_data) {
    (void)bin; (void)sub_bin; (void)user_data;
    const gchar *factory = me_element_factory_name(element);
    if (factory && g_str_equal(factory, "typefind")) {
        g_signal_connect(element, "have-type", G_CALLBACK(on_have_type), NULL);
        return;
    }
    // Which element decodes the video (decodebin's choice), for MoviePlayer.videoDecoder.
    const gchar *klass = me_element_klass(element);
    if (klass && strstr(klass, "Decoder") && strstr(klass, "Video")) {
        GstStructure *s = gst_structure_new(ME_MESSAGE_VIDEO_DECODER, ME_FIELD_FACTORY, G_TYPE_STRING, factory, NULL);
        gst_element_post_message(element, gst_message_new_application(GST_OBJECT(element), s));
    }
}

void me_watch_stream_types(GstElement *bin) {
    g_signal_connect(bin, "deep-element-added", G_CALLBACK(on_deep_element_added), NULL);
}
