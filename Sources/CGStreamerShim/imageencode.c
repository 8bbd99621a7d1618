// Encodes one RGBA picture held in memory as PNG or JPEG with GStreamer's own encoders, as the
// images sink does: appsrc ! videoconvert ! pngenc|jpegenc ! appsink. Building and tearing
// down that pipeline cost more than encoding a thumbnail, so up to four are kept, playing,
// between calls (one per kind in use by each concurrent caller): a call takes one, pushes its
// picture (new caps when the size changed) and pulls the one encoded buffer.
#include "CGStreamerShim.h"
#include <string.h>

typedef struct {
    GstElement *pipeline;
    GstElement *source;
    GstElement *sink;
    GstElement *encoder;
    gboolean jpeg;
    gint width, height;
} Encoder;

#define ME_ENCODERS_KEPT 4
static GMutex encoders_lock;
static GSList *encoders; // idle ones

static void encoder_free(Encoder *encoder) {
    gst_element_set_state(encoder->pipeline, GST_STATE_NULL);
    gst_object_unref(encoder->source);
    gst_object_unref(encoder->sink);
    gst_object_unref(encoder->encoder);
    gst_object_unref(encoder->pipeline);
    g_free(encoder);
}

static Encoder *encoder_new(gboolean jpeg, gchar **error) {
    GError *parse_error = NULL;
    GstElement *pipeline = gst_parse_launch(
        jpeg ? "appsrc name=source format=time ! videoconvert ! jpegenc name=encoder ! appsink name=sink sync=false"
             : "appsrc name=source format=time ! videoconvert ! pngenc name=encoder compression-level=3 ! "
               "appsink name=sink sync=false",
        &parse_error);
    if (!pipeline || parse_error) {
        *error = g_strdup(parse_error ? parse_error->message : "cannot build the image encoder");
        g_clear_error(&parse_error);
        if (pipeline) gst_object_unref(pipeline);
        return NULL;
    }
    Encoder *encoder = g_new0(Encoder, 1);
    encoder->pipeline = pipeline;
    encoder->source = gst_bin_get_by_name(GST_BIN(pipeline), "source");
    encoder->sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    encoder->encoder = gst_bin_get_by_name(GST_BIN(pipeline), "encoder");
    encoder->jpeg = jpeg;
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    return encoder;
}

static Encoder *take_encoder(gboolean jpeg, gchar **error) {
    g_mutex_lock(&encoders_lock);
    for (GSList *item = encoders; item; item = item->next) {
        Encoder *encoder = item->data;
        if (encoder->jpeg == jpeg) {
            encoders = g_slist_delete_link(encoders, item);
            g_mutex_unlock(&encoders_lock);
            return encoder;
        }
    }
    g_mutex_unlock(&encoders_lock);
    return encoder_new(jpeg, error);
}

static void return_encoder(Encoder *encoder) {
    g_mutex_lock(&encoders_lock);
    if (g_slist_length(encoders) < ME_ENCODERS_KEPT) {
        encoders = g_slist_prepend(encoders, encoder);
        encoder = NULL;
    }
    g_mutex_unlock(&encoders_lock);
    if (encoder) encoder_free(encoder);
}

static gchar *pipeline_error(Encoder *encoder) {
    GstBus *bus = gst_element_get_bus(encoder->pipeline);
    GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    gchar *text = NULL;
    if (message) {
        GError *failure = NULL;
        gst_message_parse_error(message, &failure, NULL);
        text = g_strdup(failure ? failure->message : "the encoder failed");
        g_clear_error(&failure);
        gst_message_unref(message);
    }
    gst_object_unref(bus);
    return text ? text : g_strdup("the encoder gave no picture");
}

GBytes *me_encode_rgba(const guint8 *rgba, gint width, gint height, gint stride, gboolean jpeg, gint quality,
                       gchar **error) {
    *error = NULL;
    Encoder *encoder = take_encoder(jpeg, error);
    if (!encoder) {
        return NULL;
    }
    if (encoder->width != width || encoder->height != height) {
        GstCaps *caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, "RGBA", "width", G_TYPE_INT, width,
                                            "height", G_TYPE_INT, height, "framerate", GST_TYPE_FRACTION, 0, 1, NULL);
        g_object_set(encoder->source, "caps", caps, NULL);
        gst_caps_unref(caps);
        encoder->width = width;
        encoder->height = height;
    }
    if (jpeg) {
        g_object_set(encoder->encoder, "quality", quality, NULL);
    }
    gsize row = (gsize)width * 4;
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, row * (gsize)height, NULL);
    GstMapInfo map;
    gst_buffer_map(buffer, &map, GST_MAP_WRITE);
    for (gint y = 0; y < height; y++) {
        memcpy(map.data + (gsize)y * row, rgba + (gsize)y * (gsize)stride, row);
    }
    gst_buffer_unmap(buffer, &map);
    gst_app_src_push_buffer(GST_APP_SRC(encoder->source), buffer);
    GstSample *sample = gst_app_sink_try_pull_sample(GST_APP_SINK(encoder->sink), 10 * GST_SECOND);
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
        *error = pipeline_error(encoder);
        encoder_free(encoder); // in an unknown state: not kept
        return NULL;
    }
    return_encoder(encoder);
    return bytes;
}

void me_release_image_encoders(void) {
    g_mutex_lock(&encoders_lock);
    GSList *idle = encoders;
    encoders = NULL;
    g_mutex_unlock(&encoders_lock);
    g_slist_free_full(idle, (GDestroyNotify)encoder_free);
}
