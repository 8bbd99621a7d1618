// Thumbnail pipelines: `uridecodebin (video only) ! fakesink`, driven by flushing seeks, one
// picture per seek. Two probes decide, in C on the streaming threads, which picture answers:
//
// - on the video decoder's input: after the seek's flush, a keyframe request lets exactly one
//   keyframe into the decoder, an exact one every picture up to the target (in decode order);
//   then an EOS is sent into the decoder so it drains at once (libav's frame threads hold
//   pictures back), and every further buffer is refused with GST_FLOW_EOS, which stops the
//   demuxer: nothing past the answer is decoded.
// - on the sink's input: keeps the last picture at or before the target (exact) or the first
//   one (keyframe), hands it to the waiting thread as a GstSample and refuses the rest.
//
// Audio, text and subtitle streams are never decoded (autoplug-continue stops them at the
// demuxer, unlinked), and the seek is ACCURATE, not KEY_UNIT: qtdemux's KEY_UNIT seek takes the
// earliest keyframe over *all* streams, so with sound it lands on an audio packet before the
// video keyframe and decodes a whole GOP. An ACCURATE seek puts each stream on its own keyframe
// at or before the time; the probes rewrite the segment so the decoder clips nothing, and pick
// the picture themselves.
#include "me_thumbnails.h"
#include "me_decoder_preference.h"
#include "me_element_info.h"
#include "me_stalled_demuxer.h"
#include "me_workarounds.h"
#include <gst/video/video.h>
#include <string.h>

typedef enum { STATE_IDLE, STATE_SEEKING, STATE_RUNNING, STATE_DRAINING, STATE_DONE } CaptureState;

struct MeThumbnailer {
    GstElement *pipeline;
    GstElement *decodebin;
    GstElement *sink;
    GMutex lock;
    GCond changed;
    // Under `lock`:
    CaptureState state;
    gboolean exact;
    GstClockTime target;     // stream time asked for
    GstClockTime target_pts; // the same in buffer time, once the seek's segment is known
    gboolean passed_keyframe;
    GstBuffer *candidate;    // exact: the latest picture at or before the target
    GstSample *answer;
    gboolean reached_end;
    gboolean cancelled;
    gboolean async_done;
    gboolean video_linked;
    gboolean decoder_watched;
    gboolean decoder_has_caps; // decodebin exposes the stream only once the decoder has output caps
    gboolean opening_ended;    // the stream ended while opening, before the decoder had caps
    guint other_pads;          // exposed streams that are not video
    gchar *stream_caps;        // what typefind found
    GstMessage *error;       // the first ERROR since the last capture began
    gint orientation;        // ME_THUMBNAIL_ORIENTATION_*
    GstSegment segment;      // the sink's latest segment
    GstCaps *caps;           // the sink's latest caps
    guint pictures_decoded;  // pictures that came out of the decoder for the latest capture
};

static gint orientation_from_tag(const gchar *value) {
    static const struct {
        const gchar *name;
        gint code;
    } names[] = {
        {"rotate-0", 0},      {"rotate-90", 1},      {"rotate-180", 2},      {"rotate-270", 3},
        {"flip-rotate-0", 4}, {"flip-rotate-90", 5}, {"flip-rotate-180", 6}, {"flip-rotate-270", 7},
    };
    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        if (g_str_equal(value, names[i].name)) {
            return names[i].code;
        }
    }
    return 0;
}

// Called under the lock: a picture was chosen (or none), wake the waiting thread.
static void finish(MeThumbnailer *t, GstBuffer *picture) {
    if (picture && t->caps) {
        t->answer = gst_sample_new(picture, t->caps, &t->segment, NULL);
    } else if (!picture) {
        t->reached_end = TRUE;
    }
    g_clear_pointer(&t->candidate, gst_buffer_unref);
    t->state = STATE_DONE;
    g_cond_broadcast(&t->changed);
}

