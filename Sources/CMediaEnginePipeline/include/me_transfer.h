// Bytes a network source delivered, for the access log (transfer.c).
#pragma once
#include <gst/gst.h>

/// Counts the bytes a source element delivers (a probe on its source pad), and when the first
/// and the latest arrived, for the access log's bytes transferred and observed bitrate.
typedef struct MeTransferCounter MeTransferCounter;
MeTransferCounter *me_transfer_counter_new(void);
/// Counts what `source` delivers from now on (added to what earlier sources delivered), and posts
/// ME_MESSAGE_DOWNLOAD_COMPLETE from it when its stream ends.
void me_transfer_counter_watch(MeTransferCounter *counter, GstElement *source);
/// Starts again from zero (another movie in the same pipeline).
void me_transfer_counter_reset(MeTransferCounter *counter);
/// The bytes so far, and the seconds between the first and the latest of them.
void me_transfer_counter_read(MeTransferCounter *counter, guint64 *bytes, gdouble *seconds);
/// Frees the counter once no probe can call it (each probe holds a reference).
void me_transfer_counter_unref(MeTransferCounter *counter);
