// Workaround "tsdemux-id3": makes tsdemux expose an ID3 timed-metadata stream (MPEG-TS stream
// type 0x15, as Apple's HLS muxes ID3 tags), which the timed-metadata feature then reads
// (timedmetadata.c in CMediaEngineTimedMetadata).
//
// The bug: tsdemux does not expose a stream of type 0x15 (metadata in PES packets) at all.
// create_pad_for_stream() has no case for it ("Non-media stream ... Not creating pad") and its
// packets are dropped. It does expose a *private* stream (type 0x06) registered as SMPTE KLV
// ('KLVA'), and for those it pushes each PES payload whole, timestamped like every other stream.
// So a probe on tsdemux's input rewrites, in each PMT, the entry of a 0x15 stream described as
// ID3 into a 0x06 'KLVA' entry (same length, CRC recomputed). tsdemux then adds a pad for it
// (me_tsdemux_id3_pad_is_rewritten tells which), and decodebin is told the pad needs no decoder
// (autoplug-continue), so it posts no missing-plugin message for it.
//
// Versions: every release before 1.28.0. Fixed upstream in 1.28.0: "tsdemux: support demuxing ID3
// metadata" (0740d32782, merge request !7645: meta/x-id3 pads) and "playback: Consider
// meta/x-klv, meta/x-id3 and meta/x-st-2038 as raw formats" (8243f569bd, !10249: no missing-plugin
// message for them). On 1.28 and later this is off, and the feature reads the meta/x-id3 pads.
//
// How it was found: written with the timed-metadata feature, against tsdemux 1.22.0's source
// (commit 8ad4cbc, 2026-11-30); fuzzed since (Fuzz/FuzzTimedMetadata, which calls
// me_ts_rewrite_id3_pmt through TransportStreamPMT).
//
// Off: no PMT is rewritten and decodebin is not told about KLV: on GStreamer before 1.28 an
// MPEG-TS stream's ID3 tags never reach the app (TimedMetadataPlaybackTests' MPEG-TS tests fail so).
// WorkaroundReproductionTests' tsdemux-id3 test (engine-workaround-check, forced off and on): off,
// no item of the stream's two; on, TIT2 and PRIV.
//
// Everything here runs on streaming threads and reads bytes from the stream: every length read
// from the stream is checked against the bytes actually there before it is used.
#include "me_tsdemux_id3.h"
#include "me_element_info.h"
#include <string.h>

#define TS_PACKET_SIZE 188
#define TS_SYNC_BYTE 0x47
#define TS_NULL_PID 0x1fff
#define TS_STREAM_TYPE_PRIVATE_PES 0x06
#define TS_STREAM_TYPE_METADATA_PES 0x15
#define TS_TABLE_PAT 0x00
#define TS_TABLE_PMT 0x02
#define TS_DESCRIPTOR_REGISTRATION 0x05
#define TS_DESCRIPTOR_METADATA 0x26
#define ME_TS_MAX_PMT_PIDS 16
#define ME_TS_MAX_METADATA_PIDS 8

// MARK: MPEG-2 sections

/// CRC-32/MPEG-2 (polynomial 0x04C11DB7, no reflection, no final xor): over a whole section,
/// CRC included, it is 0 when the section is intact.
static guint32 crc32_mpeg2(const guint8 *data, gsize length) {
    guint32 crc = 0xffffffffu;
    for (gsize i = 0; i < length; i++) {
        crc ^= (guint32)data[i] << 24;
        for (int bit = 0; bit < 8; bit++) {
            crc = (crc & 0x80000000u) ? (crc << 1) ^ 0x04c11db7u : crc << 1;
        }
    }
    return crc;
}

/// The PID of a packet (its bytes 1 and 2).
static guint16 packet_pid(const guint8 *packet) { return (guint16)(((packet[1] & 0x1f) << 8) | packet[2]); }

