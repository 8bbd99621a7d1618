// Timed metadata: ID3 tags carried in MPEG-TS (a timed-metadata stream, as Apple's HLS muxes them)
// and at the start of packed audio (an .aac file or segment that begins with an ID3 tag, or an
// MP3), taken with their presentation times and handed to the engine as bus messages
// (ME_MESSAGE_TIMED_METADATA), which TimedMetadataItem reads.
//
// Two GStreamer bugs stand in the way, each worked around in CMediaEngineWorkarounds and switched
// on by the running GStreamer's version: tsdemux before 1.28 does not expose the MPEG-TS metadata
// stream (tsdemuxid3.c rewrites its PMT entry into a private KLV stream, which tsdemux does
// expose), and packed AAC's tag is skipped unread by aacparse (aacid3.c hands it over). From 1.28
// on, tsdemux exposes the stream itself, as meta/x-id3 pads, which are read the same way.
//
// Everything here runs on streaming threads and reads bytes from the stream: every length read
// from the stream is checked against the bytes actually there before it is used.
#include "me_timed_metadata.h"
#include "me_aac_id3.h"
#include "me_buffers.h"
#include "me_element_info.h"
#include "me_messages.h"
#include "me_tsdemux_id3.h"
#include "me_workarounds.h"
#include <gst/tag/tag.h>
#include <string.h>

// MARK: Posting what was found

/// Posts ME_MESSAGE_TIMED_METADATA on `element` for `tags` at stream time `stream_time`, from
/// the segment numbered `seqnum`; `id3_version` is the major version of the tag the tags came
/// from (2, 3 or 4), which the engine needs to read the frames libgsttag left as raw frames.
static void post_timed_metadata(GstElement *element, GstTagList *tags, guint64 stream_time, guint32 seqnum,
                                guint id3_version) {
    GstStructure *s = gst_structure_new(ME_MESSAGE_TIMED_METADATA, ME_FIELD_TAGS, GST_TYPE_TAG_LIST, tags,
                                        ME_FIELD_STREAM_TIME, G_TYPE_UINT64, stream_time, ME_FIELD_SEQNUM, G_TYPE_UINT,
                                        seqnum, ME_FIELD_ID3_VERSION, G_TYPE_UINT, id3_version, NULL);
    gst_element_post_message(element, gst_message_new_application(GST_OBJECT(element), s));
}

// MARK: The metadata stream's pad

/// One buffer of the metadata stream: one ID3 tag (Apple's HLS muxes one per PES packet). Its
/// presentation time goes through the pad's segment, as the pipeline's position does; a buffer
/// outside the segment (before a seek's position) is not announced.
static void decode_metadata_buffer(GstPad *pad, GstBuffer *buffer) {
    GstClockTime pts = GST_BUFFER_PTS(buffer);
    GstSegment segment;
    guint32 seqnum = 0;
    if (!GST_CLOCK_TIME_IS_VALID(pts) || !me_pad_time_segment(pad, &segment, &seqnum)) {
        return;
    }
    guint64 stream_time = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, pts);
    if (stream_time == GST_CLOCK_TIME_NONE) {
        return;
    }
    // libgsttag reads the tag's size from its header and expects the caller to have checked
    // that the buffer holds that much ("Caller should have checked first").
    gsize size = gst_buffer_get_size(buffer);
    guint tag_size = gst_tag_get_id3v2_tag_size(buffer);
    guint8 header[4];
    if (tag_size < 10 || tag_size > size || gst_buffer_extract(buffer, 0, header, 4) != 4) {
        return;
    }
    GstTagList *tags = gst_tag_list_from_id3v2_tag(buffer);
    if (!tags) {
        return;
    }
    GstElement *demuxer = gst_pad_get_parent_element(pad);
    if (demuxer) {
        post_timed_metadata(demuxer, tags, stream_time, seqnum, header[3]);
        gst_object_unref(demuxer);
    }
    gst_tag_list_unref(tags);
}

static gboolean decode_list_item(GstBuffer **buffer, guint index, gpointer user_data) {
    (void)index;
    decode_metadata_buffer(user_data, *buffer);
    return TRUE;
}

/// Decodes the metadata stream's buffers and drops them: nothing downstream reads them (no
/// decoder exists for them), and dropped here they fill no queue.
static GstPadProbeReturn on_metadata_data(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)user_data;
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
        decode_metadata_buffer(pad, GST_PAD_PROBE_INFO_BUFFER(info));
        return GST_PAD_PROBE_DROP;
    }
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
        gst_buffer_list_foreach(GST_PAD_PROBE_INFO_BUFFER_LIST(info), decode_list_item, pad);
        return GST_PAD_PROBE_DROP;
    }
    return GST_PAD_PROBE_OK;
}

// MARK: tsdemux

