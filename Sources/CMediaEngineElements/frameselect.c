// meframeselect: lets through only the frames asked for: every Nth, or the first frame at or
// after each of a list of times. For the images sink, so that only chosen frames are encoded.
#include "me_elements.h"
#include <gst/base/gstbasetransform.h>
#include <stdlib.h>

enum { PROP_0, PROP_EVERY, PROP_TIMES };

typedef struct {
    GstBaseTransform parent;
    guint every;        // 0: use times
    GArray *times;      // GstClockTime, ascending
    guint64 counter;    // frames seen since the last flush (streaming thread only)
    guint next_time;    // index of the next time to deliver (streaming thread only)
} MeFrameSelect;

typedef struct {
    GstBaseTransformClass parent_class;
} MeFrameSelectClass;

G_DEFINE_TYPE(MeFrameSelect, me_frame_select, GST_TYPE_BASE_TRANSFORM)

static GstStaticPadTemplate any_sink = GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
static GstStaticPadTemplate any_src = GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

static gint compare_times(gconstpointer a, gconstpointer b) {
    GstClockTime x = *(const GstClockTime *)a, y = *(const GstClockTime *)b;
    return x < y ? -1 : x > y;
}

static void me_frame_select_set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
    MeFrameSelect *self = (MeFrameSelect *)object;
    GST_OBJECT_LOCK(self);
    switch (id) {
    case PROP_EVERY: self->every = g_value_get_uint(value); break;
    case PROP_TIMES: {
        // Seconds, comma-separated: "0.5,1,2.25".
        g_array_set_size(self->times, 0);
        const gchar *text = g_value_get_string(value);
        gchar **parts = g_strsplit(text ? text : "", ",", -1);
        for (gchar **part = parts; *part; part++) {
            if (**part == '\0') continue;
            // Converting a double outside the target's range is undefined in C: anything not a
            // finite, non-negative number of seconds below 2^63 ns is left out (the Swift side
            // refuses such times before they get here; gst-launch users get a warning).
            gchar *end = NULL;
            gdouble seconds = g_ascii_strtod(*part, &end);
            if (end == *part || !(seconds >= 0.0) || !(seconds * GST_SECOND < 9.2e18)) {
                GST_WARNING_OBJECT(self, "times: '%s' is not a number of seconds from 0 to 9.2e9", *part);
                continue;
            }
            GstClockTime time = (GstClockTime)(seconds * GST_SECOND);
            g_array_append_val(self->times, time);
        }
        g_strfreev(parts);
        g_array_sort(self->times, compare_times);
        break;
    }
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec); break;
    }
    GST_OBJECT_UNLOCK(self);
}

static void me_frame_select_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
    MeFrameSelect *self = (MeFrameSelect *)object;
    GST_OBJECT_LOCK(self);
    switch (id) {
    case PROP_EVERY: g_value_set_uint(value, self->every); break;
    case PROP_TIMES: g_value_set_string(value, ""); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec); break;
    }
    GST_OBJECT_UNLOCK(self);
}

static gboolean me_frame_select_sink_event(GstBaseTransform *trans, GstEvent *event) {
    MeFrameSelect *self = (MeFrameSelect *)trans;
    if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) {
        self->counter = 0;
    }
    return GST_BASE_TRANSFORM_CLASS(me_frame_select_parent_class)->sink_event(trans, event);
}

static GstFlowReturn me_frame_select_transform_ip(GstBaseTransform *trans, GstBuffer *buffer) {
    MeFrameSelect *self = (MeFrameSelect *)trans;
    GST_OBJECT_LOCK(self);
    guint every = self->every;
    gboolean keep = FALSE;
    if (every > 0) {
        keep = self->counter % every == 0;
    } else if (self->next_time < self->times->len && GST_BUFFER_PTS_IS_VALID(buffer)) {
        GstClockTime position = gst_segment_to_stream_time(&trans->segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
        GstClockTime end = GST_BUFFER_DURATION_IS_VALID(buffer) ? position + GST_BUFFER_DURATION(buffer) : position;
        // The frame on screen at a time: the first frame that ends after it.
        while (self->next_time < self->times->len &&
               g_array_index(self->times, GstClockTime, self->next_time) < MAX(end, position + 1)) {
            keep = TRUE;
            self->next_time++;
        }
    }
    self->counter++;
    GST_OBJECT_UNLOCK(self);
    if (!keep && GST_BUFFER_PTS_IS_VALID(buffer)) {
        // A gap in place of the dropped frame: the sink's position moves on as the movie does,
        // so the player does not take a sink that kept one frame in thirty for a movie cut short.
        gst_pad_push_event(GST_BASE_TRANSFORM_SRC_PAD(trans),
                           gst_event_new_gap(GST_BUFFER_PTS(buffer), GST_BUFFER_DURATION(buffer)));
    }
    return keep ? GST_FLOW_OK : GST_BASE_TRANSFORM_FLOW_DROPPED;
}

static void me_frame_select_finalize(GObject *object) {
    g_array_unref(((MeFrameSelect *)object)->times);
    G_OBJECT_CLASS(me_frame_select_parent_class)->finalize(object);
}

static void me_frame_select_class_init(MeFrameSelectClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    GstBaseTransformClass *transform_class = GST_BASE_TRANSFORM_CLASS(klass);
    object_class->set_property = me_frame_select_set_property;
    object_class->get_property = me_frame_select_get_property;
    object_class->finalize = me_frame_select_finalize;
    g_object_class_install_property(object_class, PROP_EVERY,
                                    g_param_spec_uint("every", "Every", "Keep every Nth frame (0: use times)", 0,
                                                      G_MAXUINT, 0, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
    g_object_class_install_property(object_class, PROP_TIMES,
                                    g_param_spec_string("times", "Times",
                                                        "Seconds, comma-separated (\"0.5,1,2.25\"): the first "
                                                        "frame at or after each passes (used when every is 0; "
                                                        "reads back empty)",
                                                        "",
                                                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
    gst_element_class_add_static_pad_template(element_class, &any_sink);
    gst_element_class_add_static_pad_template(element_class, &any_src);
    gst_element_class_set_static_metadata(element_class, "Media engine frame selector", "Filter/Video",
                                          "Lets through every Nth frame, or the frames at given times",
                                          ME_ELEMENT_AUTHOR);
    transform_class->transform_ip = me_frame_select_transform_ip;
    transform_class->sink_event = me_frame_select_sink_event;
    transform_class->passthrough_on_same_caps = FALSE;
}

static void me_frame_select_init(MeFrameSelect *self) {
    self->times = g_array_new(FALSE, FALSE, sizeof(GstClockTime));
    gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
}

GType me_frame_select_get_type_public(void) { return me_frame_select_get_type(); }
