// The bin a player installs as playbin's video-sink (VideoOutputBin): a GstBin that takes a seek
// as one video sink would, sending it upstream from its own input, instead of into each sink it
// holds.
//
// playbin hands a seek to its sinks, and GstBin's send_event hands it on to every sink inside, at
// any depth. A sink only passes it upstream, so for an output that is one sink, or several behind
// a tee, where it enters makes no difference. For an output that muxes before its sink, it does:
// the seek enters hlssink2 at its file sink, reaches mpegtsmux's source pad from below, and
// GstAggregator applies it to its output segment (gst_aggregator_do_seek), the movie's range laid
// over the muxer's own timeline, which starts where the output started. The muxer pushes that
// segment after its next flush, which splitmuxsink gives it for every HLS segment, and from then
// on its file sink drops as out of segment every packet stamped past the seek's stop: with a
// looping movie (a segment seek to the movie's duration each pass) every HLS segment after the
// first loop came out empty, while the playlist listed each one as a full target duration.
//
// The SRT output (mpegtsmux ! srtsink, paced by srtsink) lost the same way after a seek: the
// second after a seek to 1 s of a looping movie was dropped, then everything once the muxer's
// clock passed 2 s. Its muxer now sees a flushing seek as the rest of the pipeline does, from
// upstream, and GStreamer 1.22's mpegtsmux then often stamps its first packet after the flush
// with its last timestamp before it: srtsink waits for the restarted clock to reach that time,
// and the stream resumes after about as long as it had played before the seek (2.1 s in the SRT
// listener test, where the frames then all come, in order). Left so: avoiding it means pacing
// the SRT output before its encoder, as the HLS output is, instead of at srtsink.
//
// Registered as the element "meoutputbin" (elements.c) so that gst-inspect-1.0 documents it; it
// has no pads of its own until the player ghosts its first element's "sink" pad, so it is of no
// use in a gst-launch-1.0 line.
#include "me_output_bin.h"
#include "me_elements.h"

enum { PROP_0, PROP_LAST_STREAM_TIME };

typedef struct {
    GstBin parent;
    GstSegment segment;       // the input's, on its streaming thread only (note_input)
    gint64 last_stream_time;  // atomic: the stream time of the last frame in, -1 for none since a flush
    // Set on the player's thread before the pipeline starts, read by note_input, freed with the bin.
    me_output_input_observer observer;
    gpointer observer_data;
    GDestroyNotify observer_destroy;
} MeVideoOutputBin;

typedef struct {
    GstBinClass parent_class;
} MeVideoOutputBinClass;

G_DEFINE_TYPE(MeVideoOutputBin, me_video_output_bin, GST_TYPE_BIN)

static gboolean me_video_output_bin_send_event(GstElement *element, GstEvent *event) {
    if (GST_EVENT_TYPE(event) != GST_EVENT_SEEK) {
        return GST_ELEMENT_CLASS(me_video_output_bin_parent_class)->send_event(element, event);
    }
    GstPad *input = gst_element_get_static_pad(element, "sink");
    if (!input) {
        // No input yet (the bin is being built): nothing upstream to take the seek.
        gst_event_unref(event);
        return FALSE;
    }
    // An upstream event pushed from a sink pad goes to its peer, as GstBaseSink sends a seek.
    gboolean sent = gst_pad_push_event(input, event);
    gst_object_unref(input);
    return sent;
}

static void clear_observer(MeVideoOutputBin *bin) {
    if (bin->observer_destroy) bin->observer_destroy(bin->observer_data);
    bin->observer = NULL;
    bin->observer_data = NULL;
    bin->observer_destroy = NULL;
}

static void me_video_output_bin_finalize(GObject *object) {
    clear_observer((MeVideoOutputBin *)object);
    G_OBJECT_CLASS(me_video_output_bin_parent_class)->finalize(object);
}

static void me_video_output_bin_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
    if (id == PROP_LAST_STREAM_TIME) {
        g_value_set_int64(value, me_video_output_bin_last_stream_time(GST_ELEMENT(object)));
    } else {
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    }
}

