// What a window shows for a movie without video (MPMoviePlayerController's backgroundView): a
// frame of the player's background colour at every step of the sound, made by playbin's
// visualisation stage (GST_PLAY_FLAG_VIS), which playbin uses only when the movie has no video.
// A GstAudioVisualizer subclass: the base class times the frames from the sound and negotiates
// their size with the video output; this class only paints them.
#include "me_elements.h"
#include <gst/video/video.h>
#include <gst/audio/audio.h>
#include <gst/pbutils/gstaudiovisualizer.h>

typedef struct {
    GstAudioVisualizer parent;
    guint32 color; // ARGB; atomic: set from the player's thread, read by the streaming thread
} MeBackdrop;

typedef struct {
    GstAudioVisualizerClass parent_class;
} MeBackdropClass;

G_DEFINE_TYPE(MeBackdrop, me_backdrop, GST_TYPE_AUDIO_VISUALIZER)

enum { PROP_0, PROP_COLOR };

static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE("I420")));
static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE(
    "sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS("audio/x-raw, format = (string) " GST_AUDIO_NE(S16) ", layout = (string) interleaved, "
                    "rate = (int) [ 8000, 384000 ], channels = (int) [ 1, 8 ]"));

static void set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
    MeBackdrop *self = (MeBackdrop *)object;
    if (id == PROP_COLOR) g_atomic_int_set((gint *)&self->color, (gint)g_value_get_uint(value));
    else G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
}

static void get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
    MeBackdrop *self = (MeBackdrop *)object;
    if (id == PROP_COLOR) g_value_set_uint(value, (guint)g_atomic_int_get((gint *)&self->color));
    else G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
}

static void fill_plane(GstVideoFrame *frame, gint plane, guint8 value) {
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA(frame, plane);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(frame, plane);
    gint rows = GST_VIDEO_FRAME_COMP_HEIGHT(frame, plane);
    gint width = GST_VIDEO_FRAME_COMP_WIDTH(frame, plane);
    for (gint row = 0; row < rows; row++) memset(data + (gsize)row * stride, value, (gsize)width);
}

// The colour as BT.601 limited-range YUV, the frame painted with it.
static gboolean render(GstAudioVisualizer *scope, GstBuffer *audio, GstVideoFrame *video) {
    (void)audio;
    guint32 color = (guint32)g_atomic_int_get((gint *)&((MeBackdrop *)scope)->color);
    gdouble r = (color >> 16) & 0xff, g = (color >> 8) & 0xff, b = color & 0xff;
    gdouble y = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255;
    gdouble u = 128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255;
    gdouble v = 128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255;
    fill_plane(video, 0, (guint8)CLAMP(y + 0.5, 0, 255));
    fill_plane(video, 1, (guint8)CLAMP(u + 0.5, 0, 255));
    fill_plane(video, 2, (guint8)CLAMP(v + 0.5, 0, 255));
    return TRUE;
}

static void me_backdrop_class_init(MeBackdropClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    object_class->set_property = set_property;
    object_class->get_property = get_property;
    g_object_class_install_property(
        object_class, PROP_COLOR,
        g_param_spec_uint("color", "Colour", "The colour shown, ARGB", 0, G_MAXUINT32, 0xff000000,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
    gst_element_class_add_static_pad_template(element_class, &src_template);
    gst_element_class_add_static_pad_template(element_class, &sink_template);
    gst_element_class_set_static_metadata(element_class, "Media engine backdrop", "Visualization",
                                          "The player's background colour, for movies without video",
                                          ME_ELEMENT_AUTHOR);
    GST_AUDIO_VISUALIZER_CLASS(klass)->render = render;
}

static void me_backdrop_init(MeBackdrop *self) { self->color = 0xff000000; }

GType me_backdrop_get_type_public(void) { return me_backdrop_get_type(); }
