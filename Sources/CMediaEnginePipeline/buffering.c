// The buffering elements of a playbin: the queue2 (progressive downloads) or multiqueue (adaptive
// streams) that uridecodebin and decodebin make, found as playbin adds them (deep-element-added
// runs after they are configured and before they start), for how much the download holds ahead
// and, through the buffering-thresholds workaround (bufferingthresholds.c in
// CMediaEngineWorkarounds), for where buffering starts and ends, which playbin does not expose.
#include "me_buffering.h"
#include "me_buffering_thresholds.h"
#include "me_element_info.h"
#include "me_workarounds.h"
#include <string.h>

struct MeBuffering {
    GMutex lock;
    gboolean thresholds;  // the workaround is installed: the elements get the player's thresholds
    gdouble low;
    gdouble high;
    GPtrArray *elements;  // GWeakRef *, the buffering elements found so far
};

static const gchar *factory_name(GstElement *element) {
    const gchar *name = me_element_factory_name(element);
    return name ? name : "";
}

// decodebin sets its multiqueue's thresholds again whenever it resets buffering (after adding
// it), from its own low-percent and high-percent: it is kept too, for the thresholds.
static gboolean is_buffering_element(GstElement *element) {
    const gchar *name = factory_name(element);
    return strcmp(name, "queue2") == 0 || strcmp(name, "multiqueue") == 0 || strcmp(name, "decodebin") == 0;
}

static void on_element_added(GstBin *bin, GstBin *sub_bin, GstElement *element, gpointer data) {
    (void)bin;
    (void)sub_bin;
    MeBuffering *buffering = data;
    if (!is_buffering_element(element)) return;
    GWeakRef *reference = g_new0(GWeakRef, 1);
    g_weak_ref_init(reference, element);
    g_mutex_lock(&buffering->lock);
    g_ptr_array_add(buffering->elements, reference);
    gdouble low = buffering->low, high = buffering->high;
    g_mutex_unlock(&buffering->lock);
    if (buffering->thresholds) me_buffering_thresholds_apply(element, low, high);
}

static void free_reference(gpointer data) {
    g_weak_ref_clear(data);
    g_free(data);
}

static void free_buffering(gpointer data, GClosure *closure) {
    (void)closure;
    MeBuffering *buffering = data;
    g_ptr_array_unref(buffering->elements);
    g_mutex_clear(&buffering->lock);
    g_free(buffering);
}

MeBuffering *me_buffering_watch(GstElement *playbin, gdouble low, gdouble high) {
    MeBuffering *buffering = g_new0(MeBuffering, 1);
    g_mutex_init(&buffering->lock);
    buffering->low = low;
    buffering->high = high;
    buffering->elements = g_ptr_array_new_with_free_func(free_reference);
    buffering->thresholds = me_workaround_active(ME_WORKAROUND_BUFFERING_THRESHOLDS);
    g_signal_connect_data(playbin, "deep-element-added", G_CALLBACK(on_element_added), buffering, free_buffering, 0);
    return buffering;
}

/// The elements still alive (each a new reference), under the lock.
static GPtrArray *live_elements(MeBuffering *buffering) {
    GPtrArray *live = g_ptr_array_new_with_free_func(gst_object_unref);
    for (guint i = 0; i < buffering->elements->len; i++) {
        GstElement *element = g_weak_ref_get(g_ptr_array_index(buffering->elements, i));
        if (element) g_ptr_array_add(live, element);
    }
    return live;
}

void me_buffering_set_high(MeBuffering *buffering, gdouble high) {
    g_mutex_lock(&buffering->lock);
    buffering->high = high;
    gdouble low = buffering->low;
    GPtrArray *live = live_elements(buffering);
    g_mutex_unlock(&buffering->lock);
    for (guint i = 0; i < live->len && buffering->thresholds; i++) {
        me_buffering_thresholds_apply(g_ptr_array_index(live, i), low, high);
    }
    g_ptr_array_unref(live);
}

gint64 me_buffering_level_time(MeBuffering *buffering) {
    g_mutex_lock(&buffering->lock);
    GPtrArray *live = live_elements(buffering);
    g_mutex_unlock(&buffering->lock);
    gint64 level = -1;
    for (guint i = 0; i < live->len; i++) {
        GstElement *element = g_ptr_array_index(live, i);
        if (strcmp(factory_name(element), "queue2") != 0) continue;
        guint64 time = 0;
        g_object_get(element, "current-level-time", &time, NULL);
        if ((gint64)time > level) level = (gint64)time;
    }
    g_ptr_array_unref(live);
    return level;
}

gint64 me_buffering_downloaded_until(GstElement *playbin, gint64 position_percent) {
    GstQuery *query = gst_query_new_buffering(GST_FORMAT_PERCENT);
    gint64 until = -1;
    if (gst_element_query(playbin, query)) {
        guint ranges = gst_query_get_n_buffering_ranges(query);
        for (guint i = 0; i < ranges; i++) {
            gint64 start = 0, stop = 0;
            if (!gst_query_parse_nth_buffering_range(query, i, &start, &stop)) continue;
            if (start <= position_percent && stop >= position_percent && stop > until) until = stop;
        }
    }
    gst_query_unref(query);
    return until;
}
