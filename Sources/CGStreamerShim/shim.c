#define _GNU_SOURCE
#include <pthread.h>
#include "CGStreamerShim.h"
#include <string.h>
#include <malloc.h>

GType me_type_boolean(void) { return G_TYPE_BOOLEAN; }
GType me_type_int(void) { return G_TYPE_INT; }
GType me_type_uint(void) { return G_TYPE_UINT; }
GType me_type_long(void) { return G_TYPE_LONG; }
GType me_type_ulong(void) { return G_TYPE_ULONG; }
GType me_type_int64(void) { return G_TYPE_INT64; }
GType me_type_uint64(void) { return G_TYPE_UINT64; }
GType me_type_float(void) { return G_TYPE_FLOAT; }
GType me_type_double(void) { return G_TYPE_DOUBLE; }
GType me_type_string(void) { return G_TYPE_STRING; }
GType me_type_enum(void) { return G_TYPE_ENUM; }
GType me_type_flags(void) { return G_TYPE_FLAGS; }
GType me_type_object(void) { return G_TYPE_OBJECT; }
GType me_type_char(void) { return G_TYPE_CHAR; }
GType me_type_uchar(void) { return G_TYPE_UCHAR; }

GType me_value_type(const GValue *value) { return G_VALUE_TYPE(value); }
GType me_object_type(gpointer object) { return G_OBJECT_TYPE(object); }

GParamSpec *me_object_find_property(gpointer object, const gchar *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
}

void me_object_set_object(gpointer object, const gchar *name, gpointer value) {
    g_object_set(object, name, value, NULL);
}

gboolean me_is_bin(gpointer object) { return GST_IS_BIN(object); }
GstObject *me_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }
GstMessageType me_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }

GstState me_element_target_state(GstElement *element) {
    GST_OBJECT_LOCK(element);
    GstState target = GST_STATE_TARGET(element);
    GST_OBJECT_UNLOCK(element);
    return target;
}

const gchar *me_element_factory_name(GstElement *element) {
    GstElementFactory *factory = gst_element_get_factory(element);
    return factory ? GST_OBJECT_NAME(factory) : NULL;
}

gboolean me_post_application_message(GstElement *element, const gchar *name) {
    GstMessage *message = gst_message_new_application(GST_OBJECT(element), gst_structure_new_empty(name));
    return gst_element_post_message(element, message);
}

// MARK: stream type watch

static void on_have_type(GstElement *typefind, guint probability, GstCaps *caps, gpointer user_data) {
    (void)user_data;
    gchar *text = gst_caps_to_string(caps);
    GstStructure *s = gst_structure_new(ME_MESSAGE_STREAM_TYPE, "caps", G_TYPE_STRING, text, "probability", G_TYPE_UINT,
                                        probability, NULL);
    g_free(text);
    gst_element_post_message(typefind, gst_message_new_application(GST_OBJECT(typefind), s));
}

static void on_deep_element_added(GstBin *bin, GstBin *sub_bin, GstElement *element, gpointer user_data) {
    (void)bin; (void)sub_bin; (void)user_data;
    me_watch_timed_metadata(element);
    const gchar *factory = me_element_factory_name(element);
    if (factory && g_str_equal(factory, "typefind")) {
        g_signal_connect(element, "have-type", G_CALLBACK(on_have_type), NULL);
        return;
    }
    // Which element decodes the video (decodebin's choice), for MoviePlayer.videoDecoder.
    GstElementFactory *element_factory = gst_element_get_factory(element);
    const gchar *klass =
        element_factory ? gst_element_factory_get_metadata(element_factory, GST_ELEMENT_METADATA_KLASS) : NULL;
    if (klass && strstr(klass, "Decoder") && strstr(klass, "Video")) {
        me_mark_keyframes(element);
        GstStructure *s = gst_structure_new(ME_MESSAGE_VIDEO_DECODER, "factory", G_TYPE_STRING, factory, NULL);
        gst_element_post_message(element, gst_message_new_application(GST_OBJECT(element), s));
    }
}

void me_watch_stream_types(GstElement *bin) {
    g_signal_connect(bin, "deep-element-added", G_CALLBACK(on_deep_element_added), NULL);
}

// MARK: stalled demuxers

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

static gboolean is_demuxer(GstElement *element) {
    GstElementFactory *factory = gst_element_get_factory(element);
    const gchar *klass = factory ? gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS) : NULL;
    return klass && strstr(klass, "Demux");
}

