// The tags of one of playbin's audio or text streams: its get-audio-tags / get-text-tags action
// signals, which Swift cannot emit (varargs).
#include "me_tracks.h"

GstTagList *me_playbin_stream_tags(GstElement *playbin, gboolean text, gint index) {
    GstTagList *tags = NULL;
    g_signal_emit_by_name(playbin, text ? "get-text-tags" : "get-audio-tags", index, &tags);
    return tags;
}

// playsink decouples the audio from the video with a queue (`aqueue`) of GStreamer's default
// size, one second, after playbin's input selector: a new audio track (current-audio) was heard
// a second after it was chosen. The multiqueue before the selector keeps the buffering; this
// one only needs to absorb scheduling jitter.
#define ME_AUDIO_QUEUE_TIME (200 * GST_MSECOND)

static void on_element_setup(GstElement *playbin, GstElement *element, gpointer data) {
    (void)playbin;
    (void)data;
    GstElementFactory *factory = gst_element_get_factory(element);
    if (!factory || g_strcmp0(GST_OBJECT_NAME(factory), "queue") != 0) return;
    gchar *name = gst_element_get_name(element);
    if (g_strcmp0(name, "aqueue") == 0) {
        g_object_set(element, "max-size-time", (guint64)ME_AUDIO_QUEUE_TIME, "max-size-buffers", 0, "max-size-bytes", 0, NULL);
    }
    g_free(name);
}

void me_shorten_audio_queue(GstElement *playbin) {
    g_signal_connect(playbin, "element-setup", G_CALLBACK(on_element_setup), NULL);
}