// The seek's segment, in buffer time: where the target lies, and a segment that clips nothing
// before it (the probes choose the picture) with the same buffer-to-stream-time mapping.
static GstEvent *open_segment(MeThumbnailer *t, GstEvent *event) {
    const GstSegment *original = NULL;
    gst_event_parse_segment(event, &original);
    if (original->format != GST_FORMAT_TIME || original->rate < 0) {
        return event;
    }
    if (!GST_CLOCK_TIME_IS_VALID(t->target_pts)) {
        guint64 position = 0;
        if (gst_segment_position_from_stream_time_full(original, GST_FORMAT_TIME, t->target, &position) == 1) {
            t->target_pts = position;
        } else {
            t->target_pts = original->start;
        }
    }
    GstSegment segment;
    gst_segment_copy_into(original, &segment);
    guint64 shift = MIN(segment.start, segment.time);
    segment.start -= shift;
    segment.time -= shift;
    segment.position = segment.start;
    GstEvent *rewritten = gst_event_new_segment(&segment);
    gst_event_set_seqnum(rewritten, gst_event_get_seqnum(event));
    gst_event_unref(event);
    return rewritten;
}

static GstPadProbeReturn refuse(GstPadProbeInfo *info) {
    gst_buffer_unref(GST_PAD_PROBE_INFO_BUFFER(info));
    GST_PAD_PROBE_INFO_DATA(info) = NULL;
    GST_PAD_PROBE_INFO_FLOW_RETURN(info) = GST_FLOW_EOS;
    return GST_PAD_PROBE_HANDLED;
}

static GstPadProbeReturn on_decoder_input(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    MeThumbnailer *t = data;
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
        GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
        gboolean keyframe = !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
        gboolean drain = FALSE;
        g_mutex_lock(&t->lock);
        if (t->state == STATE_IDLE && !t->decoder_has_caps) {
            // Opening: the decoder must decode until it knows its output caps, or decodebin
            // never exposes the stream.
            g_mutex_unlock(&t->lock);
            return GST_PAD_PROBE_OK;
        }
        if (t->state != STATE_RUNNING) {
            g_mutex_unlock(&t->lock);
            return refuse(info);
        }
        if (!t->exact) {
            if (t->passed_keyframe) {
                drain = TRUE;
            } else if (!keyframe) {
                g_mutex_unlock(&t->lock);
                return GST_PAD_PROBE_DROP; // cannot be decoded alone; wait for a keyframe
            } else {
                t->passed_keyframe = TRUE;
            }
        } else {
            GstClockTime order = GST_BUFFER_DTS_IS_VALID(buffer) ? GST_BUFFER_DTS(buffer) : GST_BUFFER_PTS(buffer);
            // In decode order, once a picture is decoded after the target, every picture shown
            // at or before it has gone in (a picture is never shown before it is decoded).
            if (t->passed_keyframe && GST_CLOCK_TIME_IS_VALID(order) && GST_CLOCK_TIME_IS_VALID(t->target_pts) &&
                order > t->target_pts) {
                drain = TRUE;
            } else if (!t->passed_keyframe && !keyframe) {
                g_mutex_unlock(&t->lock);
                return GST_PAD_PROBE_DROP;
            } else {
                t->passed_keyframe = TRUE;
            }
        }
        if (drain) {
            t->state = STATE_DRAINING;
        }
        g_mutex_unlock(&t->lock);
        if (drain) {
            // Serialized on this streaming thread (the stream lock is recursive); the decoder
            // pushes what it holds before this returns.
            gst_pad_send_event(pad, gst_event_new_eos());
            return refuse(info);
        }
        return GST_PAD_PROBE_OK;
    }
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    GstPadProbeReturn result = GST_PAD_PROBE_OK;
    g_mutex_lock(&t->lock);
    switch (GST_EVENT_TYPE(event)) {
    case GST_EVENT_FLUSH_STOP:
        if (t->state == STATE_SEEKING) {
            t->state = STATE_RUNNING;
        }
        break;
    case GST_EVENT_SEGMENT:
        if (t->state == STATE_RUNNING) {
            GST_PAD_PROBE_INFO_DATA(info) = open_segment(t, event);
        }
        break;
    case GST_EVENT_TAG: {
        GstTagList *tags = NULL;
        gchar *value = NULL;
        gst_event_parse_tag(event, &tags);
        if (tags && gst_tag_list_get_string(tags, GST_TAG_IMAGE_ORIENTATION, &value)) {
            t->orientation = orientation_from_tag(value);
            g_free(value);
        }
        break;
    }
    case GST_EVENT_EOS:
        // The demuxer's end (a time past the last picture) drains the decoder as ours does;
        // any EOS outside a capture stays out of the decoder, except while opening: a decoder
        // that never got a picture out must see the end too.
        if (t->state == STATE_IDLE && !t->decoder_has_caps) {
            t->opening_ended = TRUE;
            g_cond_broadcast(&t->changed);
        } else if (t->state == STATE_RUNNING) {
            t->state = STATE_DRAINING;
        } else if (t->state != STATE_DRAINING) {
            result = GST_PAD_PROBE_DROP;
        }
        break;
    default:
        break;
    }
    g_mutex_unlock(&t->lock);
    return result;
}

