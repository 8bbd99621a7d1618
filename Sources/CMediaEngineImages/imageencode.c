// Encodes one RGBA picture held in memory as PNG or JPEG with GStreamer's own encoders (pngenc,
// jpegenc), as the images sink does, but driven directly on the caller's thread: a source pad of
// ours is linked to the encoder's sink pad and a sink pad of ours, with a chain function that
// keeps what arrives, to its source pad. Pushing a buffer runs the encoder's chain function on
// this thread, which pushes the encoded picture into ours before the push returns: no pipeline,
// no streaming thread, nothing to wait for (an appsrc ! ... ! appsink pipeline cost more to build
// than a thumbnail costs to encode, and made the caller wait on its streaming thread).
// jpegenc takes the RGBA bytes as RGBx (alpha ignored), pngenc as RGBA: no conversion.
// Encoders are kept between calls, one per format and size (the four most recent), one caller
// at a time each.
#include "me_image_encode.h"
#include <string.h>

typedef struct {
    GstElement *encoder;
    GstPad *source; // ours, linked to the encoder's sink pad
    GstPad *sink;   // ours, linked to the encoder's source pad
    gboolean jpeg;
    gint width, height, quality;
    GByteArray *output;
    gboolean started;
} Encoder;

#define ME_ENCODERS_KEPT 4
static GMutex encoders_lock;
static GSList *encoders; // idle ones

static GstFlowReturn keep_output(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
    (void)parent;
    Encoder *encoder = gst_pad_get_element_private(pad);
    GstMapInfo map;
    if (gst_buffer_map(buffer, &map, GST_MAP_READ)) {
        g_byte_array_append(encoder->output, map.data, (guint)map.size);
        gst_buffer_unmap(buffer, &map);
    }
    gst_buffer_unref(buffer);
    return GST_FLOW_OK;
}

static gboolean accept_event(GstPad *pad, GstObject *parent, GstEvent *event) {
    (void)pad;
    (void)parent;
    gst_event_unref(event);
    return TRUE;
}

static void encoder_free(Encoder *encoder) {
    gst_element_set_state(encoder->encoder, GST_STATE_NULL);
    gst_pad_set_active(encoder->source, FALSE);
    gst_pad_set_active(encoder->sink, FALSE);
    gst_object_unref(encoder->source);
    gst_object_unref(encoder->sink);
    gst_object_unref(encoder->encoder);
    g_byte_array_unref(encoder->output);
    g_free(encoder);
}