static void me_video_output_bin_class_init(MeVideoOutputBinClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    element_class->send_event = me_video_output_bin_send_event;
    object_class->finalize = me_video_output_bin_finalize;
    object_class->get_property = me_video_output_bin_get_property;
    g_object_class_install_property(
        object_class, PROP_LAST_STREAM_TIME,
        g_param_spec_int64("last-stream-time", "Last stream time",
                           "Stream time (ns) of the last frame that entered the bin's sink pad; -1 for none since "
                           "the last flush, or while its input is not watched",
                           -1, G_MAXINT64, -1, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
    gst_element_class_set_static_metadata(
        element_class, "Media engine video output", "Generic/Bin/Sink/Video",
        "A player's video output: takes a seek as one video sink would, pushing it upstream from its sink pad "
        "once instead of into each sink inside it, and notes where the movie stands by its video",
        ME_ELEMENT_AUTHOR);
}

static void me_video_output_bin_init(MeVideoOutputBin *bin) {
    gst_segment_init(&bin->segment, GST_FORMAT_UNDEFINED);
    bin->last_stream_time = -1;
}

// Where the movie stands by its video, whichever sink the bin holds: at the end of the stream a
// sink swapped in after the last frame has rendered nothing, and its position query then answers
// from upstream (0 where the demuxer has nothing better), which read as a movie cut short. The
// frame goes on to the observer, if any, with the same stream time (the closed captions).
static GstPadProbeReturn note_input(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    MeVideoOutputBin *bin = data;
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
        GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
        guint64 time = 0;
        gint64 stream_time = -1;
        if (bin->segment.format == GST_FORMAT_TIME && GST_BUFFER_PTS_IS_VALID(buffer) &&
            gst_segment_to_stream_time_full(&bin->segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer), &time) == 1 &&
            time <= G_MAXINT64) {
            stream_time = (gint64)time;
            __atomic_store_n(&bin->last_stream_time, stream_time, __ATOMIC_RELAXED);
        }
        if (bin->observer) bin->observer(bin->observer_data, ME_OUTPUT_INPUT_FRAME, buffer, stream_time);
        return GST_PAD_PROBE_OK;
    }
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) == GST_EVENT_SEGMENT) {
        const GstSegment *segment = NULL;
        gst_event_parse_segment(event, &segment);
        gst_segment_copy_into(segment, &bin->segment);
    } else if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) {
        __atomic_store_n(&bin->last_stream_time, -1, __ATOMIC_RELAXED);
        if (bin->observer) bin->observer(bin->observer_data, ME_OUTPUT_INPUT_FLUSHED, NULL, -1);
    } else if (GST_EVENT_TYPE(event) == GST_EVENT_STREAM_START) {
        if (bin->observer) bin->observer(bin->observer_data, ME_OUTPUT_INPUT_STREAM_STARTED, NULL, -1);
    }
    return GST_PAD_PROBE_OK;
}

void me_video_output_bin_set_input_observer(GstElement *element, me_output_input_observer observer, gpointer data,
                                            GDestroyNotify destroy) {
    MeVideoOutputBin *bin = (MeVideoOutputBin *)element;
    clear_observer(bin);
    bin->observer = observer;
    bin->observer_data = data;
    bin->observer_destroy = destroy;
}

void me_video_output_bin_watch_input(GstElement *element) {
    GstPad *input = gst_element_get_static_pad(element, "sink");
    if (!input) {
        return;
    }
    gst_pad_add_probe(input, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH,
                      note_input, element, NULL);
    gst_object_unref(input);
}

gint64 me_video_output_bin_last_stream_time(GstElement *element) {
    return __atomic_load_n(&((MeVideoOutputBin *)element)->last_stream_time, __ATOMIC_RELAXED);
}

GstElement *me_video_output_bin_new(const gchar *name) {
    return GST_ELEMENT(g_object_new(me_video_output_bin_get_type(), "name", name, NULL));
}

GType me_video_output_bin_get_type_public(void) { return me_video_output_bin_get_type(); }