/// The start and end of the one section a packet carries, when a section starts in it (PUSI) and
/// ends in it with an intact CRC. Returns FALSE for anything else (a section continued from or
/// into other packets, a damaged one).
static gboolean whole_section(const guint8 *packet, gsize *start, gsize *end) {
    if (packet[0] != TS_SYNC_BYTE || (packet[1] & 0x80) || !(packet[1] & 0x40)) {
        return FALSE;  // no sync, transport error, or no section starts here
    }
    guint8 control = (packet[3] >> 4) & 0x3;
    if (!(control & 0x1)) {
        return FALSE;  // no payload
    }
    gsize position = 4;
    if (control & 0x2) {
        position += 1 + (gsize)packet[4];  // adaptation field
    }
    if (position >= TS_PACKET_SIZE) {
        return FALSE;
    }
    position += 1 + (gsize)packet[position];  // pointer_field
    if (position + 3 > TS_PACKET_SIZE) {
        return FALSE;
    }
    if (!(packet[position + 1] & 0x80)) {
        return FALSE;  // section_syntax_indicator: PAT and PMT have it
    }
    gsize length = ((gsize)(packet[position + 1] & 0x0f) << 8) | packet[position + 2];
    // At least the long header's 5 bytes after the length and the CRC, and within this packet.
    if (length < 9 || position + 3 + length > TS_PACKET_SIZE) {
        return FALSE;
    }
    *start = position;
    *end = position + 3 + length;
    return crc32_mpeg2(packet + position, *end - position) == 0;
}

/// Whether the descriptors in [from, to) describe ID3 metadata: a metadata_descriptor whose
/// metadata_format_identifier is 'ID3 ', or a registration descriptor 'ID3 '. The loop must
/// already be known to be well formed.
static gboolean describes_id3(const guint8 *packet, gsize from, gsize to) {
    for (gsize at = from; at + 2 <= to; at += 2 + (gsize)packet[at + 1]) {
        guint8 tag = packet[at];
        gsize length = packet[at + 1];
        const guint8 *body = packet + at + 2;
        if (tag == TS_DESCRIPTOR_REGISTRATION && length >= 4 && memcmp(body, "ID3 ", 4) == 0) {
            return TRUE;
        }
        if (tag == TS_DESCRIPTOR_METADATA && length >= 3) {
            // metadata_application_format (2), its identifier (4) if 0xFFFF, metadata_format (1),
            // its identifier (4) if 0xFF.
            gsize format = (body[0] == 0xff && body[1] == 0xff) ? 6 : 2;
            if (format + 5 <= length && body[format] == 0xff && memcmp(body + format + 1, "ID3 ", 4) == 0) {
                return TRUE;
            }
        }
    }
    return FALSE;
}

/// Whether the descriptor loop [from, to) is well formed: each descriptor ends within it.
static gboolean descriptors_fit(const guint8 *packet, gsize from, gsize to) {
    gsize at = from;
    while (at < to) {
        if (at + 2 > to || at + 2 + (gsize)packet[at + 1] > to) {
            return FALSE;
        }
        at += 2 + (gsize)packet[at + 1];
    }
    return TRUE;
}

/// Makes the ID3 entry [from, to) read as a private stream registered 'KLVA': its first
/// registration descriptor says 'KLVA' (tsdemux reads only the first), or, without one, its
/// metadata descriptor becomes a registration descriptor of the same length ('KLVA' followed by
/// the old bytes as additional identification info).
static gboolean register_as_klva(guint8 *packet, gsize from, gsize to) {
    for (gsize at = from; at + 2 <= to; at += 2 + (gsize)packet[at + 1]) {
        if (packet[at] == TS_DESCRIPTOR_REGISTRATION && packet[at + 1] >= 4) {
            memcpy(packet + at + 2, "KLVA", 4);
            return TRUE;
        }
        if (packet[at] == TS_DESCRIPTOR_REGISTRATION) {
            return FALSE;  // a registration too short to hold an identifier: leave the entry alone
        }
    }
    for (gsize at = from; at + 2 <= to; at += 2 + (gsize)packet[at + 1]) {
        if (packet[at] == TS_DESCRIPTOR_METADATA && packet[at + 1] >= 4) {
            packet[at] = TS_DESCRIPTOR_REGISTRATION;
            memcpy(packet + at + 2, "KLVA", 4);
            return TRUE;
        }
    }
    return FALSE;
}

