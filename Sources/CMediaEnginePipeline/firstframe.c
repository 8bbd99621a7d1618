// The first-frame watch: a buffer probe on the video output's input that posts
// ME_MESSAGE_FIRST_FRAME for the first frame after start and after each flush (and, holding,
// drops frames until the engine's seek to the initial playback time), and notes where the last
// frame let through ends. Runs in C on the streaming thread: no Swift code is entered per frame.
#include "me_first_frame.h"
#include "me_messages.h"

struct MeFirstFrameWatch {
    GstElement *element; // weak: the probe is removed with the pad, which the element owns
    gint hold;           // atomic: drop buffers until the next flush
    gint seen;           // atomic: whether the first buffer since start or the last flush was reported
    GstSegment segment;  // the last segment, to turn PTS into stream time (streaming thread only)
    guint32 seqnum;      // the last segment's (or flush's) sequence number, which is the seek's
    gint width, height;  // the size last reported (streaming thread only)
    guint64 last_end;    // atomic: stream time where the last frame let through ends; NONE after a flush
};
typedef struct MeFirstFrameWatch FirstFrameWatch;

static GstPadProbeReturn on_first_frame_probe(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    FirstFrameWatch *watch = user_data;
    if (GST_PAD_PROBE_INFO_TYPE(info) & (GST_PAD_PROBE_TYPE_EVENT_FLUSH | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM)) {
        GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
        switch (GST_EVENT_TYPE(event)) {
        case GST_EVENT_FLUSH_STOP:
            watch->seqnum = gst_event_get_seqnum(event);
            g_atomic_int_set(&watch->hold, FALSE);
            g_atomic_int_set(&watch->seen, FALSE);
            __atomic_store_n(&watch->last_end, GST_CLOCK_TIME_NONE, __ATOMIC_RELEASE);
            break;
        case GST_EVENT_STREAM_START:
            // A new movie in a reused pipeline.
            g_atomic_int_set(&watch->seen, FALSE);
            __atomic_store_n(&watch->last_end, GST_CLOCK_TIME_NONE, __ATOMIC_RELEASE);
            break;
        case GST_EVENT_SEGMENT:
            gst_event_copy_segment(event, &watch->segment);
            watch->seqnum = gst_event_get_seqnum(event);
            break;
        case GST_EVENT_CAPS: {
            // A new picture size in the middle of a stream (an adaptive stream that switched
            // variants): the next frame is reported again, so the natural size follows.
            GstCaps *caps = NULL;
            gint width = 0, height = 0;
            gst_event_parse_caps(event, &caps);
            if (caps && gst_caps_get_size(caps) > 0) {
                GstStructure *s = gst_caps_get_structure(caps, 0);
                gst_structure_get_int(s, "width", &width);
                gst_structure_get_int(s, "height", &height);
            }
            if (watch->width > 0 && (width != watch->width || height != watch->height) &&
                !g_atomic_int_get(&watch->hold)) {
                g_atomic_int_set(&watch->seen, FALSE);
            }
            break;
        }
        default:
            break;
        }
        return GST_PAD_PROBE_OK;
    }
    if (!(GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_BUFFER)) {
        return GST_PAD_PROBE_OK;
    }
    if (g_atomic_int_get(&watch->hold)) {
        if (g_atomic_int_compare_and_exchange(&watch->seen, FALSE, TRUE)) {
            gst_element_post_message(
                watch->element,
                gst_message_new_application(GST_OBJECT(watch->element), gst_structure_new_empty(ME_MESSAGE_FIRST_FRAME_HELD)));
        }
        return GST_PAD_PROBE_DROP;
    }
    // Where this frame ends in the movie: the output's chain is synchronous from here to the
    // sink, so it is the frame shown now or next (a pause makes it the one shown).
    GstBuffer *passing = GST_PAD_PROBE_INFO_BUFFER(info);
    if (watch->segment.format == GST_FORMAT_TIME && GST_BUFFER_PTS_IS_VALID(passing)) {
        guint64 end = GST_BUFFER_PTS(passing) + (GST_BUFFER_DURATION_IS_VALID(passing) ? GST_BUFFER_DURATION(passing) : 0);
        guint64 stream_end = gst_segment_to_stream_time(&watch->segment, GST_FORMAT_TIME, end);
        __atomic_store_n(&watch->last_end, stream_end, __ATOMIC_RELEASE);
    }
    if (!g_atomic_int_compare_and_exchange(&watch->seen, FALSE, TRUE)) {
        return GST_PAD_PROBE_OK;
    }
    gint width = 0, height = 0, par_n = 1, par_d = 1;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (caps) {
        GstStructure *s = gst_caps_get_structure(caps, 0);
        gst_structure_get_int(s, "width", &width);
        gst_structure_get_int(s, "height", &height);
        if (!gst_structure_get_fraction(s, "pixel-aspect-ratio", &par_n, &par_d)) {
            par_n = 1;
            par_d = 1;
        }
        gst_caps_unref(caps);
    }
    // The player clamps the natural size (FirstFrame.displaySize): say so where GStreamer's
    // log (GST_DEBUG=2) shows it.
    gdouble shown_width = par_n > 0 && par_d > 0 ? (gdouble)width * par_n / par_d : width;
    if (width > 0 && height > 0 && (shown_width < 0.5 || shown_width > 16384 || height > 16384)) {
        GST_WARNING_OBJECT(watch->element,
                           "a %dx%d picture with a pixel aspect ratio of %d:%d displays %.3fx%d: the natural size is "
                           "clamped to at most 16384 and at least 1 on each side",
                           width, height, par_n, par_d, shown_width, height);
    }
    watch->width = width;
    watch->height = height;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    guint64 stream_time = GST_CLOCK_TIME_NONE;
    if (watch->segment.format == GST_FORMAT_TIME && GST_BUFFER_PTS_IS_VALID(buffer)) {
        stream_time = gst_segment_to_stream_time(&watch->segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
    }
    GstStructure *s = gst_structure_new(ME_MESSAGE_FIRST_FRAME, ME_FIELD_WIDTH, G_TYPE_INT, width, ME_FIELD_HEIGHT, G_TYPE_INT,
                                        height, ME_FIELD_PAR_N, G_TYPE_INT, par_n, ME_FIELD_PAR_D, G_TYPE_INT, par_d,
                                        ME_FIELD_STREAM_TIME, G_TYPE_UINT64, stream_time, ME_FIELD_SEQNUM, G_TYPE_UINT,
                                        watch->seqnum, NULL);
    gst_element_post_message(watch->element, gst_message_new_application(GST_OBJECT(watch->element), s));
    return GST_PAD_PROBE_OK;
}

MeFirstFrameWatch *me_watch_first_frame(GstPad *pad, GstElement *element, gboolean hold) {
    FirstFrameWatch *watch = g_new0(FirstFrameWatch, 1);
    watch->element = element;
    watch->hold = hold;
    watch->last_end = GST_CLOCK_TIME_NONE;
    gst_segment_init(&watch->segment, GST_FORMAT_UNDEFINED);
    gst_pad_add_probe(pad,
                      GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_FLUSH | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
                      on_first_frame_probe, watch, g_free);
    return watch;
}

void me_first_frame_watch_hold(MeFirstFrameWatch *watch) {
    g_atomic_int_set(&watch->hold, TRUE);
    g_atomic_int_set(&watch->seen, FALSE);
}

guint64 me_first_frame_watch_last_end(MeFirstFrameWatch *watch) {
    return __atomic_load_n(&watch->last_end, __ATOMIC_ACQUIRE);
}