gboolean me_is_demuxer_without_streams(GstObject *object) {
    if (!object || !GST_IS_ELEMENT(object) || !is_demuxer(GST_ELEMENT(object))) {
        return FALSE;
    }
    GST_OBJECT_LOCK(object);
    gboolean without = GST_ELEMENT(object)->numsrcpads == 0;
    GST_OBJECT_UNLOCK(object);
    return without;
}

static gboolean demuxer_has_given_up(GstElement *element) {
    if (!is_demuxer(element)) {
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

// MARK: first frame probe

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
    GstStructure *s = gst_structure_new(ME_MESSAGE_FIRST_FRAME, "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
                                        "par-n", G_TYPE_INT, par_n, "par-d", G_TYPE_INT, par_d, "stream-time",
                                        G_TYPE_UINT64, stream_time, "seqnum", G_TYPE_UINT, watch->seqnum, NULL);
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

// MARK: loop continuity

typedef struct {
    GstSegment previous; // streaming thread only
    gboolean have_previous;
    gboolean flushed;    // a flush since the previous segment: running time starts over
} LoopContinuity;

static GstPadProbeReturn on_loop_segment(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)pad;
    LoopContinuity *state = user_data;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP || GST_EVENT_TYPE(event) == GST_EVENT_STREAM_START) {
        state->flushed = TRUE;
        return GST_PAD_PROBE_OK;
    }
    if (GST_EVENT_TYPE(event) != GST_EVENT_SEGMENT) {
        return GST_PAD_PROBE_OK;
    }
    GstSegment segment;
    gst_event_copy_segment(event, &segment);
    if (state->have_previous && !state->flushed && segment.format == GST_FORMAT_TIME &&
        state->previous.format == GST_FORMAT_TIME && (segment.flags & GST_SEGMENT_FLAG_SEGMENT) &&
        GST_CLOCK_TIME_IS_VALID(state->previous.stop) && state->previous.stop > state->previous.start) {
        guint64 length = state->previous.stop - state->previous.start;
        gdouble rate = ABS(state->previous.rate);
        guint64 expected = state->previous.base + (guint64)(length / (rate > 0 ? rate : 1.0));
        if (segment.base < expected) {
            segment.base = expected;
            GstEvent *corrected = gst_event_new_segment(&segment);
            gst_event_set_seqnum(corrected, gst_event_get_seqnum(event));
            gst_event_unref(event);
            GST_PAD_PROBE_INFO_DATA(info) = corrected;
        }
    }
    state->previous = segment;
    state->have_previous = TRUE;
    state->flushed = FALSE;
    return GST_PAD_PROBE_OK;
}

gulong me_keep_loops_continuous(GstPad *pad) {
    LoopContinuity *state = g_new0(LoopContinuity, 1);
    return gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH, on_loop_segment,
                             state, g_free);
}

// MARK: signals

gulong me_signal_connect_element(gpointer instance, const gchar *signal, me_element_callback callback,
                                 gpointer user_data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(callback), user_data, destroy, 0);
}

// MARK: overlay pixels

GstBuffer *me_overlay_buffer_new(const guint8 *rgba, guint width, guint height) {
    gsize count = (gsize)width * height;
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, count * 4, NULL);
    GstMapInfo map;
    if (gst_buffer_map(buffer, &map, GST_MAP_WRITE)) {
        // GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB is ARGB in a native-endian 32-bit word.
        for (gsize i = 0; i < count; i++) {
            const guint8 *pixel = rgba + i * 4;
            guint32 argb = (guint32)pixel[3] << 24 | (guint32)pixel[0] << 16 | (guint32)pixel[1] << 8 | pixel[2];
            memcpy(map.data + i * 4, &argb, sizeof argb);
        }
        gst_buffer_unmap(buffer, &map);
    }
    gst_buffer_add_video_meta(buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB, width,
                              height);
    return buffer;
}

// MARK: video frames

guint8 *me_video_frame_plane_data(GstVideoFrame *frame, guint plane) { return GST_VIDEO_FRAME_PLANE_DATA(frame, plane); }
gint me_video_frame_plane_stride(GstVideoFrame *frame, guint plane) { return GST_VIDEO_FRAME_PLANE_STRIDE(frame, plane); }
guint me_video_frame_plane_count(GstVideoFrame *frame) { return GST_VIDEO_FRAME_N_PLANES(frame); }

