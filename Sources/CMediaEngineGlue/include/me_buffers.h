// Buffer and video-frame accessors: GST_BUFFER_* and GST_VIDEO_FRAME_* are macros, and
// GstVideoFrame's planes are fixed-size arrays (buffers.c). Called per frame: each is a field read.
#pragma once
#include <gst/gst.h>
#include <gst/video/video.h>

// MARK: Buffers.
GstClockTime me_buffer_pts(GstBuffer *buffer);
GstClockTime me_buffer_duration(GstBuffer *buffer);
/// Whether the buffer is a keyframe (GST_BUFFER_FLAG_DELTA_UNIT unset).
gboolean me_buffer_is_keyframe(GstBuffer *buffer);

// MARK: Video frames.
guint8 *me_video_frame_plane_data(GstVideoFrame *frame, guint plane);
gint me_video_frame_plane_stride(GstVideoFrame *frame, guint plane);
gint me_video_frame_plane_height(GstVideoFrame *frame, guint plane);
gint me_video_frame_plane_width_bytes(GstVideoFrame *frame, guint plane);
guint me_video_frame_plane_count(GstVideoFrame *frame);

// MARK: Overlay pixels.
/// A buffer holding `width`x`height` pixels in GStreamer's overlay format (BGRA in memory,
/// straight alpha), converted from `rgba` in one pass, with the video meta overlay rectangles need.
GstBuffer *me_overlay_buffer_new(const guint8 *rgba, guint width, guint height);

// MARK: Segments.
/// The TIME segment on `pad` (its sticky SEGMENT event) and that event's sequence number (a
/// seek's, after a seek); FALSE when there is none, or it is not in TIME.
gboolean me_pad_time_segment(GstPad *pad, GstSegment *segment, guint32 *seqnum);
