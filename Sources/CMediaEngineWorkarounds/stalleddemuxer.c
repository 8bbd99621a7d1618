// Workaround "stalled-demuxer": finds a demuxer that gave up while decodebin set it up, whose
// error decodebin dropped.
//
// The bug: decodebin filters the errors of an element it is still setting up (filtered_errors in
// gstdecodebin2.c: an error from a demuxer before it exposed a pad is kept back, in case another
// element can be tried) and, when the demuxer then stops without a pad, posts none of them: the
// pipeline waits for a preroll that never comes. The engine looks for a demuxer with no source
// pads whose task has stopped, and fails the movie as a corrupt container.
//
// Versions: every release (seen on 1.22.0); unfixed as of 1.29.2 (main, 2026-08). No upstream
// issue found.
//
// How it was found: mediaprobe and engine-leak-check on broken files (an ftyp box followed by
// noise) waited until their time limit (commit ca5e630, 2026-11-30, "detect demuxers whose errors
// decodebin drops").
//
// Off: the player and the thumbnail pipelines do not look; a movie whose demuxer gives up that way
// fails only at the preparation's time limit, as timedOut, not corruptContainer. It is a race:
// decodebin's thread stops filtering just after it releases the demuxer's stream lock, which
// qtdemux's loop waits for, so qtdemux's error nearly always comes after (BadInputTests passed
// forced off, 2026-12-04; it failed so when found). WorkaroundReproductionTests' stalled-demuxer
// test makes the race's losing outcome certain, qtdemux's errors dropped as decodebin drops them
// (engine-workaround-check, forced off and on): off, timedOut at the 2 s limit; on,
// corruptContainer after 0.9 s (the engine's looks).
#include "me_stalled_demuxer.h"
#include "me_element_info.h"

static gboolean pad_task_is_running(GstPad *pad) {
    gboolean running = FALSE;
    GST_OBJECT_LOCK(pad);
    GstTask *task = GST_PAD_TASK(pad);
    if (task) {
        running = gst_task_get_state(task) == GST_TASK_STARTED;
    }
    GST_OBJECT_UNLOCK(pad);
    return running;
}

static gboolean demuxer_has_given_up(GstElement *element) {
    if (!me_element_is_demuxer(element)) {
        return FALSE;
    }
    gboolean given_up = FALSE;
    GST_OBJECT_LOCK(element);
    gboolean has_source_pads = element->numsrcpads > 0;
    GstPad *sinkpad = element->sinkpads ? gst_object_ref(GST_PAD(element->sinkpads->data)) : NULL;
    GST_OBJECT_UNLOCK(element);
    if (!has_source_pads && sinkpad) {
        GST_OBJECT_LOCK(sinkpad);
        gboolean has_task = GST_PAD_TASK(sinkpad) != NULL;
        GST_OBJECT_UNLOCK(sinkpad);
        given_up = has_task && !pad_task_is_running(sinkpad);
    }
    if (sinkpad) {
        gst_object_unref(sinkpad);
    }
    return given_up;
}

static gint has_given_up(gconstpointer item, gconstpointer user_data) {
    (void)user_data;
    return demuxer_has_given_up(g_value_get_object(item)) ? 0 : 1;
}

gchar *me_find_stalled_demuxer(GstElement *bin) {
    GstIterator *iterator = gst_bin_iterate_recurse(GST_BIN(bin));
    GValue found = G_VALUE_INIT;
    gchar *name = NULL;
    if (gst_iterator_find_custom(iterator, has_given_up, &found, NULL)) {
        name = gst_object_get_name(GST_OBJECT(g_value_get_object(&found)));
        g_value_unset(&found);
    }
    gst_iterator_free(iterator);
    return name;
}