static GstPadProbeReturn on_sink_input(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    MeThumbnailer *t = data;
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
        GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
        g_mutex_lock(&t->lock);
        if (t->state != STATE_RUNNING && t->state != STATE_DRAINING) {
            g_mutex_unlock(&t->lock);
            return refuse(info);
        }
        t->pictures_decoded++;
        GstClockTime pts = GST_BUFFER_PTS(buffer);
        if (!t->exact) {
            finish(t, buffer);
            g_mutex_unlock(&t->lock);
            return refuse(info);
        }
        if (GST_CLOCK_TIME_IS_VALID(pts) && GST_CLOCK_TIME_IS_VALID(t->target_pts) && pts <= t->target_pts) {
            if (t->candidate) {
                gst_buffer_unref(t->candidate);
            }
            t->candidate = buffer; // keeps the probe's reference
            GST_PAD_PROBE_INFO_DATA(info) = NULL;
            GST_PAD_PROBE_INFO_FLOW_RETURN(info) = GST_FLOW_OK;
            g_mutex_unlock(&t->lock);
            return GST_PAD_PROBE_HANDLED;
        }
        // The first picture after the target: the one before it was on screen at the target
        // (or, asked for a time before the first picture, this one is the first).
        finish(t, t->candidate ? t->candidate : buffer);
        g_mutex_unlock(&t->lock);
        return refuse(info);
    }
    if (info->type & GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM) {
        // Tell the decoder its pictures may come with GstVideoMeta (their own strides), so the
        // engine's decoders hand them over without a copy.
        GstQuery *query = GST_PAD_PROBE_INFO_QUERY(info);
        if (GST_QUERY_TYPE(query) == GST_QUERY_ALLOCATION) {
            gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, NULL);
        }
        return GST_PAD_PROBE_OK;
    }
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    GstPadProbeReturn result = GST_PAD_PROBE_OK;
    g_mutex_lock(&t->lock);
    switch (GST_EVENT_TYPE(event)) {
    case GST_EVENT_FLUSH_STOP:
        if (t->state == STATE_SEEKING) {
            t->state = STATE_RUNNING; // no decoder probe (raw video)
        }
        break;
    case GST_EVENT_SEGMENT:
        if (t->state == STATE_RUNNING && !t->decoder_watched) {
            GST_PAD_PROBE_INFO_DATA(info) = event = open_segment(t, event);
        }
        {
            const GstSegment *segment = NULL;
            gst_event_parse_segment(event, &segment);
            gst_segment_copy_into(segment, &t->segment);
        }
        break;
    case GST_EVENT_CAPS: {
        GstCaps *caps = NULL;
        gst_event_parse_caps(event, &caps);
        gst_caps_replace(&t->caps, caps);
        break;
    }
    case GST_EVENT_EOS:
        if (t->state == STATE_RUNNING || t->state == STATE_DRAINING) {
            finish(t, t->candidate);
        }
        result = GST_PAD_PROBE_DROP;
        break;
    default:
        break;
    }
    g_mutex_unlock(&t->lock);
    return result;
}

static GstPadProbeReturn on_decoder_output(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    MeThumbnailer *t = data;
    if (GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info)) == GST_EVENT_CAPS) {
        g_mutex_lock(&t->lock);
        t->decoder_has_caps = TRUE;
        g_mutex_unlock(&t->lock);
    }
    return GST_PAD_PROBE_OK;
}

static void on_have_type(GstElement *typefind, guint probability, GstCaps *caps, gpointer data) {
    (void)typefind;
    (void)probability;
    MeThumbnailer *t = data;
    gchar *text = gst_caps_to_string(caps);
    g_mutex_lock(&t->lock);
    if (!t->stream_caps) {
        t->stream_caps = text;
        text = NULL;
    }
    g_mutex_unlock(&t->lock);
    g_free(text);
}