static Encoder *encoder_new(gboolean jpeg, gchar **error) {
    GstElement *element = gst_element_factory_make(jpeg ? "jpegenc" : "pngenc", NULL);
    if (!element) {
        *error = g_strdup_printf("no element \"%s\"", jpeg ? "jpegenc" : "pngenc");
        return NULL;
    }
    Encoder *encoder = g_new0(Encoder, 1);
    encoder->encoder = gst_object_ref_sink(element);
    encoder->jpeg = jpeg;
    encoder->output = g_byte_array_new();
    encoder->source = gst_object_ref_sink(gst_pad_new("source", GST_PAD_SRC));
    encoder->sink = gst_object_ref_sink(gst_pad_new("sink", GST_PAD_SINK));
    gst_pad_set_element_private(encoder->sink, encoder);
    gst_pad_set_chain_function(encoder->sink, keep_output);
    gst_pad_set_event_function(encoder->sink, accept_event);
    if (!jpeg) {
        g_object_set(element, "compression-level", 3, NULL);
    }
    GstPad *element_sink = gst_element_get_static_pad(element, "sink");
    GstPad *element_source = gst_element_get_static_pad(element, "src");
    gboolean linked = gst_pad_link(encoder->source, element_sink) == GST_PAD_LINK_OK &&
                      gst_pad_link(element_source, encoder->sink) == GST_PAD_LINK_OK;
    gst_object_unref(element_sink);
    gst_object_unref(element_source);
    gst_pad_set_active(encoder->source, TRUE);
    gst_pad_set_active(encoder->sink, TRUE);
    if (!linked || gst_element_set_state(element, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
        *error = g_strdup("the image encoder could not be started");
        encoder_free(encoder);
        return NULL;
    }
    return encoder;
}

// An encoder set up for this format and size (a caps change on a running encoder is refused as
// not-negotiated), or a new one.
static Encoder *take_encoder(gboolean jpeg, gint width, gint height, gchar **error) {
    g_mutex_lock(&encoders_lock);
    for (GSList *item = encoders; item; item = item->next) {
        Encoder *encoder = item->data;
        if (encoder->jpeg == jpeg && encoder->width == width && encoder->height == height) {
            encoders = g_slist_delete_link(encoders, item);
            g_mutex_unlock(&encoders_lock);
            return encoder;
        }
    }
    g_mutex_unlock(&encoders_lock);
    return encoder_new(jpeg, error);
}

// Kept as the most recent; the oldest beyond ME_ENCODERS_KEPT is freed.
static void return_encoder(Encoder *encoder) {
    Encoder *oldest = NULL;
    g_mutex_lock(&encoders_lock);
    encoders = g_slist_prepend(encoders, encoder);
    if (g_slist_length(encoders) > ME_ENCODERS_KEPT) {
        GSList *last = g_slist_last(encoders);
        oldest = last->data;
        encoders = g_slist_delete_link(encoders, last);
    }
    g_mutex_unlock(&encoders_lock);
    if (oldest) encoder_free(oldest);
}

GBytes *me_encode_rgba(const guint8 *rgba, gint width, gint height, gint stride, gboolean jpeg, gint quality,
                       gchar **error) {
    *error = NULL;
    Encoder *encoder = take_encoder(jpeg, width, height, error);
    if (!encoder) {
        return NULL;
    }
    if (!encoder->started) {
        gst_pad_push_event(encoder->source, gst_event_new_stream_start("me-image"));
        encoder->started = TRUE;
    }
    if (encoder->width == 0) {
        GstCaps *caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, jpeg ? "RGBx" : "RGBA", "width",
                                            G_TYPE_INT, width, "height", G_TYPE_INT, height, "framerate",
                                            GST_TYPE_FRACTION, 0, 1, NULL);
        gboolean accepted = gst_pad_push_event(encoder->source, gst_event_new_caps(caps));
        gst_caps_unref(caps);
        if (!accepted) {
            *error = g_strdup("the encoder refused the picture's format");
            encoder_free(encoder);
            return NULL;
        }
        GstSegment segment;
        gst_segment_init(&segment, GST_FORMAT_TIME);
        gst_pad_push_event(encoder->source, gst_event_new_segment(&segment));
        encoder->width = width;
        encoder->height = height;
    }
    if (jpeg && encoder->quality != quality) {
        g_object_set(encoder->encoder, "quality", quality, NULL);
        encoder->quality = quality;
    }
    gsize row = (gsize)width * 4;
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, row * (gsize)height, NULL);
    GstMapInfo map;
    gst_buffer_map(buffer, &map, GST_MAP_WRITE);
    for (gint y = 0; y < height; y++) {
        memcpy(map.data + (gsize)y * row, rgba + (gsize)y * (gsize)stride, row);
    }
    gst_buffer_unmap(buffer, &map);
    GST_BUFFER_PTS(buffer) = 0;
    g_byte_array_set_size(encoder->output, 0);
    GstFlowReturn result = gst_pad_push(encoder->source, buffer);
    if (result != GST_FLOW_OK || encoder->output->len == 0) {
        *error = g_strdup_printf("the encoder failed (%s)", gst_flow_get_name(result));
        encoder_free(encoder);
        return NULL;
    }
    GBytes *bytes = g_bytes_new(encoder->output->data, encoder->output->len);
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
