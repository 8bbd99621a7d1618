// The engine's log on its way to an app's handler (log.c): a bounded queue that any thread hands
// records to without waiting for the handler, emptied by the engine's logging thread (Swift,
// Sources/MediaEngineCore/Logging/LoggingThread.swift); and GStreamer's debug log forwarded into it
// (gst_debug_add_log_function), libav's messages included: gst-libav and the engine's decoders
// already forward those into GStreamer's categories `libav` and `melibav`.
#pragma once
#include <gst/gst.h>

/// What a record carries: a GStreamer debug message (its fields below), or an item of the
/// engine's own (`payload`, a retained Swift object the logging thread takes back).
typedef enum {
    ME_LOG_RECORD_GSTREAMER = 0,
    ME_LOG_RECORD_PAYLOAD = 1,
} MeLogRecordKind;

/// One record, as the logging thread pops it. Strings marked owned are freed by
/// me_log_record_clear; the others are GStreamer's, kept for the process's life.
typedef struct {
    MeLogRecordKind kind;
    /// GStreamer: the message's level (a GstDebugLevel).
    gint level;
    /// GStreamer: the category's name (GStreamer's; categories are never freed).
    const gchar *category;
    /// GStreamer: the source file, function and line that logged it (static strings of the code).
    const gchar *file;
    const gchar *function;
    gint line;
    /// GStreamer: the object it is about, as GStreamer names it (`souphttpsrc0`, `qtdemux0:sink`),
    /// or NULL. Owned.
    gchar *object;
    /// GStreamer: the message. Owned.
    gchar *message;
    /// ME_LOG_RECORD_PAYLOAD: the Swift item.
    gpointer payload;
    /// How many records the queue dropped, for want of room, since the last one popped.
    guint dropped;
    /// The bytes the record counts for against the queue's bound (the queue's own).
    gsize bytes;
} MeLogRecord;

/// Queues a Swift item of about `bytes` bytes. With `force`, even when the queue is full (a flush
/// marker or a change of handler, which must not be lost); otherwise FALSE when full (the caller
/// keeps its item, counted as dropped).
gboolean me_log_queue_push_payload(gpointer payload, gsize bytes, gboolean force);
/// Waits for the next record and moves it into `record` (the logging thread only).
void me_log_queue_pop(MeLogRecord *record);
/// Frees what a popped record owns (not its payload, which Swift takes back).
void me_log_record_clear(MeLogRecord *record);
/// How many records are waiting (for tests).
guint me_log_queue_length(void);

/// Starts (or changes) forwarding GStreamer's debug log into the queue: `gstreamer` forwards
/// every category but libav's, `libav` the categories `libav` (gst-libav's) and `melibav` (the
/// engine's decoders) at `libav_level` (a GstDebugLevel). `thresholds`, in GST_DEBUG's syntax
/// ("2,souphttpsrc:7"), replaces the categories' thresholds when not NULL. The first start keeps
/// the thresholds of every category to put them back at me_log_forward_stop, and removes
/// GStreamer's default log function (standard error, or GST_DEBUG_FILE), which would print the
/// same messages unredacted. Call after gst_init.
void me_log_forward_start(const gchar *thresholds, gboolean gstreamer, gboolean libav, GstDebugLevel libav_level);
/// Stops forwarding: the thresholds kept at the first start come back, and GStreamer's default log
/// function. Nothing when not forwarding.
void me_log_forward_stop(void);
