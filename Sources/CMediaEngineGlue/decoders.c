// The engine's own decoders, registered with its other elements: the CMediaEngineLibavDecoder target's
// (meh264dec, meh265dec), installed from its constructor when it is linked (the MediaEngine
// product and the loadable plugin), or none (MediaEngineCore alone: GStreamer's own decoders).
//
// In the engine's process they are registered at rank NONE, which decodebin and playbin never
// autoplug by themselves, and their ranks are kept here as the engine's preference: each of the
// engine's pipelines puts them among decodebin's candidates at that rank (decoderpreference.c in
// CMediaEnginePipeline), so a host app's own decodebins keep choosing what they chose. An app that
// wants them everywhere calls me_prefer_engine_decoders_everywhere.
#include "me_decoders.h"

// Written once, before main or at the plugin's load (a constructor), read after.
static gpointer installed;

void me_decoders_install(me_decoder_registrar registrar) { g_atomic_pointer_set(&installed, (gpointer)registrar); }

gboolean me_register_decoders(GstPlugin *plugin, me_decoder_rank_callback rank, gboolean ranked) {
    me_decoder_registrar registrar = (me_decoder_registrar)g_atomic_pointer_get(&installed);
    return registrar ? registrar(plugin, rank, ranked) : TRUE;
}

static MeDecoderPreference preferences[ME_MAX_PREFERRED_DECODERS];
static guint preference_count;
static GMutex preference_lock;

void me_decoder_preference_record(const gchar *element, guint rank) {
    g_mutex_lock(&preference_lock);
    for (guint index = 0; index < preference_count; index++) {
        if (g_str_equal(preferences[index].element, element)) {
            preferences[index].rank = rank;
            g_mutex_unlock(&preference_lock);
            return;
        }
    }
    if (preference_count < ME_MAX_PREFERRED_DECODERS) {
        preferences[preference_count].element = g_strdup(element);
        preferences[preference_count].rank = rank;
        preference_count++;
    }
    g_mutex_unlock(&preference_lock);
}

guint me_decoder_preferences(MeDecoderPreference *copy) {
    g_mutex_lock(&preference_lock);
    guint count = preference_count;
    for (guint index = 0; index < count; index++) copy[index] = preferences[index];
    g_mutex_unlock(&preference_lock);
    return count;
}

void me_prefer_engine_decoders_everywhere(gboolean everywhere) {
    g_mutex_lock(&preference_lock);
    for (guint index = 0; index < preference_count; index++) {
        GstElementFactory *factory = gst_element_factory_find(preferences[index].element);
        if (!factory) continue;
        gst_plugin_feature_set_rank(GST_PLUGIN_FEATURE(factory), everywhere ? preferences[index].rank : GST_RANK_NONE);
        gst_object_unref(factory);
    }
    g_mutex_unlock(&preference_lock);
}
