// The threads that carry a player's sound are scheduled first when they wake (audiothreads.c).
#pragma once
#include <gst/gst.h>

/// Asks the kernel for a short scheduler slice (0.1 ms) on every thread that carries `playbin`'s
/// sound: the one that decodes it and pushes it into playsink's audio queue, the queue's own
/// thread that hands it to the audio sink, and an audio sink's ring-buffer thread. The thread
/// keeps its weight (its niceness): it gets no more of the CPU, only sooner after it wakes, which
/// on a starved CPU keeps the sound's buffers in time while the video decoder takes the rest. A
/// thread gets its default slice back when it leaves its task (task threads are pooled and may
/// carry video next). Needs Linux 6.12 or later (EEVDF's per-thread slice): on an older kernel
/// it installs nothing. Installs a bus sync handler on `playbin`'s bus, which must have none.
void me_schedule_audio_threads_first(GstElement *playbin);

/// The Linux thread ids of `playbin`'s threads that hold the short slice now, up to `capacity`
/// of them in `threads`; returns how many there are.
gint me_audio_thread_ids(GstElement *playbin, gint *threads, gint capacity);
/// The scheduler slice of thread `thread` (a Linux thread id; 0: the calling thread), in
/// nanoseconds, or 0 where it cannot be read.
guint64 me_thread_slice(gint thread);
/// Whether the kernel keeps a slice a thread asks for (Linux 6.12 and later).
gboolean me_thread_slices_supported(void);