static void on_deep_element_added(GstBin *bin, GstBin *sub_bin, GstElement *element, gpointer data) {
    (void)bin;
    (void)sub_bin;
    MeThumbnailer *t = data;
    const gchar *name = me_element_factory_name(element);
    if (name && g_str_equal(name, "typefind")) {
        g_signal_connect(element, "have-type", G_CALLBACK(on_have_type), t);
        return;
    }
    const gchar *klass = me_element_klass(element);
    if (!klass || !strstr(klass, "Decoder") || !strstr(klass, "Video")) {
        return;
    }
    g_mutex_lock(&t->lock);
    gboolean first = !t->decoder_watched;
    t->decoder_watched = TRUE;
    g_mutex_unlock(&t->lock);
    GstPad *pad = first ? gst_element_get_static_pad(element, "sink") : NULL;
    if (pad) {
        gst_pad_add_probe(pad,
                          GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM |
                              GST_PAD_PROBE_TYPE_EVENT_FLUSH,
                          on_decoder_input, t, NULL);
        gst_object_unref(pad);
        GstPad *src = gst_element_get_static_pad(element, "src");
        if (src) {
            gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_decoder_output, t, NULL);
            gst_object_unref(src);
        }
    }
}

// Stops every stream but video at the demuxer: it is exposed compressed and left unlinked.
static gboolean on_autoplug_continue(GstElement *bin, GstPad *pad, GstCaps *caps, gpointer data) {
    (void)bin;
    (void)pad;
    (void)data;
    const gchar *name = gst_structure_get_name(gst_caps_get_structure(caps, 0));
    return !(g_str_has_prefix(name, "audio/") || g_str_has_prefix(name, "text/") ||
             g_str_has_prefix(name, "subpicture/") || g_str_has_prefix(name, "subtitle/") ||
             g_str_has_prefix(name, "application/x-subtitle"));
}

// A stream the thumbnails do not use (sound, text): nothing of it goes past the pad that feeds the
// first ghost pad exposing it. Its buffers are answered NOT_LINKED, as an unlinked pad would (so
// the demuxer still stops once video refuses too), and its serialized events are dropped there.
// Let through, its first caps event went on through decodebin's and uridecodebin's ghost pads;
// meeting a capture's flushing seek there (past one pad's flushing check, at the next pad already
// flushing), it failed, GStreamer 1.22 reports a failed caps event as not-negotiated, multiqueue
// kept that result over the flush's, and the demuxer stopped with an error ("streaming stopped,
// reason not-negotiated"): the capture failed, 5 times in 1,200 openings with a core busy
// (engine-leak-check thumbnails; 0 in 1,600 with this probe).
static GstPadProbeReturn on_unused_stream(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    (void)data;
    if (info->type & (GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST)) {
        gst_mini_object_unref(GST_MINI_OBJECT(GST_PAD_PROBE_INFO_DATA(info)));
        GST_PAD_PROBE_INFO_DATA(info) = NULL;
        GST_PAD_PROBE_INFO_FLOW_RETURN(info) = GST_FLOW_NOT_LINKED;
        return GST_PAD_PROBE_HANDLED;
    }
    return GST_PAD_PROBE_DROP;
}

// The innermost pad behind a chain of ghost pads: the element's own pad that feeds them.
static GstPad *innermost_target(GstPad *pad) {
    GstPad *current = gst_object_ref(pad);
    while (GST_IS_GHOST_PAD(current)) {
        GstPad *target = gst_ghost_pad_get_target(GST_GHOST_PAD(current));
        if (!target) {
            break;
        }
        gst_object_unref(current);
        current = target;
    }
    return current;
}

static void on_pad_added(GstElement *bin, GstPad *pad, gpointer data) {
    (void)bin;
    MeThumbnailer *t = data;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (!caps) {
        caps = gst_pad_query_caps(pad, NULL);
    }
    gboolean video = caps && gst_caps_get_size(caps) > 0 &&
                     g_str_has_prefix(gst_structure_get_name(gst_caps_get_structure(caps, 0)), "video/x-raw");
    if (caps) {
        gst_caps_unref(caps);
    }
    g_mutex_lock(&t->lock);
    gboolean link = video && !t->video_linked;
    t->video_linked = t->video_linked || link;
    if (!video) {
        t->other_pads++;
    }
    g_mutex_unlock(&t->lock);
    if (link) {
        GstPad *sinkpad = gst_element_get_static_pad(t->sink, "sink");
        gst_pad_link(pad, sinkpad);
        gst_object_unref(sinkpad);
    } else {
        // Added before decodebin lets the stream flow (it unblocks its pads after exposing them).
        GstPad *feeding = innermost_target(pad);
        gst_pad_add_probe(feeding,
                          GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST |
                              GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
                          on_unused_stream, NULL, NULL);
        gst_object_unref(feeding);
    }
}