/// Whether `pad` carries ID3 tags as tsdemux 1.28 exposes them (meta/x-id3).
static gboolean pad_carries_id3(GstPad *pad) {
    GstCaps *caps = gst_pad_get_current_caps(pad);
    gboolean id3 = caps && gst_caps_get_size(caps) > 0 &&
                   gst_structure_has_name(gst_caps_get_structure(caps, 0), "meta/x-id3");
    if (caps) {
        gst_caps_unref(caps);
    }
    return id3;
}

static void on_ts_pad_added(GstElement *demuxer, GstPad *pad, gpointer user_data) {
    (void)user_data;
    if (me_tsdemux_id3_pad_is_rewritten(demuxer, pad) || pad_carries_id3(pad)) {
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST, on_metadata_data, NULL,
                          NULL);
    }
}

// MARK: Packed audio (id3demux)

/// The tag event id3demux sends before the audio: the ID3 tag at the start of the file (or of a
/// packed-audio segment), whose time is where its audio starts, the stream's position 0 (also
/// when the event is sent again after a seek; the engine drops items behind a seek).
static GstPadProbeReturn on_id3demux_event(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)user_data;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) != GST_EVENT_TAG) {
        return GST_PAD_PROBE_OK;
    }
    GstTagList *tags = NULL;
    gst_event_parse_tag(event, &tags);
    GstSegment segment;
    guint32 seqnum = 0;
    guint64 stream_time = 0;
    if (me_pad_time_segment(pad, &segment, &seqnum) &&
        gst_segment_to_stream_time_full(&segment, GST_FORMAT_TIME, 0, &stream_time) != 1) {
        stream_time = GST_CLOCK_TIME_NONE;  // the start lies outside what the segment can place
    }
    GstElement *demuxer = gst_pad_get_parent_element(pad);
    if (tags && demuxer && stream_time != GST_CLOCK_TIME_NONE) {
        // id3demux does not say which version its tag had; 4, the current one, decides how the
        // frames it could not map are read (their sizes are not read at all: see the engine).
        post_timed_metadata(demuxer, tags, stream_time, seqnum, 4);
    }
    if (demuxer) {
        gst_object_unref(demuxer);
    }
    return GST_PAD_PROBE_OK;
}

static void on_id3demux_pad_added(GstElement *demuxer, GstPad *pad, gpointer user_data) {
    (void)demuxer; (void)user_data;
    if (GST_PAD_IS_SRC(pad)) {
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_id3demux_event, NULL, NULL);
    }
}

// MARK: Packed audio read by a parser (the aac-id3 workaround)

static void on_packed_audio_tag(GstElement *parser, GstBuffer *tag, guint64 stream_time, guint32 seqnum,
                                gpointer user_data) {
    (void)user_data;
    guint8 header[4];
    if (gst_buffer_extract(tag, 0, header, 4) != 4) {
        return;
    }
    GstTagList *tags = gst_tag_list_from_id3v2_tag(tag);
    if (tags) {
        post_timed_metadata(parser, tags, stream_time, seqnum, header[3]);
        gst_tag_list_unref(tags);
    }
}

// MARK: The watch

void me_watch_timed_metadata(GstElement *element) {
    const gchar *factory = me_element_factory_name(element);
    if (!factory) {
        return;
    }
    if (g_str_equal(factory, "tsdemux")) {
        if (me_workaround_active(ME_WORKAROUND_TSDEMUX_ID3)) {
            me_tsdemux_id3_install(element);
        }
        // Connected when the element is added to decodebin, before decodebin connects its own: the
        // probe is on the pad before decodebin sees it.
        g_signal_connect(element, "pad-added", G_CALLBACK(on_ts_pad_added), NULL);
    } else if (g_str_equal(factory, "aacparse")) {
        if (me_workaround_active(ME_WORKAROUND_AAC_ID3)) {
            me_aac_id3_watch(element, on_packed_audio_tag, NULL);
        }
    } else if (g_str_equal(factory, "id3demux")) {
        g_signal_connect(element, "pad-added", G_CALLBACK(on_id3demux_pad_added), NULL);
    } else if (g_str_equal(factory, "decodebin")) {
        if (me_workaround_active(ME_WORKAROUND_TSDEMUX_ID3)) {
            me_tsdemux_id3_watch_decodebin(element);
        }
    }
}

static void on_deep_element_added(GstBin *bin, GstBin *sub_bin, GstElement *element, gpointer user_data) {
    (void)bin;
    (void)sub_bin;
    (void)user_data;
    me_watch_timed_metadata(element);
}

void me_watch_timed_metadata_in(GstElement *bin) {
    g_signal_connect(bin, "deep-element-added", G_CALLBACK(on_deep_element_added), NULL);
}

const gchar *me_tag_to_id3_frame(const gchar *tag) { return gst_tag_to_id3_tag(tag); }