int me_ts_rewrite_id3_pmt(guint8 *packet, guint16 *pids, int capacity) {
    gsize start = 0, end = 0;
    if (!whole_section(packet, &start, &end) || packet[start] != TS_TABLE_PMT) {
        return 0;
    }
    // PMT: header (3), program_number (2), version (1), section numbers (2), PCR_PID (2),
    // program_info_length (2), program info, then 5 bytes + ES info per stream, then the CRC.
    gsize loops_end = end - 4;
    if (start + 12 > loops_end) {
        return 0;
    }
    gsize program_info = ((gsize)(packet[start + 10] & 0x0f) << 8) | packet[start + 11];
    gsize first_entry = start + 12 + program_info;
    if (first_entry > loops_end) {
        return 0;
    }
    // First pass: the whole stream loop must be well formed before anything is changed.
    for (gsize entry = first_entry; entry < loops_end;) {
        if (entry + 5 > loops_end) {
            return 0;
        }
        gsize info = ((gsize)(packet[entry + 3] & 0x0f) << 8) | packet[entry + 4];
        if (entry + 5 + info > loops_end || !descriptors_fit(packet, entry + 5, entry + 5 + info)) {
            return 0;
        }
        entry += 5 + info;
    }
    int rewritten = 0;
    for (gsize entry = first_entry; entry < loops_end;) {
        gsize info = ((gsize)(packet[entry + 3] & 0x0f) << 8) | packet[entry + 4];
        gsize from = entry + 5, to = from + info;
        if (packet[entry] == TS_STREAM_TYPE_METADATA_PES && describes_id3(packet, from, to) &&
            register_as_klva(packet, from, to)) {
            packet[entry] = TS_STREAM_TYPE_PRIVATE_PES;
            if (rewritten < capacity) {
                pids[rewritten] = (guint16)(((packet[entry + 1] & 0x1f) << 8) | packet[entry + 2]);
            }
            rewritten++;
        }
        entry = to;
    }
    if (rewritten > 0) {
        guint32 crc = crc32_mpeg2(packet + start, loops_end - start);
        packet[loops_end] = (guint8)(crc >> 24);
        packet[loops_end + 1] = (guint8)(crc >> 16);
        packet[loops_end + 2] = (guint8)(crc >> 8);
        packet[loops_end + 3] = (guint8)crc;
    }
    return rewritten < capacity ? rewritten : capacity;
}

/// Reads the PMT PIDs a whole PAT packet lists into `pids`; returns how many (0 for anything else).
static int pat_program_map_pids(const guint8 *packet, guint16 *pids, int capacity) {
    gsize start = 0, end = 0;
    if (!whole_section(packet, &start, &end) || packet[start] != TS_TABLE_PAT) {
        return 0;
    }
    int count = 0;
    for (gsize entry = start + 8; entry + 4 <= end - 4 && count < capacity; entry += 4) {
        guint16 program = (guint16)((packet[entry] << 8) | packet[entry + 1]);
        if (program != 0) {  // program 0 points at the network PID, not a PMT
            pids[count++] = (guint16)(((packet[entry + 2] & 0x1f) << 8) | packet[entry + 3]);
        }
    }
    return count;
}

// MARK: tsdemux's input

/// What the engine knows about one tsdemux: the PMT PIDs (from the PAT) and the PIDs of the
/// metadata streams it rewrote. Kept on the element (qdata), read and written by its streaming
/// thread and by pad-added, under the lock.
typedef struct {
    GMutex lock;
    guint16 pmt_pids[ME_TS_MAX_PMT_PIDS];
    int pmt_pid_count;
    guint16 metadata_pids[ME_TS_MAX_METADATA_PIDS];
    int metadata_pid_count;
} MeTsDemuxState;

static GQuark ts_state_quark(void) { return g_quark_from_static_string("me-timed-metadata-ts"); }

