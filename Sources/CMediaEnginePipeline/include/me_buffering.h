// The buffering elements of a playbin (buffering.c): how much a download holds ahead, and the
// player's thresholds on them (through the buffering-thresholds workaround).
#pragma once
#include <gst/gst.h>

/// The buffering elements of one playbin (queue2 for progressive downloads, decodebin's
/// multiqueue for HLS and DASH), found as playbin adds them, with the player's thresholds.
typedef struct MeBuffering MeBuffering;
/// Watches `playbin` for buffering elements and gives each the thresholds, as fractions of its
/// maximum (playbin's buffer-duration): `low` is where buffering starts (a stall), `high`
/// where it ends (100 %). Freed with the playbin; the handle stays valid as long as it.
MeBuffering *me_buffering_watch(GstElement *playbin, gdouble low, gdouble high);
/// Moves the end of buffering (after the first start, to the resume threshold), on the elements
/// found so far and those still to come.
void me_buffering_set_high(MeBuffering *buffering, gdouble high);
/// How much the progressive download's queue2 holds ahead of what it delivered, in time (queue2
/// estimates it from the download rate), or -1 when there is no such queue.
gint64 me_buffering_level_time(MeBuffering *buffering);
/// In download mode, where the downloaded range that holds `position_percent` (of
/// GST_FORMAT_PERCENT_MAX) ends, in the same unit; -1 when unknown.
gint64 me_buffering_downloaded_until(GstElement *playbin, gint64 position_percent);