static GstBusSyncReply on_message(GstBus *bus, GstMessage *message, gpointer data) {
    (void)bus;
    MeThumbnailer *t = data;
    g_mutex_lock(&t->lock);
    switch (GST_MESSAGE_TYPE(message)) {
    case GST_MESSAGE_ERROR:
        if (!t->error) {
            t->error = gst_message_ref(message);
        }
        g_cond_broadcast(&t->changed);
        break;
    case GST_MESSAGE_ASYNC_DONE:
        t->async_done = TRUE;
        g_cond_broadcast(&t->changed);
        break;
    default:
        break;
    }
    g_mutex_unlock(&t->lock);
    // A sync handler that drops a message owns it (GstBusSyncHandler's contract): each one it
    // did not unref kept its source, and so the whole pipeline, alive.
    gst_message_unref(message);
    return GST_BUS_DROP;
}

MeThumbnailer *me_thumbnailer_new(const gchar *uri) {
    MeThumbnailer *t = g_new0(MeThumbnailer, 1);
    g_mutex_init(&t->lock);
    g_cond_init(&t->changed);
    gst_segment_init(&t->segment, GST_FORMAT_TIME);
    t->target_pts = GST_CLOCK_TIME_NONE;
    t->pipeline = gst_pipeline_new("me-thumbnails");
    me_prefer_engine_decoders(t->pipeline);
    t->decodebin = gst_element_factory_make("uridecodebin", NULL);
    t->sink = gst_element_factory_make("fakesink", NULL);
    if (!t->decodebin || !t->sink) {
        if (t->decodebin) gst_object_unref(gst_object_ref_sink(t->decodebin));
        if (t->sink) gst_object_unref(gst_object_ref_sink(t->sink));
        gst_object_unref(t->pipeline);
        g_mutex_clear(&t->lock);
        g_cond_clear(&t->changed);
        g_free(t);
        return NULL;
    }
    // The sink never sees a buffer (the probe takes them all), so it never prerolls: not async.
    g_object_set(t->sink, "sync", FALSE, "async", FALSE, "enable-last-sample", FALSE, NULL);
    g_object_set(t->decodebin, "uri", uri, NULL);
    gst_bin_add_many(GST_BIN(t->pipeline), t->decodebin, t->sink, NULL);
    g_signal_connect(t->decodebin, "autoplug-continue", G_CALLBACK(on_autoplug_continue), t);
    g_signal_connect(t->decodebin, "pad-added", G_CALLBACK(on_pad_added), t);
    g_signal_connect(t->pipeline, "deep-element-added", G_CALLBACK(on_deep_element_added), t);
    GstPad *sinkpad = gst_element_get_static_pad(t->sink, "sink");
    gst_pad_add_probe(sinkpad,
                      GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH |
                          GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
                      on_sink_input, t, NULL);
    gst_object_unref(sinkpad);
    GstBus *bus = gst_element_get_bus(t->pipeline);
    gst_bus_set_sync_handler(bus, on_message, t, NULL);
    gst_object_unref(bus);
    return t;
}

// Waits under the lock until `done` or the deadline, a cancel or an error. While opening
// (`watch_demuxer`), also looks for a demuxer that gave up: decodebin drops the error of a
// demuxer that fails while it is set up (the stalled-demuxer workaround, me_find_stalled_demuxer). As the player does, it
// counts only when two looks in a row (at 300, 800, 1500, 2500 ms, then every second) find one.
static MeThumbnailResult wait_locked(MeThumbnailer *t, gint64 deadline, gboolean (*done)(MeThumbnailer *),
                                     gboolean watch_demuxer) {
    static const gint64 looks_ms[] = {300, 800, 1500, 2500};
    gint64 start = g_get_monotonic_time();
    guint look = 0;
    guint stalled_looks = 0;
    watch_demuxer = watch_demuxer && me_workaround_active(ME_WORKAROUND_STALLED_DEMUXER);
    while (TRUE) {
        if (t->error) return ME_THUMBNAIL_ERROR;
        if (done(t)) return ME_THUMBNAIL_OK;
        if (t->cancelled) return ME_THUMBNAIL_CANCELLED;
        gint64 now = g_get_monotonic_time();
        if (now >= deadline) return ME_THUMBNAIL_TIMED_OUT;
        gint64 next_look = start + (look < G_N_ELEMENTS(looks_ms) ? looks_ms[look] : 2500 + 1000 * (look - 3)) * 1000;
        gint64 wake = watch_demuxer ? MIN(deadline, next_look) : deadline;
        if (!g_cond_wait_until(&t->changed, &t->lock, wake) && watch_demuxer && g_get_monotonic_time() >= next_look) {
            look++;
            g_mutex_unlock(&t->lock);
            gchar *stalled = me_find_stalled_demuxer(t->pipeline);
            g_mutex_lock(&t->lock);
            stalled_looks = stalled ? stalled_looks + 1 : 0;
            g_free(stalled);
            if (stalled_looks >= 2 && !t->async_done) return ME_THUMBNAIL_STALLED;
        }
    }
}

