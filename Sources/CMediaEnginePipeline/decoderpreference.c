// The engine's decoders are preferred in the engine's own pipelines, without changing what a host
// app's own decodebins choose. In the engine's process they are registered at rank NONE, which
// decodebin and playbin never autoplug by themselves, with their preferred ranks kept in
// me_decoders.h's registry; each pipeline of the engine hooks the decodebins inside it
// (deep-element-added) and puts the engine's decoder into their list of candidates (autoplug-sort)
// at the rank it would have had: above avdec_*, behind a hardware decoder ranked higher
// (elements.c). An app that wants them everywhere calls me_prefer_engine_decoders_everywhere,
// which gives them those ranks in the registry.
#include "me_decoder_preference.h"
#include "me_decoders.h"
#include "me_element_info.h"
#include <string.h>

G_GNUC_BEGIN_IGNORE_DEPRECATIONS
// Where `factory` belongs among `list`'s candidates at `rank`: before the first other candidate
// of a lower rank (its own entry, if there, not counted). Sets `*current` to where it is, or -1.
static guint place_for(GValueArray *list, GstElementFactory *factory, guint rank, gint *current) {
    guint place = 0;
    gboolean found = FALSE;
    *current = -1;
    for (guint item = 0; item < list->n_values; item++) {
        GstPluginFeature *other = g_value_get_object(g_value_array_get_nth(list, item));
        if (other == (gpointer)factory) {
            *current = (gint)item;
            continue;
        }
        if (!found && gst_plugin_feature_get_rank(other) < rank) {
            found = TRUE;
        }
        if (!found) place++;
    }
    return place;
}

// decodebin's candidates for `caps`, with each engine decoder that takes them at the place its
// preferred rank gives it: before the first candidate of a lower rank; NULL (keep the list) when
// none applies or each already is there.
//
// Its place is set here whether or not the list already holds it: playbin lists its candidates
// once per pipeline (while the registry's cookie stands, and a change of rank does not move it)
// but orders them by the ranks of the moment. A pipeline that listed them while the decoders were
// ranked (me_prefer_engine_decoders_everywhere) and reaches its decoder after they went back to
// NONE holds the engine's decoder at the end of its list, behind avdec_h264.
static GValueArray *sort_with_engine_decoders(GstElement *decodebin, GstPad *pad, GstCaps *caps,
                                              GValueArray *factories, gpointer data) {
    (void)decodebin;
    (void)pad;
    (void)data;
    GValueArray *sorted = NULL;
    MeDecoderPreference preferences[ME_MAX_PREFERRED_DECODERS];
    guint preference_count = me_decoder_preferences(preferences);
    for (guint index = 0; index < preference_count; index++) {
        if (preferences[index].rank == GST_RANK_NONE) continue;
        GstElementFactory *factory = gst_element_factory_find(preferences[index].element);
        if (!factory) continue;
        if (!gst_element_factory_can_sink_all_caps(factory, caps)) {
            gst_object_unref(factory);
            continue;
        }
        gint current;
        guint place = place_for(sorted ? sorted : factories, factory, preferences[index].rank, &current);
        // Already where it belongs: in a list without it, `place` counts every candidate before it.
        if (current >= 0 && (guint)current == place) {
            gst_object_unref(factory);
            continue;
        }
        if (!sorted) sorted = g_value_array_copy(factories);
        if (current >= 0) g_value_array_remove(sorted, (guint)current);
        GValue value = G_VALUE_INIT;
        g_value_init(&value, GST_TYPE_ELEMENT_FACTORY);
        g_value_set_object(&value, factory);
        g_value_array_insert(sorted, place, &value);
        g_value_unset(&value);
        gst_object_unref(factory);
    }
    return sorted;
}
G_GNUC_END_IGNORE_DEPRECATIONS

static void on_deep_element_added(GstBin *bin, GstBin *sub_bin, GstElement *element, gpointer data) {
    (void)bin;
    (void)sub_bin;
    (void)data;
    const gchar *factory = me_element_factory_name(element);
    if (!factory || !g_str_equal(factory, "decodebin")) return;
    // After uridecodebin's own handler, which passes the signal on to the app and returns NULL.
    g_signal_connect(element, "autoplug-sort", G_CALLBACK(sort_with_engine_decoders), NULL);
}

void me_prefer_engine_decoders(GstElement *pipeline) {
    g_signal_connect(pipeline, "deep-element-added", G_CALLBACK(on_deep_element_added), NULL);
}

gchar *me_video_decoder_name(GstElement *bin) {
    gchar *name = NULL;
    GstIterator *elements = gst_bin_iterate_recurse(GST_BIN(bin));
    GValue item = G_VALUE_INIT;
    while (!name && gst_iterator_next(elements, &item) == GST_ITERATOR_OK) {
        GstElement *element = g_value_get_object(&item);
        const gchar *klass = me_element_klass(element);
        if (klass && strstr(klass, "Decoder/Video")) name = g_strdup(me_element_factory_name(element));
        g_value_reset(&item);
    }
    g_value_unset(&item);
    gst_iterator_free(elements);
    return name;
}
