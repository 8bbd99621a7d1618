// The engine's own bus messages, and the keys of their fields: each name and key defined once
// here, used by the C that posts a message and by the Swift that reads it (string macros import
// into Swift as constants). Each message is an application message whose structure has the
// message's name; BusMessage maps each to a typed case (messages.c).
#pragma once
#include <gst/gst.h>

// MARK: Message names.
/// A typefind element found the stream's type: fields ME_FIELD_CAPS (string), ME_FIELD_PROBABILITY
/// (uint). Posted by the stream-type watch (me_stream_types.h).
#define ME_MESSAGE_STREAM_TYPE "me-stream-type"
/// decodebin chose the element that decodes the video: field ME_FIELD_FACTORY (string).
#define ME_MESSAGE_VIDEO_DECODER "me-video-decoder"
/// The first frame since start or a flush reached the video output: fields ME_FIELD_WIDTH,
/// ME_FIELD_HEIGHT, ME_FIELD_PAR_N, ME_FIELD_PAR_D (int), ME_FIELD_STREAM_TIME (uint64),
/// ME_FIELD_SEQNUM (uint). Posted by the first-frame watch (me_first_frame.h).
#define ME_MESSAGE_FIRST_FRAME "me-first-frame"
/// The first frame was held back (and dropped) until the seek to the initial playback time.
#define ME_MESSAGE_FIRST_FRAME_HELD "me-first-frame-held"
/// The video output moved to another sink (me_swap.h).
#define ME_MESSAGE_OUTPUT_SWAPPED "me-output-swapped"
/// A state change of the pipeline failed (posted by the player after GStreamer's own error).
#define ME_MESSAGE_STATE_CHANGE_FAILED "me-state-change-failed"
/// A source setting did not fit the source element.
#define ME_MESSAGE_SOURCE_SETTINGS_FAILED "me-source-settings-failed"
/// The bus thread is asked to end.
#define ME_MESSAGE_BUS_STOP "me-bus-stop"
/// A network source delivered its whole stream (EOS passed its source pad): me_transfer.h.
#define ME_MESSAGE_DOWNLOAD_COMPLETE "me-download-complete"
/// The manifest an adaptive demuxer read, whole: field ME_FIELD_TEXT (string, UTF-8), posted on
/// the demuxer at the manifest's end (me_manifest_capture.h).
#define ME_MESSAGE_MANIFEST "me-manifest"
/// Where a reloaded movie's messages begin: field ME_FIELD_EPOCH (uint), the epoch's number
/// (me_post_epoch_marker).
#define ME_MESSAGE_EPOCH "me-epoch"
/// A flushing seek is about to be sent: field ME_FIELD_SEQNUM (uint), the seek's sequence number.
/// Posted just before the seek, so an ASYNC_DONE before it on the bus (a pause's, say) is known
/// not to be the seek's (me_post_seek_sent_marker).
#define ME_MESSAGE_SEEK_SENT "me-seek-sent"
/// ID3 tags found in the stream with their time: fields ME_FIELD_TAGS (GstTagList),
/// ME_FIELD_STREAM_TIME (uint64), ME_FIELD_SEQNUM (uint: the segment's, 0 unknown),
/// ME_FIELD_ID3_VERSION (uint). Posted by the timed-metadata watch (me_timed_metadata.h).
#define ME_MESSAGE_TIMED_METADATA "me-timed-metadata"

// MARK: Field keys.
#define ME_FIELD_CAPS "caps"
#define ME_FIELD_PROBABILITY "probability"
#define ME_FIELD_FACTORY "factory"
#define ME_FIELD_WIDTH "width"
#define ME_FIELD_HEIGHT "height"
#define ME_FIELD_PAR_N "par-n"
#define ME_FIELD_PAR_D "par-d"
#define ME_FIELD_STREAM_TIME "stream-time"
#define ME_FIELD_SEQNUM "seqnum"
#define ME_FIELD_TEXT "text"
#define ME_FIELD_TAGS "tags"
#define ME_FIELD_ID3_VERSION "id3-version"
#define ME_FIELD_EPOCH "epoch"

/// The largest manifest me_capture_manifest keeps.
#define ME_MANIFEST_MAX_BYTES (4 * 1024 * 1024)

// MARK: Posting and reading.
/// Posts an empty application message named `name` on `element`'s bus, from `element`.
gboolean me_post_application_message(GstElement *element, const gchar *name);
/// Posts ME_MESSAGE_EPOCH with `epoch` on `pipeline`'s bus, from `pipeline` (gst_bus_post).
gboolean me_post_epoch_marker(GstElement *pipeline, guint epoch);
/// Posts ME_MESSAGE_SEEK_SENT with `seqnum` on `pipeline`'s bus, from `pipeline` (gst_bus_post).
gboolean me_post_seek_sent_marker(GstElement *pipeline, guint32 seqnum);
/// GST_MESSAGE_SRC: borrowed, may be NULL.
GstObject *me_message_source(GstMessage *message);
/// GST_MESSAGE_TYPE
GstMessageType me_message_type(GstMessage *message);
/// A STREAM_START message's group id (0 when it has none).
guint me_message_group_id(GstMessage *message);
