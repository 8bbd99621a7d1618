// Workaround "aac-id3": the ID3 tag at the start of packed audio that no id3demux reads.
//
// The bug: an .aac file (or an HLS packed-audio segment) that begins with an ID3 tag is typefound
// as AAC straight away: the AAC typefinder scans its first 4 KB for ADTS frames, past the tag
// (aac_type_find in gsttypefindfunctions.c), and with the file's extension it runs before the ID3
// typefinder, which is registered for mp3, ogg, flac and the like but not aac. So no id3demux is
// plugged, and aacparse skips the tag unread: its ID3 frames (timed metadata in HLS packed audio)
// are lost.
//
// Versions: seen on 1.22.0. No upstream issue found; unfixed as of 1.29.2 (main, 2026-08): the ID3
// typefinder's extensions and aacparse are unchanged in this respect.
//
// How it was found: the timed-metadata tests of packed AAC got no ID3 item while the same tag in
// an MP3 came through id3demux (commit 0890d00, 2026-11-30, "packed audio's ID3 tag through
// aacparse").
//
// A probe on aacparse's input finds a buffer that starts with a whole ID3 tag and hands it, with
// the time where its audio starts, to the timed-metadata feature (timedmetadata.c), which decodes
// and posts it as id3demux's tag would be. The time is the buffer's through a TIME segment when it
// has one (pushed segments), otherwise the stream's start for the buffer at byte 0 (a file read
// in pull mode).
//
// Off: the probe is not installed; packed AAC's ID3 tags never reach the app
// (TimedMetadataPlaybackTests' packed-audio test fails so). WorkaroundReproductionTests' aac-id3
// test (engine-workaround-check aac-id3, forced off and on): off, no item of the tag's two; on,
// PRIV and TIT2.
#include "me_aac_id3.h"
#include "me_buffers.h"
#include <gst/tag/tag.h>
#include <string.h>

typedef struct {
    me_id3_tag_callback callback;
    gpointer user_data;
} AacId3Watch;

static GstPadProbeReturn on_packed_audio_buffer(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    AacId3Watch *watch = user_data;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    guint8 magic[4];
    if (!buffer || gst_buffer_extract(buffer, 0, magic, 4) != 4 || memcmp(magic, "ID3", 3) != 0) {
        return GST_PAD_PROBE_OK;
    }
    GstSegment segment;
    guint32 seqnum = 0;
    guint64 stream_time = GST_CLOCK_TIME_NONE;
    if (GST_BUFFER_PTS_IS_VALID(buffer) && me_pad_time_segment(pad, &segment, &seqnum)) {
        stream_time = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
    } else if (GST_BUFFER_OFFSET(buffer) == 0) {
        stream_time = 0;
        seqnum = 0;  // a byte segment's number says nothing about the seek that led here
    }
    guint tag_size = gst_tag_get_id3v2_tag_size(buffer);
    if (stream_time == GST_CLOCK_TIME_NONE || tag_size < 10 || tag_size > gst_buffer_get_size(buffer)) {
        return GST_PAD_PROBE_OK;
    }
    GstElement *parser = gst_pad_get_parent_element(pad);
    if (parser) {
        watch->callback(parser, buffer, stream_time, seqnum, watch->user_data);
        gst_object_unref(parser);
    }
    return GST_PAD_PROBE_OK;
}

void me_aac_id3_watch(GstElement *aacparse, me_id3_tag_callback callback, gpointer user_data) {
    GstPad *sink = gst_element_get_static_pad(aacparse, "sink");
    if (!sink) {
        return;
    }
    AacId3Watch *watch = g_new0(AacId3Watch, 1);
    watch->callback = callback;
    watch->user_data = user_data;
    gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_BUFFER, on_packed_audio_buffer, watch, g_free);
    gst_object_unref(sink);
}
