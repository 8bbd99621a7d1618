// Stream groups at a gapless hand-over: playbin holds two movies there, the one playing and the
// next, each with the group id of its stream start. Which group an element's stream belongs to,
// and a group's duration from its own elements.
#include "me_stream_groups.h"

// The group id of the stream start `pad` carries, 0 for none.
static guint pad_group_id(GstPad *pad) {
    guint group = 0;
    GstEvent *start = gst_pad_get_sticky_event(pad, GST_EVENT_STREAM_START, 0);
    if (start) {
        if (!gst_event_parse_group_id(start, &group)) group = 0;
        gst_event_unref(start);
    }
    return group;
}

// The group id of the stream start on `element`'s pads: its source pads' first (a demuxer's or
// a parser's own stream), else its sink pads'; 0 when none carries one.
static guint element_group_id(GstElement *element) {
    guint group = 0;
    GstIterator *pads = gst_element_iterate_src_pads(element);
    for (int side = 0; side < 2 && group == 0; side++) {
        if (side == 1) {
            gst_iterator_free(pads);
            pads = gst_element_iterate_sink_pads(element);
        }
        GValue item = G_VALUE_INIT;
        while (group == 0 && gst_iterator_next(pads, &item) == GST_ITERATOR_OK) {
            group = pad_group_id(g_value_get_object(&item));
            g_value_reset(&item);
        }
        g_value_unset(&item);
    }
    gst_iterator_free(pads);
    return group;
}

// At a gapless hand-over playbin holds two movies: the one playing and the next, whose parser
// posts DURATION_CHANGED while the last frames of the one before are still to be shown. The
// group id of the posting element's stream tells them apart.
guint me_message_source_group_id(GstMessage *message) {
    GstObject *source = GST_MESSAGE_SRC(message);
    if (!source || !GST_IS_ELEMENT(source)) return 0;
    return element_group_id(GST_ELEMENT(source));
}

// Whether `element` is part of playsink, whose upstream is whichever movie is linked to it now.
static gboolean inside_playsink(GstElement *element) {
    GstObject *parent = gst_object_get_parent(GST_OBJECT(element));
    while (parent && !g_str_equal(G_OBJECT_TYPE_NAME(parent), "GstPlaySink")) {
        GstObject *next = gst_object_get_parent(parent);
        gst_object_unref(parent);
        parent = next;
    }
    gboolean inside = parent != NULL;
    if (parent) gst_object_unref(parent);
    return inside;
}

// A movie's duration from its own stream. playbin's answer is of the movie it plays at the
// moment of the query (while a group switch is pending, a cached value of the one before), and
// so is a query upstream from the sinks once the next movie is linked to them; the elements that
// carry the group's stream start upstream of playsink (its source, demuxer, parsers, decoders)
// answer for that movie alone, whatever the pipeline has gone on to.
gboolean me_stream_group_duration(GstElement *pipeline, guint group, gint64 *duration) {
    gboolean found = FALSE;
    GstIterator *elements = gst_bin_iterate_recurse(GST_BIN(pipeline));
    GValue item = G_VALUE_INIT;
    while (!found) {
        GstIteratorResult result = gst_iterator_next(elements, &item);
        if (result == GST_ITERATOR_RESYNC) {
            gst_iterator_resync(elements);
            continue;
        }
        if (result != GST_ITERATOR_OK) break;
        GstElement *element = g_value_get_object(&item);
        gint64 time = -1;
        if (!GST_IS_BIN(element) && element_group_id(element) == group && !inside_playsink(element) &&
            gst_element_query_duration(element, GST_FORMAT_TIME, &time) && time >= 0) {
            *duration = time;
            found = TRUE;
        }
        g_value_reset(&item);
    }
    g_value_unset(&item);
    gst_iterator_free(elements);
    return found;
}
