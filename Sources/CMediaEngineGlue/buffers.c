// Buffer and video-frame accessors, and overlay pixels (me_buffers.h).
#include "me_buffers.h"
#include <string.h>

GstClockTime me_buffer_pts(GstBuffer *buffer) { return GST_BUFFER_PTS(buffer); }
GstClockTime me_buffer_duration(GstBuffer *buffer) { return GST_BUFFER_DURATION(buffer); }
gboolean me_buffer_is_keyframe(GstBuffer *buffer) { return !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT); }

guint8 *me_video_frame_plane_data(GstVideoFrame *frame, guint plane) { return GST_VIDEO_FRAME_PLANE_DATA(frame, plane); }
gint me_video_frame_plane_stride(GstVideoFrame *frame, guint plane) { return GST_VIDEO_FRAME_PLANE_STRIDE(frame, plane); }
guint me_video_frame_plane_count(GstVideoFrame *frame) { return GST_VIDEO_FRAME_N_PLANES(frame); }

gint me_video_frame_plane_height(GstVideoFrame *frame, guint plane) {
    gint components[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component(frame->info.finfo, plane, components);
    return GST_VIDEO_FRAME_COMP_HEIGHT(frame, components[0]);
}

gint me_video_frame_plane_width_bytes(GstVideoFrame *frame, guint plane) {
    gint components[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component(frame->info.finfo, plane, components);
    gint width = GST_VIDEO_FRAME_COMP_WIDTH(frame, components[0]);
    gint pixel_stride = GST_VIDEO_FRAME_COMP_PSTRIDE(frame, components[0]);
    return width * pixel_stride;
}

GstBuffer *me_overlay_buffer_new(const guint8 *rgba, guint width, guint height) {
    gsize count = (gsize)width * height;
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, count * 4, NULL);
    GstMapInfo map;
    if (gst_buffer_map(buffer, &map, GST_MAP_WRITE)) {
        // GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB is ARGB in a native-endian 32-bit word.
        for (gsize i = 0; i < count; i++) {
            const guint8 *pixel = rgba + i * 4;
            guint32 argb = (guint32)pixel[3] << 24 | (guint32)pixel[0] << 16 | (guint32)pixel[1] << 8 | pixel[2];
            memcpy(map.data + i * 4, &argb, sizeof argb);
        }
        gst_buffer_unmap(buffer, &map);
    }
    gst_buffer_add_video_meta(buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB, width,
                              height);
    return buffer;
}

gboolean me_pad_time_segment(GstPad *pad, GstSegment *segment, guint32 *seqnum) {
    GstEvent *event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0);
    if (!event) {
        return FALSE;
    }
    gst_event_copy_segment(event, segment);
    *seqnum = gst_event_get_seqnum(event);
    gst_event_unref(event);
    return segment->format == GST_FORMAT_TIME;
}