static void ts_state_free(gpointer data) {
    MeTsDemuxState *state = data;
    g_mutex_clear(&state->lock);
    g_free(state);
}

static gboolean is_pmt_pid(MeTsDemuxState *state, guint16 pid) {
    for (int i = 0; i < state->pmt_pid_count; i++) {
        if (state->pmt_pids[i] == pid) {
            return TRUE;
        }
    }
    return FALSE;
}

static void remember_metadata_pid(MeTsDemuxState *state, guint16 pid) {
    for (int i = 0; i < state->metadata_pid_count; i++) {
        if (state->metadata_pids[i] == pid) {
            return;
        }
    }
    if (state->metadata_pid_count < ME_TS_MAX_METADATA_PIDS) {
        state->metadata_pids[state->metadata_pid_count++] = pid;
    }
}

/// Whether a packet starts at `at`: a sync byte there and at the next packet (or the buffer ends
/// within a packet of it).
static gboolean packet_starts_at(const guint8 *data, gsize size, gsize at) {
    if (at >= size || data[at] != TS_SYNC_BYTE) {
        return FALSE;
    }
    return at + TS_PACKET_SIZE >= size || data[at + TS_PACKET_SIZE] == TS_SYNC_BYTE;
}

/// What one buffer of TS needs: nothing, or changes (a PMT to rewrite, a PMT packet cut by the
/// buffer's end to blank). With `data` writable, makes them.
static gboolean scan_transport_stream(MeTsDemuxState *state, guint8 *data, gsize size, gboolean writable) {
    gboolean changes = FALSE;
    gsize at = 0;
    while (at < size) {
        if (!packet_starts_at(data, size, at)) {
            at++;  // resync: a buffer may begin inside a packet
            continue;
        }
        if (at + TS_PACKET_SIZE > size) {
            // A packet cut by the end of the buffer (a pushed stream's chunks end anywhere): it
            // cannot be rewritten whole, and tsdemux keeps the first PMT of a version it sees, so
            // a PMT here is turned into a null packet; the next one (muxers repeat them every
            // 100 ms or so) is rewritten instead.
            if (size - at >= 3 && is_pmt_pid(state, packet_pid(data + at))) {
                changes = TRUE;
                if (writable) {
                    data[at + 1] = (guint8)((data[at + 1] & 0xe0) | (TS_NULL_PID >> 8));
                    data[at + 2] = (guint8)(TS_NULL_PID & 0xff);
                }
            }
            break;
        }
        guint8 *packet = data + at;
        guint16 pid = packet_pid(packet);
        if (pid == 0) {
            guint16 pids[ME_TS_MAX_PMT_PIDS];
            int count = pat_program_map_pids(packet, pids, ME_TS_MAX_PMT_PIDS);
            if (count > 0) {
                memcpy(state->pmt_pids, pids, sizeof(guint16) * (gsize)count);
                state->pmt_pid_count = count;
            }
        } else if (is_pmt_pid(state, pid) && packet[0] == TS_SYNC_BYTE) {
            if (writable) {
                guint16 pids[ME_TS_MAX_METADATA_PIDS];
                int count = me_ts_rewrite_id3_pmt(packet, pids, ME_TS_MAX_METADATA_PIDS);
                for (int i = 0; i < count; i++) {
                    remember_metadata_pid(state, pids[i]);
                }
                changes = changes || count > 0;
            } else {
                // Dry run on a copy: does this PMT declare an ID3 stream?
                guint8 copy[TS_PACKET_SIZE];
                guint16 pids[ME_TS_MAX_METADATA_PIDS];
                memcpy(copy, packet, TS_PACKET_SIZE);
                changes = changes || me_ts_rewrite_id3_pmt(copy, pids, ME_TS_MAX_METADATA_PIDS) > 0;
            }
        }
        at += TS_PACKET_SIZE;
    }
    return changes;
}

