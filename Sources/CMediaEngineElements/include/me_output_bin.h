// meoutputbin (outputbin.c): the bin a player installs as playbin's video-sink. It takes a seek
// as one video sink would, sending it upstream from its own "sink" pad, and notes the stream time
// of each frame that enters it.
#pragma once
#include <gst/gst.h>

/// A new, floating output bin (meoutputbin) named `name`.
GstElement *me_video_output_bin_new(const gchar *name);
/// Notes the stream time of each frame that enters the bin's "sink" pad (call once the pad is
/// there); `me_video_output_bin_last_stream_time` reads the last, -1 when none came since the
/// last flush. Any thread. Also the bin's read-only property "last-stream-time".
void me_video_output_bin_watch_input(GstElement *bin);
gint64 me_video_output_bin_last_stream_time(GstElement *bin);

/// What reached the bin's input, for its observer.
typedef enum {
    ME_OUTPUT_INPUT_FRAME,          // a frame: `buffer`, at `stream_time` (-1 when unknown)
    ME_OUTPUT_INPUT_FLUSHED,        // a FLUSH_STOP
    ME_OUTPUT_INPUT_STREAM_STARTED, // a STREAM_START (a queue's next movie, the content after an ad)
} MeOutputInputEvent;
/// Called on the streaming thread for what enters the bin's input (watched by
/// me_video_output_bin_watch_input); `buffer` is borrowed, NULL but for frames.
typedef void (*me_output_input_observer)(gpointer data, MeOutputInputEvent event, GstBuffer *buffer,
                                         gint64 stream_time);
/// Sets the bin's one observer (replacing, and freeing, any before); `destroy` frees `data` with
/// the bin. Call before the pipeline starts.
void me_video_output_bin_set_input_observer(GstElement *bin, me_output_input_observer observer, gpointer data,
                                            GDestroyNotify destroy);
