// Thumbnail pipelines (thumbnails.c): one picture per flushing seek, chosen by probes on the
// streaming threads.
#pragma once
#include <gst/gst.h>

/// A thumbnail pipeline: `uridecodebin` (video only) into a sink that keeps nothing, with the
/// probes that pick one picture per seek. One thread drives it (open, capture, free); cancel
/// may be called from any thread.
typedef struct MeThumbnailer MeThumbnailer;
typedef enum {
    ME_THUMBNAIL_OK,
    ME_THUMBNAIL_ERROR,      // the pipeline posted an error: me_thumbnailer_take_error
    ME_THUMBNAIL_CANCELLED,  // me_thumbnailer_cancel
    ME_THUMBNAIL_TIMED_OUT,
    ME_THUMBNAIL_NO_VIDEO,   // opened, but the movie has no video stream
    ME_THUMBNAIL_NO_PICTURE, // the stream ended before any picture came out
    ME_THUMBNAIL_REFUSED,    // a state change or the seek was refused
    ME_THUMBNAIL_STALLED,    // a demuxer gave up while decodebin set it up (its error was dropped)
    ME_THUMBNAIL_UNDECODABLE, // the video decoder got to the end without a picture
    ME_THUMBNAIL_BROKEN,     // an error came after the previous capture: make a new pipeline
} MeThumbnailResult;
/// The pipeline for `uri`, at NULL; NULL when uridecodebin or fakesink is missing.
MeThumbnailer *me_thumbnailer_new(const gchar *uri);
/// The pipeline's uridecodebin (borrowed), for its source-setup signal.
GstElement *me_thumbnailer_decodebin(MeThumbnailer *thumbnailer);
/// Brings the pipeline to PAUSED and waits until its streams are exposed.
MeThumbnailResult me_thumbnailer_open(MeThumbnailer *thumbnailer, guint64 timeout_ns);
/// The movie's duration, or GST_CLOCK_TIME_NONE.
GstClockTime me_thumbnailer_duration(MeThumbnailer *thumbnailer);
/// Seeks to `time` (stream time) and waits for its picture: with `exact`, the one on screen at
/// `time`; otherwise the keyframe at or before it, the only picture decoded. `sample` gets the
/// picture (with caps and the segment that maps its PTS to stream time) on ME_THUMBNAIL_OK.
MeThumbnailResult me_thumbnailer_capture(MeThumbnailer *thumbnailer, GstClockTime time, gboolean exact,
                                         guint64 timeout_ns, GstSample **sample);
/// Makes the capture under way (or the next one) return ME_THUMBNAIL_CANCELLED at once.
void me_thumbnailer_cancel(MeThumbnailer *thumbnailer);
/// Clears a cancel, before the thread that drives the pipeline looks for a new request.
void me_thumbnailer_reset_cancel(MeThumbnailer *thumbnailer);
/// The first ERROR message since it was last taken (transfer full), or NULL.
GstMessage *me_thumbnailer_take_error(MeThumbnailer *thumbnailer);
/// What typefind found the stream to be (caps as text; g_free it), or NULL.
gchar *me_thumbnailer_stream_caps(MeThumbnailer *thumbnailer);
/// The video's image-orientation tag: 0-3 rotate by 0, 90, 180, 270 degrees clockwise; 4-7
/// mirror horizontally, then rotate the same way.
gint me_thumbnailer_orientation(MeThumbnailer *thumbnailer);
/// How many pictures came out of the decoder during the latest capture.
guint me_thumbnailer_pictures_decoded(MeThumbnailer *thumbnailer);
/// Sets the pipeline to NULL (joining its streaming threads) and frees it.
void me_thumbnailer_free(MeThumbnailer *thumbnailer);
/// The sample's picture converted to I420 (GstVideoConverter), for formats other than I420/NV12.
GstSample *me_sample_to_i420(GstSample *sample);
