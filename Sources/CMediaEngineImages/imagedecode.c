// Decodes a still image (PNG, JPEG, anything decodebin knows) held in memory to one RGBA
// sample, for image overlays: appsrc ! decodebin ! videoconvert ! RGBA ! appsink, run to the
// first frame or the first error, then torn down.
#include "me_image_decode.h"
#include "me_frame_limit.h"
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

GstSample *me_decode_image(
    const guint8 *data, gsize size, guint64 timeout_ns, guint max_side, guint64 max_pixels, gchar **error) {
    *error = NULL;
    GError *parse_error = NULL;
    GstElement *pipeline = gst_parse_launch(
        "appsrc name=source ! decodebin ! videoconvert name=convert ! video/x-raw,format=RGBA ! appsink name=sink "
        "sync=false",
        &parse_error);
    if (!pipeline) {
        *error = g_strdup(parse_error ? parse_error->message : "cannot build the image decoder");
        g_clear_error(&parse_error);
        return NULL;
    }
    g_clear_error(&parse_error);
    GstElement *source = gst_bin_get_by_name(GST_BIN(pipeline), "source");
    GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    // A header may claim any size: the decoder is refused one it could not allocate (framelimit.c).
    GstElement *convert = gst_bin_get_by_name(GST_BIN(pipeline), "convert");
    GstPad *input = gst_element_get_static_pad(convert, "sink");
    me_limit_frame_size(input, pipeline, max_side, max_pixels);
    gst_object_unref(input);
    gst_object_unref(convert);
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    GstBuffer *buffer = gst_buffer_new_memdup(data, size);
    gst_app_src_push_buffer(GST_APP_SRC(source), buffer);
    gst_app_src_end_of_stream(GST_APP_SRC(source));
    GstSample *sample = NULL;
    GstBus *bus = gst_element_get_bus(pipeline);
    gint64 deadline = g_get_monotonic_time() + (gint64)(timeout_ns / 1000);
    while (!sample && !*error) {
        sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 20 * GST_MSECOND);
        if (sample) {
            break;
        }
        GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
        if (message) {
            if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
                GError *failure = NULL;
                gst_message_parse_error(message, &failure, NULL);
                *error = g_strdup(failure ? failure->message : "the image cannot be decoded");
                g_clear_error(&failure);
            } else if (gst_app_sink_is_eos(GST_APP_SINK(sink))) {
                *error = g_strdup("the data holds no picture");
            }
            gst_message_unref(message);
        }
        if (!sample && !*error && g_get_monotonic_time() > deadline) {
            *error = g_strdup("decoding the image timed out");
        }
    }
    gst_object_unref(bus);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(source);
    gst_object_unref(sink);
    gst_object_unref(pipeline);
    return sample;
}