/// Rewrites one buffer if it needs it; returns the buffer to pass on (perhaps a writable copy).
static GstBuffer *rewrite_buffer(MeTsDemuxState *state, GstBuffer *buffer) {
    GstMapInfo map;
    if (!gst_buffer_map(buffer, &map, GST_MAP_READ)) {
        return buffer;
    }
    gboolean needed = scan_transport_stream(state, map.data, map.size, FALSE);
    gst_buffer_unmap(buffer, &map);
    if (!needed) {
        return buffer;
    }
    buffer = gst_buffer_make_writable(buffer);
    if (gst_buffer_map(buffer, &map, GST_MAP_READWRITE)) {
        scan_transport_stream(state, map.data, map.size, TRUE);
        gst_buffer_unmap(buffer, &map);
    }
    return buffer;
}

static gboolean rewrite_list_item(GstBuffer **buffer, guint index, gpointer user_data) {
    (void)index;
    *buffer = rewrite_buffer(user_data, *buffer);
    return TRUE;
}

static GstPadProbeReturn on_transport_stream(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)pad;
    MeTsDemuxState *state = user_data;
    g_mutex_lock(&state->lock);
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
        GST_PAD_PROBE_INFO_DATA(info) = rewrite_buffer(state, GST_PAD_PROBE_INFO_BUFFER(info));
    } else if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
        GstBufferList *list = gst_buffer_list_make_writable(GST_PAD_PROBE_INFO_BUFFER_LIST(info));
        gst_buffer_list_foreach(list, rewrite_list_item, state);
        GST_PAD_PROBE_INFO_DATA(info) = list;
    }
    g_mutex_unlock(&state->lock);
    return GST_PAD_PROBE_OK;
}

// MARK: The rewritten streams' pads

/// tsdemux names a private stream's pad "private_<program>_<pid in hex>".
static gboolean pad_is_metadata_stream(MeTsDemuxState *state, GstPad *pad) {
    gchar *name = gst_pad_get_name(pad);
    gboolean found = FALSE;
    if (name && g_str_has_prefix(name, "private_")) {
        const gchar *last = strrchr(name, '_');
        guint64 pid = g_ascii_strtoull(last + 1, NULL, 16);
        g_mutex_lock(&state->lock);
        for (int i = 0; i < state->metadata_pid_count; i++) {
            found = found || state->metadata_pids[i] == pid;
        }
        g_mutex_unlock(&state->lock);
    }
    g_free(name);
    return found;
}

void me_tsdemux_id3_install(GstElement *demuxer) {
    GstPad *sink = gst_element_get_static_pad(demuxer, "sink");
    if (sink) {
        MeTsDemuxState *state = g_new0(MeTsDemuxState, 1);
        g_mutex_init(&state->lock);
        // The element owns the state; the probe dies with it.
        g_object_set_qdata_full(G_OBJECT(demuxer), ts_state_quark(), state, ts_state_free);
        gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST, on_transport_stream,
                          state, NULL);
        gst_object_unref(sink);
    }
}

gboolean me_tsdemux_id3_pad_is_rewritten(GstElement *demuxer, GstPad *pad) {
    MeTsDemuxState *state = g_object_get_qdata(G_OBJECT(demuxer), ts_state_quark());
    return state && pad_is_metadata_stream(state, pad);
}

// MARK: decodebin

/// decodebin's autoplug-continue: a KLV stream (what the rewritten ID3 streams are, and real KLV
/// too) has no decoder in GStreamer; exposing it as it is keeps decodebin from posting a
/// missing-plugin message (which the engine would take as the reason for a later error).
/// Connected after uridecodebin's own handler, whose TRUE the boolean accumulator passes on.
static gboolean on_autoplug_continue(GstElement *decodebin, GstPad *pad, GstCaps *caps, gpointer user_data) {
    (void)decodebin; (void)pad; (void)user_data;
    if (caps && gst_caps_get_size(caps) > 0) {
        const GstStructure *s = gst_caps_get_structure(caps, 0);
        if (gst_structure_has_name(s, "meta/x-klv")) {
            return FALSE;
        }
    }
    return TRUE;
}

void me_tsdemux_id3_watch_decodebin(GstElement *decodebin) {
    g_signal_connect(decodebin, "autoplug-continue", G_CALLBACK(on_autoplug_continue), NULL);
}
