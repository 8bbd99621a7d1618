// Volume changes without a click: a volume element's gain moved in a short linear ramp over the
// stream's time (a GstInterpolationControlSource bound to its `volume`), rather than jumped at a
// buffer boundary, which cuts a sine wave mid-swing. The control binding is removed again once
// the ramp is over (me_volume_settle), so that a later seek backwards does not meet the old
// gain in the ramp's past.
#include "me_volume.h"
#include <gst/base/gstbasetransform.h>
#include <gst/controller/gstdirectcontrolbinding.h>
#include <gst/controller/gstinterpolationcontrolsource.h>

void me_volume_ramp(GstElement *volume, gdouble target, GstClockTime now, GstClockTime duration) {
    GstObject *object = GST_OBJECT(volume);
    GstControlBinding *binding = gst_object_get_control_binding(object, "volume");
    GstControlSource *source = NULL;
    gdouble current = 1.0;
    g_object_get(volume, "volume", &current, NULL);
    if (binding) {
        g_object_get(binding, "control-source", &source, NULL);
        gdouble value;
        if (source && gst_control_source_get_value(source, now, &value)) current = value;
        gst_object_unref(binding);
    } else {
        source = gst_interpolation_control_source_new();
        g_object_set(source, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
        gst_object_add_control_binding(object, gst_direct_control_binding_new_absolute(object, "volume", source));
    }
    if (!source) return;
    // The element re-decides whether to pass buffers through untouched only when its gain
    // changes, so a ramp that starts at the current gain (1: passing through) would leave the
    // first buffer untouched and jump at the second (seen: 1 to 0.42 between two samples).
    // With a control binding it never passes through; say so now.
    gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(volume), FALSE);
    GstTimedValueControlSource *points = GST_TIMED_VALUE_CONTROL_SOURCE(source);
    gst_timed_value_control_source_unset_all(points);
    gst_timed_value_control_source_set(points, now, current);
    gst_timed_value_control_source_set(points, now + duration, target);
    gst_object_unref(source);
}

void me_volume_settle(GstElement *volume, gdouble target) {
    GstObject *object = GST_OBJECT(volume);
    GstControlBinding *binding = gst_object_get_control_binding(object, "volume");
    if (binding) {
        gst_object_remove_control_binding(object, binding);
        gst_object_unref(binding);
    }
    g_object_set(volume, "volume", target, NULL);
}

// MARK: ramps that start at a buffer boundary

// A ramp asked for while playing is started by the streaming thread itself, at the start of the
// next buffer to enter the element (a probe on its sink pad), so that no buffer is half old gain
// and half ramp: the element is a buffer or two ahead of what plays, and a ramp set from the
// player's thread at "now" began, in one run, in the middle of the buffer being processed.
typedef struct {
    GMutex lock;
    GstSegment segment;     // the last segment (streaming thread only)
    gboolean pending;       // under lock: a ramp waits for the next buffer
    gdouble target;         // under lock
    GstClockTime duration;  // under lock
    gboolean ramping;       // under lock: a ramp runs until ramp_end (stream time)
    GstClockTime ramp_end;  // under lock
    gdouble ramp_target;    // under lock
} VolumeWatch;

static void volume_watch_free(gpointer data) {
    VolumeWatch *watch = data;
    g_mutex_clear(&watch->lock);
    g_free(watch);
}

static GstPadProbeReturn on_volume_input(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    VolumeWatch *watch = user_data;
    if (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_BUFFER) {
        GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
        g_mutex_lock(&watch->lock);
        GstElement *volume = GST_PAD_PARENT(pad);
        guint64 start = GST_CLOCK_TIME_NONE;
        if (GST_BUFFER_PTS_IS_VALID(buffer) && watch->segment.format == GST_FORMAT_TIME) {
            start = gst_segment_to_stream_time(&watch->segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
        }
        if (volume && watch->ramping && GST_CLOCK_TIME_IS_VALID(start) && start >= watch->ramp_end) {
            // The ramp is behind this buffer: end it, so that a later seek backwards does not meet
            // the old gain in the ramp's past; the streaming thread does that too, at the first buffer past the
// ramp's end (or at a flush), since the ramp is in the stream's time, not the wall clock's.
            me_volume_settle(volume, watch->ramp_target);
            watch->ramping = FALSE;
        }
        if (volume && watch->pending && GST_CLOCK_TIME_IS_VALID(start)) {
            me_volume_ramp(volume, watch->target, start, watch->duration);
            watch->pending = FALSE;
            watch->ramping = TRUE;
            watch->ramp_end = start + watch->duration;
            watch->ramp_target = watch->target;
        }
        g_mutex_unlock(&watch->lock);
        return GST_PAD_PROBE_OK;
    }
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) == GST_EVENT_SEGMENT) {
        gst_event_copy_segment(event, &watch->segment);
    } else if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP || GST_EVENT_TYPE(event) == GST_EVENT_STREAM_START) {
        // A seek or the next movie: the stream's times start again; a ramp under way ends at once.
        g_mutex_lock(&watch->lock);
        GstElement *volume = GST_PAD_PARENT(pad);
        if (volume && watch->ramping) me_volume_settle(volume, watch->ramp_target);
        watch->ramping = FALSE;
        g_mutex_unlock(&watch->lock);
    }
    return GST_PAD_PROBE_OK;
}

void me_volume_watch(GstElement *volume) {
    GstPad *pad = gst_element_get_static_pad(volume, "sink");
    if (!pad) return;
    VolumeWatch *watch = g_new0(VolumeWatch, 1);
    g_mutex_init(&watch->lock);
    gst_segment_init(&watch->segment, GST_FORMAT_UNDEFINED);
    g_object_set_data(G_OBJECT(volume), "me-volume-watch", watch);
    gst_pad_add_probe(pad,
                      GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH,
                      on_volume_input, watch, volume_watch_free);
    gst_object_unref(pad);
}

void me_volume_request_ramp(GstElement *volume, gdouble target, GstClockTime duration) {
    VolumeWatch *watch = g_object_get_data(G_OBJECT(volume), "me-volume-watch");
    if (!watch) {
        me_volume_settle(volume, target);
        return;
    }
    g_mutex_lock(&watch->lock);
    watch->pending = TRUE;
    watch->target = target;
    watch->duration = duration;
    g_mutex_unlock(&watch->lock);
}

void me_volume_set_now(GstElement *volume, gdouble target) {
    VolumeWatch *watch = g_object_get_data(G_OBJECT(volume), "me-volume-watch");
    if (watch) g_mutex_lock(&watch->lock);
    me_volume_settle(volume, target);
    if (watch) {
        watch->pending = FALSE;
        watch->ramping = FALSE;
        g_mutex_unlock(&watch->lock);
    }
}