gint me_video_frame_plane_height(GstVideoFrame *frame, guint plane) {
    gint components[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component(frame->info.finfo, plane, components);
    return GST_VIDEO_FRAME_COMP_HEIGHT(frame, components[0]);
}

gint me_video_frame_plane_width_bytes(GstVideoFrame *frame, guint plane) {
    gint components[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component(frame->info.finfo, plane, components);
    gint width = GST_VIDEO_FRAME_COMP_WIDTH(frame, components[0]);
    gint pixel_stride = GST_VIDEO_FRAME_COMP_PSTRIDE(frame, components[0]);
    return width * pixel_stride;
}

// MARK: buffers

GstClockTime me_buffer_pts(GstBuffer *buffer) { return GST_BUFFER_PTS(buffer); }
GstClockTime me_buffer_duration(GstBuffer *buffer) { return GST_BUFFER_DURATION(buffer); }
gboolean me_buffer_is_keyframe(GstBuffer *buffer) { return !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT); }

// MARK: libyuv

#include <libyuv.h>

const struct YuvConstants *me_yuv_constants(int matrix, gboolean swapped) {
    switch (matrix) {
    case 1: return swapped ? &kYvuJPEGConstants : &kYuvJPEGConstants;
    case 2: return swapped ? &kYvuH709Constants : &kYuvH709Constants;
    case 3: return swapped ? &kYvuF709Constants : &kYuvF709Constants;
    case 4: return swapped ? &kYvu2020Constants : &kYuv2020Constants;
    default: return swapped ? &kYvuI601Constants : &kYuvI601Constants;
    }
}

// MARK: threads

void me_name_current_thread(const char *name) { pthread_setname_np(pthread_self(), name); }

void me_return_free_memory(void) { malloc_trim(0); }



// MARK: allocation

static GstPadProbeReturn on_allocation_query(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    (void)data;
    GstQuery *query = GST_PAD_PROBE_INFO_QUERY(info);
    if (GST_QUERY_TYPE(query) != GST_QUERY_ALLOCATION) {
        return GST_PAD_PROBE_OK;
    }
    if (!gst_query_find_allocation_meta(query, GST_VIDEO_META_API_TYPE, NULL)) {
        gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, NULL);
    }
    return GST_PAD_PROBE_HANDLED; // the query succeeds with this answer
}

void me_accept_video_meta(GstElement *sink) {
    GstPad *pad = gst_element_get_static_pad(sink, "sink");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM | GST_PAD_PROBE_TYPE_PUSH, on_allocation_query, NULL,
                      NULL);
    gst_object_unref(pad);
}

// MARK: pointer clicks and keys

typedef struct {
    me_pointer_callback callback;
    me_key_callback key_callback;       // may be NULL
    me_motion_callback motion_callback; // may be NULL
    gpointer data;
    GDestroyNotify destroy;
} PointerWatch;

static void pointer_watch_free(gpointer data) {
    PointerWatch *watch = data;
    if (watch->destroy) watch->destroy(watch->data);
    g_free(watch);
}

// Navigation events travel upstream from a window sink, in the coordinates of the frames it
// was given (ximagesink maps window pixels back through its own scaling).
static GstPadProbeReturn on_navigation(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) != GST_EVENT_NAVIGATION) {
        return GST_PAD_PROBE_OK;
    }
    if (gst_navigation_event_get_type(event) == GST_NAVIGATION_EVENT_KEY_PRESS) {
        // ximagesink (1.22) names the key by its unshifted keysym and passes the modifiers.
        const gchar *key = NULL;
        GstNavigationModifierType state = GST_NAVIGATION_MODIFIER_NONE;
        PointerWatch *watch = data;
        if (watch->key_callback && gst_navigation_event_parse_key_event(event, &key) && key) {
            gst_navigation_event_parse_modifier_state(event, &state);
            watch->key_callback(key, (state & GST_NAVIGATION_MODIFIER_SHIFT_MASK) != 0, watch->data);
        }
        return GST_PAD_PROBE_OK;
    }
    if (gst_navigation_event_get_type(event) == GST_NAVIGATION_EVENT_MOUSE_MOVE) {
        PointerWatch *watch = data;
        if (watch->motion_callback) watch->motion_callback(watch->data);
        return GST_PAD_PROBE_OK;
    }
    if (gst_navigation_event_get_type(event) != GST_NAVIGATION_EVENT_MOUSE_BUTTON_RELEASE) {
        return GST_PAD_PROBE_OK;
    }
    gint button = 0;
    gdouble x = 0, y = 0;
    if (gst_navigation_event_parse_mouse_button_event(event, &button, &x, &y) && button == 1) {
        PointerWatch *watch = data;
        watch->callback(x, y, watch->data);
    }
    return GST_PAD_PROBE_OK;
}

