// The first-frame watch (firstframe.c).
#pragma once
#include <gst/gst.h>

/// Adds a buffer probe on `pad` that posts an application message
/// ME_MESSAGE_FIRST_FRAME (fields width, height, par-n, par-d, stream-time, seqnum) on
/// `element` for the first buffer after start and after each flush. `seqnum` is
/// that of the flush or segment before the buffer, which a seek's events carry. Runs in C on the
/// streaming thread: no Swift code is entered per frame.
/// With `hold`, the first buffer is not let through: ME_MESSAGE_FIRST_FRAME_HELD is posted instead
/// and buffers are dropped until the next flush (the engine's seek to the initial playback
/// time), so nothing from before that time is ever shown.
typedef struct MeFirstFrameWatch MeFirstFrameWatch;
MeFirstFrameWatch *me_watch_first_frame(GstPad *pad, GstElement *element, gboolean hold);
/// Holds the next first frame (as `hold` above); for a pipeline reused for another movie.
/// The watch lives as long as `pad`.
void me_first_frame_watch_hold(MeFirstFrameWatch *watch);
/// The stream time where the last frame the watch let through ends (its PTS plus its duration),
/// or GST_CLOCK_TIME_NONE before any since the last flush. The output's chain is synchronous from
/// the watched pad to the sink, so that frame is the one shown, or the next one to be.
guint64 me_first_frame_watch_last_end(MeFirstFrameWatch *watch);
