// Workaround "keyframe-flags": keyframe marks on decoded pictures.
//
// The bug: decoders (avdec_*, vp8dec, the engine's own) take the DELTA_UNIT flag off their input
// but never put it on the pictures they output, so every raw frame looks like a keyframe.
// GstVideoDecoder clears the flag on every output buffer (gst_video_decoder_finish_frame:
// GST_BUFFER_FLAG_UNSET (output_buffer, GST_BUFFER_FLAG_DELTA_UNIT)). A probe on a video decoder's
// sink pad remembers the timestamps of the keyframes going in; one on its source pad flags every
// picture whose timestamp is not among them as a delta unit. Decoders keep each picture's
// timestamp, reordered or not.
//
// Versions: every release (seen on 1.22.0); unfixed as of 1.29.2 (main, 2026-08), where
// gstvideodecoder.c still clears the flag. No upstream issue found.
//
// How it was found: VideoFrame.isKeyframe was true for 300 of 300 frames of a movie with a
// keyframe every 30 (commit e66985e, 2026-11-30; tested on H.264 with and without B-frames and
// on VP8).
//
// Off: me_mark_keyframes_in is not installed; every delivered frame says isKeyframe
// (LibavDecoderTests' "only pictures that were keyframes going in" fails so).
// WorkaroundReproductionTests' keyframe-flags test (engine-workaround-check, forced off and on):
// off, 60 of 60 frames say keyframe; on, frames 0, 10, ... 50.
#include "me_keyframes.h"
#include "me_element_info.h"
#include <string.h>

// More than any decoder keeps pictures in flight (H.264 reorders at most 16).
#define ME_KEYFRAME_SLOTS 64

typedef struct {
    GMutex lock; // the sink and source probes may run on different threads (frame-threaded decoders)
    GstClockTime times[ME_KEYFRAME_SLOTS];
    guint next;
} KeyframeTimes;

static KeyframeTimes *keyframe_times_new(void) {
    KeyframeTimes *times = g_new0(KeyframeTimes, 1);
    g_mutex_init(&times->lock);
    for (guint i = 0; i < ME_KEYFRAME_SLOTS; i++) {
        times->times[i] = GST_CLOCK_TIME_NONE;
    }
    return times;
}

static void keyframe_times_free(gpointer data) {
    KeyframeTimes *times = data;
    g_mutex_clear(&times->lock);
    g_free(times);
}

static GstPadProbeReturn remember_keyframe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    KeyframeTimes *times = data;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (GST_BUFFER_PTS_IS_VALID(buffer) && !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT)) {
        g_mutex_lock(&times->lock);
        times->times[times->next] = GST_BUFFER_PTS(buffer);
        times->next = (times->next + 1) % ME_KEYFRAME_SLOTS;
        g_mutex_unlock(&times->lock);
    }
    return GST_PAD_PROBE_OK;
}

static gboolean take_keyframe(KeyframeTimes *times, GstClockTime pts) {
    gboolean found = FALSE;
    g_mutex_lock(&times->lock);
    for (guint i = 0; i < ME_KEYFRAME_SLOTS; i++) {
        if (times->times[i] == pts) {
            times->times[i] = GST_CLOCK_TIME_NONE;
            found = TRUE;
            break;
        }
    }
    g_mutex_unlock(&times->lock);
    return found;
}

static GstPadProbeReturn mark_picture(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (!GST_BUFFER_PTS_IS_VALID(buffer)) {
        return GST_PAD_PROBE_OK;
    }
    gboolean delta = !take_keyframe(data, GST_BUFFER_PTS(buffer));
    if (delta != GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT)) {
        // Writable in place when the decoder handed its only reference on (it does); a shared
        // buffer is copied shallowly (its memories are shared, not copied).
        buffer = gst_buffer_make_writable(buffer);
        if (delta) {
            GST_BUFFER_FLAG_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
        } else {
            GST_BUFFER_FLAG_UNSET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
        }
        GST_PAD_PROBE_INFO_DATA(info) = buffer;
    }
    return GST_PAD_PROBE_OK;
}

void me_mark_keyframes(GstElement *decoder) {
    GstPad *sink = gst_element_get_static_pad(decoder, "sink");
    GstPad *src = gst_element_get_static_pad(decoder, "src");
    if (sink && src) {
        KeyframeTimes *times = keyframe_times_new();
        // The source pad's probe owns the table; the sink pad's probe is removed with the decoder too.
        gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_BUFFER, remember_keyframe, times, NULL);
        gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_BUFFER, mark_picture, times, keyframe_times_free);
    }
    if (sink) {
        gst_object_unref(sink);
    }
    if (src) {
        gst_object_unref(src);
    }
}

// Every video decoder added anywhere in `bin` (decodebin's choice) is watched as it is added.
static void on_deep_element_added(GstBin *bin, GstBin *sub_bin, GstElement *element, gpointer user_data) {
    (void)bin;
    (void)sub_bin;
    (void)user_data;
    const gchar *klass = me_element_klass(element);
    if (klass && strstr(klass, "Decoder") && strstr(klass, "Video")) {
        me_mark_keyframes(element);
    }
}

void me_mark_keyframes_in(GstElement *bin) {
    g_signal_connect(bin, "deep-element-added", G_CALLBACK(on_deep_element_added), NULL);
}
