// Encodes one RGBA picture held in memory as PNG or JPEG with GStreamer's own encoders, as the
// images sink does: appsrc ! videoconvert ! pngenc|jpegenc ! appsink, run to the one encoded
// buffer, then torn down. For VideoImage's pngData()/jpegData() (thumbnails, contact sheets).
#include "CGStreamerShim.h"
#include <string.h>

GBytes *me_encode_rgba(const guint8 *rgba, gint width, gint height, gint stride, gboolean jpeg, gint quality,
                       gchar **error) {
    *error = NULL;
    gchar *description = g_strdup_printf(
        "appsrc name=source format=time caps=video/x-raw,format=RGBA,width=%d,height=%d,framerate=0/1 ! "
        "videoconvert ! %s ! appsink name=sink sync=false",
        width, height, jpeg ? "jpegenc name=encoder" : "pngenc name=encoder compression-level=3");
    GError *parse_error = NULL;
    GstElement *pipeline = gst_parse_launch(description, &parse_error);
    g_free(description);
    if (!pipeline || parse_error) {
        *error = g_strdup(parse_error ? parse_error->message : "cannot build the image encoder");
        g_clear_error(&parse_error);
        if (pipeline) gst_object_unref(pipeline);
        return NULL;
    }
    GstElement *source = gst_bin_get_by_name(GST_BIN(pipeline), "source");
    GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    if (jpeg) {
        GstElement *encoder = gst_bin_get_by_name(GST_BIN(pipeline), "encoder");
        g_object_set(encoder, "quality", quality, NULL);
        gst_object_unref(encoder);
    }
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    // One copy into a buffer with the picture's own rows (GstVideoMeta would also do, but
    // pngenc reads the default layout).
    gsize row = (gsize)width * 4;
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, row * (gsize)height, NULL);
    GstMapInfo map;
    gst_buffer_map(buffer, &map, GST_MAP_WRITE);
    for (gint y = 0; y < height; y++) {
        memcpy(map.data + (gsize)y * row, rgba + (gsize)y * (gsize)stride, row);
    }
    gst_buffer_unmap(buffer, &map);
    GST_BUFFER_PTS(buffer) = 0;
    gst_app_src_push_buffer(GST_APP_SRC(source), buffer);
    gst_app_src_end_of_stream(GST_APP_SRC(source));
    GstSample *sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 10 * GST_SECOND);
    GBytes *bytes = NULL;
    if (sample) {
        GstBuffer *encoded = gst_sample_get_buffer(sample);
        GstMapInfo out;
        if (encoded && gst_buffer_map(encoded, &out, GST_MAP_READ)) {
            bytes = g_bytes_new(out.data, out.size);
            gst_buffer_unmap(encoded, &out);
        }
        gst_sample_unref(sample);
    }
    if (!bytes) {
        GstBus *bus = gst_element_get_bus(pipeline);
        GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
        if (message) {
            GError *failure = NULL;
            gst_message_parse_error(message, &failure, NULL);
            *error = g_strdup(failure ? failure->message : "the encoder failed");
            g_clear_error(&failure);
            gst_message_unref(message);
        } else {
            *error = g_strdup("the encoder gave no picture");
        }
        gst_object_unref(bus);
    }
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(source);
    gst_object_unref(sink);
    gst_object_unref(pipeline);
    return bytes;
}