static gboolean is_open(MeThumbnailer *t) { return t->async_done || t->opening_ended; }
static gboolean is_done(MeThumbnailer *t) { return t->state == STATE_DONE; }

MeThumbnailResult me_thumbnailer_open(MeThumbnailer *t, guint64 timeout_ns) {
    gint64 deadline = g_get_monotonic_time() + (gint64)(timeout_ns / 1000);
    if (gst_element_set_state(t->pipeline, GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE) {
        g_mutex_lock(&t->lock);
        MeThumbnailResult failed = t->error ? ME_THUMBNAIL_ERROR : ME_THUMBNAIL_REFUSED;
        g_mutex_unlock(&t->lock);
        return failed;
    }
    g_mutex_lock(&t->lock);
    MeThumbnailResult result = wait_locked(t, deadline, is_open, TRUE);
    gboolean undecodable = t->decoder_watched && !t->decoder_has_caps;
    if ((result == ME_THUMBNAIL_OK || result == ME_THUMBNAIL_ERROR) && !t->video_linked) {
        // A demuxer whose only streams are unlinked (sound) stops with not-linked: no video.
        if (undecodable && t->opening_ended) {
            result = ME_THUMBNAIL_UNDECODABLE;
        } else if (t->other_pads > 0 || result == ME_THUMBNAIL_OK) {
            result = undecodable ? ME_THUMBNAIL_UNDECODABLE : ME_THUMBNAIL_NO_VIDEO;
        }
    }
    g_mutex_unlock(&t->lock);
    return result;
}

GstElement *me_thumbnailer_decodebin(MeThumbnailer *t) { return t->decodebin; }

GstClockTime me_thumbnailer_duration(MeThumbnailer *t) {
    gint64 duration = -1;
    if (gst_element_query_duration(t->pipeline, GST_FORMAT_TIME, &duration) && duration >= 0) {
        return (GstClockTime)duration;
    }
    return GST_CLOCK_TIME_NONE;
}

MeThumbnailResult me_thumbnailer_capture(MeThumbnailer *t, GstClockTime time, gboolean exact, guint64 timeout_ns,
                                         GstSample **sample) {
    *sample = NULL;
    gint64 deadline = g_get_monotonic_time() + (gint64)(timeout_ns / 1000);
    g_mutex_lock(&t->lock);
    if (t->cancelled) {
        g_mutex_unlock(&t->lock);
        return ME_THUMBNAIL_CANCELLED;
    }
    if (t->error) {
        // The pipeline failed after the previous capture had its answer: it cannot be trusted.
        g_mutex_unlock(&t->lock);
        return ME_THUMBNAIL_BROKEN;
    }
    g_clear_pointer(&t->answer, gst_sample_unref);
    g_clear_pointer(&t->candidate, gst_buffer_unref);
    t->state = STATE_SEEKING;
    t->exact = exact;
    t->target = time;
    t->target_pts = GST_CLOCK_TIME_NONE;
    t->passed_keyframe = FALSE;
    t->reached_end = FALSE;
    t->pictures_decoded = 0;
    g_mutex_unlock(&t->lock);
    GstEvent *seek = gst_event_new_seek(1.0, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE,
                                        GST_SEEK_TYPE_SET, (gint64)time, GST_SEEK_TYPE_NONE, -1);
    gboolean accepted = gst_element_send_event(t->pipeline, seek);
    g_mutex_lock(&t->lock);
    MeThumbnailResult result = accepted ? wait_locked(t, deadline, is_done, FALSE) : ME_THUMBNAIL_REFUSED;
    if (result == ME_THUMBNAIL_OK) {
        if (t->answer) {
            *sample = t->answer;
            t->answer = NULL;
        } else {
            result = ME_THUMBNAIL_NO_PICTURE;
        }
    }
    // Whatever happened, the probes refuse everything until the next seek.
    t->state = STATE_DONE;
    g_clear_pointer(&t->candidate, gst_buffer_unref);
    g_mutex_unlock(&t->lock);
    return result;
}

void me_thumbnailer_cancel(MeThumbnailer *t) {
    g_mutex_lock(&t->lock);
    t->cancelled = TRUE;
    g_cond_broadcast(&t->changed);
    g_mutex_unlock(&t->lock);
}

void me_thumbnailer_reset_cancel(MeThumbnailer *t) {
    g_mutex_lock(&t->lock);
    t->cancelled = FALSE;
    g_mutex_unlock(&t->lock);
}

GstMessage *me_thumbnailer_take_error(MeThumbnailer *t) {
    g_mutex_lock(&t->lock);
    GstMessage *error = t->error;
    t->error = NULL;
    g_mutex_unlock(&t->lock);
    return error;
}

gchar *me_thumbnailer_stream_caps(MeThumbnailer *t) {
    g_mutex_lock(&t->lock);
    gchar *caps = g_strdup(t->stream_caps);
    g_mutex_unlock(&t->lock);
    return caps;
}

gint me_thumbnailer_orientation(MeThumbnailer *t) {
    g_mutex_lock(&t->lock);
    gint orientation = t->orientation;
    g_mutex_unlock(&t->lock);
    return orientation;
}

guint me_thumbnailer_pictures_decoded(MeThumbnailer *t) {
    g_mutex_lock(&t->lock);
    guint count = t->pictures_decoded;
    g_mutex_unlock(&t->lock);
    return count;
}

void me_thumbnailer_free(MeThumbnailer *t) {
    gst_element_set_state(t->pipeline, GST_STATE_NULL);
    GstBus *bus = gst_element_get_bus(t->pipeline);
    gst_bus_set_sync_handler(bus, NULL, NULL, NULL);
    gst_object_unref(bus);
    gst_object_unref(t->pipeline);
    g_clear_pointer(&t->answer, gst_sample_unref);
    g_clear_pointer(&t->candidate, gst_buffer_unref);
    g_clear_pointer(&t->error, gst_message_unref);
    gst_caps_replace(&t->caps, NULL);
    g_free(t->stream_caps);
    g_mutex_clear(&t->lock);
    g_cond_clear(&t->changed);
    g_free(t);
}

GstSample *me_sample_to_i420(GstSample *sample) {
    GstCaps *caps = gst_sample_get_caps(sample);
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    GstVideoInfo in, out;
    if (!caps || !buffer || !gst_video_info_from_caps(&in, caps)) {
        return NULL;
    }
    gst_video_info_set_format(&out, GST_VIDEO_FORMAT_I420, GST_VIDEO_INFO_WIDTH(&in), GST_VIDEO_INFO_HEIGHT(&in));
    out.par_n = in.par_n;
    out.par_d = in.par_d;
    out.colorimetry = in.colorimetry;
    GstVideoFrame source, target;
    if (!gst_video_frame_map(&source, &in, buffer, GST_MAP_READ)) {
        return NULL;
    }
    GstBuffer *converted = gst_buffer_new_allocate(NULL, GST_VIDEO_INFO_SIZE(&out), NULL);
    gst_buffer_copy_into(converted, buffer, GST_BUFFER_COPY_METADATA, 0, -1);
    if (!gst_video_frame_map(&target, &out, converted, GST_MAP_WRITE)) {
        gst_video_frame_unmap(&source);
        gst_buffer_unref(converted);
        return NULL;
    }
    GstVideoConverter *converter = gst_video_converter_new(&in, &out, NULL);
    gst_video_converter_frame(converter, &source, &target);
    gst_video_converter_free(converter);
    gst_video_frame_unmap(&target);
    gst_video_frame_unmap(&source);
    GstCaps *out_caps = gst_video_info_to_caps(&out);
    GstSample *result = gst_sample_new(converted, out_caps, gst_sample_get_segment(sample), NULL);
    gst_caps_unref(out_caps);
    gst_buffer_unref(converted);
    return result;
}
