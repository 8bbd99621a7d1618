// Workaround "tsdemux-id3" (tsdemuxid3.c): an MPEG-TS ID3 metadata stream (type 0x15), which
// tsdemux before 1.28 does not expose, rewritten in each PMT into a private KLV stream it does.
#pragma once
#include <gst/gst.h>

/// Rewrites the PMTs on `tsdemux`'s input from now on (call when the element is added, before it
/// reads). The demuxer keeps the rewrite's state.
void me_tsdemux_id3_install(GstElement *tsdemux);
/// Whether `pad` of `tsdemux` carries an ID3 stream the rewrite made visible (call at pad-added).
gboolean me_tsdemux_id3_pad_is_rewritten(GstElement *tsdemux, GstPad *pad);
/// Keeps `decodebin` from reporting KLV streams (which the rewritten ID3 streams look like) as a
/// missing plugin: connected to its autoplug-continue.
void me_tsdemux_id3_watch_decodebin(GstElement *decodebin);
/// Rewrites, in one 188-byte TS packet holding a whole PMT section with an intact CRC, each
/// entry of an ID3 metadata stream (stream type 0x15 described by a metadata or registration
/// descriptor 'ID3 ') into a private stream (0x06) registered 'KLVA', which tsdemux 1.22 exposes,
/// and recomputes the CRC. Writes the rewritten streams' PIDs to `pids` (up to `capacity`) and
/// returns how many; 0, the packet untouched, for any other packet, however malformed.
int me_ts_rewrite_id3_pmt(guint8 *packet, guint16 *pids, int capacity);