void me_watch_pointer(GstElement *element, me_pointer_callback callback, me_key_callback key_callback,
                      me_motion_callback motion_callback, gpointer data, GDestroyNotify destroy) {
    PointerWatch *watch = g_new0(PointerWatch, 1);
    watch->callback = callback;
    watch->key_callback = key_callback;
    watch->motion_callback = motion_callback;
    watch->data = data;
    watch->destroy = destroy;
    GstPad *pad = gst_element_get_static_pad(element, "src");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, on_navigation, watch, pointer_watch_free);
    gst_object_unref(pad);
}

// MARK: adaptive demuxers

typedef struct {
    GstElement *demuxer; // weak: the probe is removed with the pad, which the demuxer owns
    guint then_kbps;
    gint done;           // atomic
} AdaptiveStart;

static GstPadProbeReturn on_adaptive_first_buffer(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)pad;
    (void)info;
    AdaptiveStart *start = user_data;
    if (g_atomic_int_compare_and_exchange(&start->done, FALSE, TRUE)) {
        g_object_set(start->demuxer, "connection-speed", start->then_kbps, NULL);
    }
    return GST_PAD_PROBE_REMOVE;
}

static void on_adaptive_pad_added(GstElement *demuxer, GstPad *pad, gpointer user_data) {
    (void)demuxer;
    AdaptiveStart *start = user_data;
    if (GST_PAD_DIRECTION(pad) != GST_PAD_SRC || g_atomic_int_get(&start->done)) {
        return;
    }
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_adaptive_first_buffer, start, NULL);
}

typedef struct {
    me_element_callback callback;
    gpointer user_data;
    GDestroyNotify destroy;
} FirstInput;

static void first_input_free(gpointer data) {
    FirstInput *input = data;
    if (input->destroy) {
        input->destroy(input->user_data);
    }
    g_free(input);
}

static GstPadProbeReturn on_first_input(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)info;
    FirstInput *input = user_data;
    GstElement *element = gst_pad_get_parent_element(pad);
    if (element) {
        input->callback(element, element, input->user_data);
        gst_object_unref(element);
    }
    return GST_PAD_PROBE_REMOVE;
}

gboolean me_on_first_input(GstElement *element, me_element_callback callback, gpointer user_data,
                           GDestroyNotify destroy) {
    GstPad *pad = gst_element_get_static_pad(element, "sink");
    if (!pad) {
        return FALSE;
    }
    FirstInput *input = g_new0(FirstInput, 1);
    input->callback = callback;
    input->user_data = user_data;
    input->destroy = destroy;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_first_input, input, first_input_free);
    gst_object_unref(pad);
    return TRUE;
}

gboolean me_is_adaptive_demuxer(GstElement *element) {
    GstElementFactory *factory = gst_element_get_factory(element);
    const gchar *klass = factory ? gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS) : NULL;
    return klass && strstr(klass, "Demux") && strstr(klass, "Adaptive");
}

gboolean me_is_uri_source(GstElement *element) {
    return GST_IS_URI_HANDLER(element) && gst_uri_handler_get_uri_type(GST_URI_HANDLER(element)) == GST_URI_SRC;
}

void me_adaptive_start_at(GstElement *demuxer, guint start_kbps) {
    if (!me_object_find_property(demuxer, "connection-speed")) {
        return;
    }
    AdaptiveStart *start = g_new0(AdaptiveStart, 1);
    start->demuxer = demuxer;
    g_object_get(demuxer, "connection-speed", &start->then_kbps, NULL);
    g_object_set(demuxer, "connection-speed", start_kbps, NULL);
    // Freed with the demuxer: its pads, and their probes, go before it.
    g_signal_connect_data(demuxer, "pad-added", G_CALLBACK(on_adaptive_pad_added), start,
                          (GClosureNotify)(void (*)(void))g_free, 0);
}
