// Workaround "reload-sources": keeps a reused playbin from starting the source of the movie it
// played before.
//
// The bug: a playbin taken back to READY keeps the last movie's uridecodebin (and a subtitle one)
// as children. On the way up to PAUSED, GstBin sets every child to PAUSED before playbin
// activates the group of the new URI: the old uridecodebin starts its source, which opens a
// connection and sends a request (a second GET of an HTTP movie, or a request without the
// credential that was just found), then playbin takes it down again.
//
// Versions: seen on 1.22.0. No upstream issue found; unfixed as of 1.29.2 (main, 2026-08): no
// commit to gstplaybin2.c since 1.22 changes how it keeps or activates its groups.
//
// How it was found: while writing retries with backoff, which load the movie again in the same
// pipeline, against a test server that counts and fails requests (commit 8c5faab, 2026-12-01:
// "one wasted request per reload").
//
// Off: me_lock_previous_sources is not called; a reload sends a request of the old movie
// (ConnectionFaultTests' "503, twice" test fails so: the retries' requests and waits are off).
// WorkaroundReproductionTests' reload-sources test (engine-workaround-check, forced off and on), a
// 503 then the movie: off, 503, 200, 200 (two, now and then, on a busy machine); on, 503, 200.
// The wasted request shows on a retry, the failed load's source started again; a source changed
// after a movie that loaded showed none (2026-12-04).
#include "me_reload_sources.h"
#include "me_element_info.h"

static void lock_uridecodebin(const GValue *item, gpointer user_data) {
    (void)user_data;
    GstElement *element = g_value_get_object(item);
    const gchar *name = me_element_factory_name(element);
    if (name && g_str_equal(name, "uridecodebin")) {
        gst_element_set_locked_state(element, TRUE);
    }
}

void me_lock_previous_sources(GstElement *playbin) {
    // Locked, the bin leaves the previous movie's uridecodebin alone; playbin's activation unlocks
    // the group it activates (itself, when reused), and unlocks every group before going to NULL.
    GstIterator *children = gst_bin_iterate_elements(GST_BIN(playbin));
    while (gst_iterator_foreach(children, lock_uridecodebin, NULL) == GST_ITERATOR_RESYNC) {
        gst_iterator_resync(children);
    }
    gst_iterator_free(children);
}
