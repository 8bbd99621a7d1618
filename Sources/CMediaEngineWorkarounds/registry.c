// The workarounds' table and the decision for each (me_workarounds.h).
//
// Versions are compared as major.minor.micro of the GStreamer core library the process runs
// (gst_version()). A bug lives in a plugin, whose version a distribution ships with the core's;
// a GStreamer patched without a release is told so through MEDIA_ENGINE_WORKAROUNDS.
#include "me_workarounds.h"
#include <gst/gst.h>
#include <string.h>

typedef struct {
    const gchar *name;
    const gchar *summary;
    guint fixed_major, fixed_minor, fixed_micro; // 0.0.0: unfixed
    const gchar *fixed_in;                       // the same as text, or NULL
} Entry;

// One line per workaround; its file's header comment says more (bug, versions, how it was found).
static const Entry table[ME_WORKAROUND_COUNT] = {
    [ME_WORKAROUND_GAPLESS_EOS] = {"gapless-eos",
                                   "playbin deadlocks at a gapless switch when the stream that ended first waits in "
                                   "playsink's stream synchronizer holding its pad's stream lock",
                                   0, 0, 0, NULL},
    [ME_WORKAROUND_INSTANT_RATE] = {"instant-rate-relay",
                                    "a sink's INSTANT_RATE_REQUEST is handled on a streaming thread under the "
                                    "pipeline's STATE_LOCK (deadlock), and reaches sinks without a segment (assertion)",
                                    0, 0, 0, NULL},
    [ME_WORKAROUND_UPSTREAM_LOOP_SEEK] = {"upstream-loop-seek",
                                          "gst_element_send_event holds the state locks until a demuxer takes a "
                                          "non-flushing seek, which waits for a streaming thread blocked until PLAYING",
                                          0, 0, 0, NULL},
    [ME_WORKAROUND_SINK_FLOW_GUARD] = {"sink-flow-guard",
                                       "srtsink returns FLUSHING while its pad is not flushing (a pause's unlock), "
                                       "which stops the stream for good",
                                       0, 0, 0, NULL},
    [ME_WORKAROUND_KEYFRAME_FLAGS] = {"keyframe-flags",
                                      "video decoders (GstVideoDecoder) clear DELTA_UNIT on every picture they output: "
                                      "every raw frame looks like a keyframe",
                                      0, 0, 0, NULL},
    [ME_WORKAROUND_RELOAD_SOURCES] = {"reload-sources",
                                      "a playbin reused from READY starts the previous movie's source on its way up "
                                      "(one wasted request per reload)",
                                      0, 0, 0, NULL},
    [ME_WORKAROUND_TSDEMUX_ID3] = {"tsdemux-id3",
                                   "tsdemux does not expose an ID3 timed-metadata stream (PMT stream type 0x15)", 1, 28,
                                   0, "1.28.0"},
    [ME_WORKAROUND_AAC_ID3] = {"aac-id3",
                               "an .aac file (or HLS packed audio) that starts with an ID3 tag is typefound as AAC, "
                               "no id3demux is plugged, and aacparse skips the tag unread",
                               0, 0, 0, NULL},
    [ME_WORKAROUND_DASH_MANIFEST] = {"dash-manifest",
                                     "dashdemux does not report its moves to another representation", 0, 0, 0, NULL},
    [ME_WORKAROUND_FRAGMENT_GATE] = {"fragment-gate",
                                     "an adaptive demuxer reads ahead and switches variant while the first picture "
                                     "is decoded, competing with it for the CPU",
                                     0, 0, 0, NULL},
    [ME_WORKAROUND_BUFFERING_THRESHOLDS] = {"buffering-thresholds",
                                            "playbin exposes the maximum a stream buffers but not where buffering "
                                            "starts and ends (its queue2's and multiqueue's watermarks)",
                                            0, 0, 0, NULL},
    [ME_WORKAROUND_LOOP_RUNNING_TIME] = {"loop-running-time",
                                         "a non-flushing segment seek starts the next segment's running time at the "
                                         "last buffer's start, not the segment's end: each loop starts a frame early",
                                         0, 0, 0, NULL},
    [ME_WORKAROUND_STALLED_DEMUXER] = {"stalled-demuxer",
                                       "decodebin drops the error of a demuxer that fails while it is being set up, "
                                       "and the pipeline waits for a preroll that never comes",
                                       0, 0, 0, NULL},
    [ME_WORKAROUND_APPSINK_VIDEO_META] = {"appsink-video-meta",
                                          "appsink answers no allocation query, so decoders copy every picture instead "
                                          "of handing it over with a GstVideoMeta",
                                          0, 0, 0, NULL},
    [ME_WORKAROUND_ADAPTIVE_START_BITRATE] = {"adaptive-start-bitrate",
                                         "hlsdemux and dashdemux have no start bitrate (hlsdemux2's cannot run in "
                                         "playbin)",
                                         0, 0, 0, NULL},
    [ME_WORKAROUND_PLAYSINK_VOLUME_LEAK] = {"playsink-volume-leak",
                                            "playsink leaks its soft-volume element (and its two pads) once per "
                                            "pipeline",
                                            1, 22, 3, "1.22.3"},
    [ME_WORKAROUND_OVERLAY_GLOBAL_ALPHA] = {"overlay-global-alpha",
                                            "converting a translucent overlay rectangle's pixels sets the opacity on "
                                            "a NULL rectangle: a CRITICAL for every translucent overlay",
                                            0, 0, 0, NULL},
    [ME_WORKAROUND_SOUP_CA_FILE] = {"souphttpsrc-ca-file",
                                    "souphttpsrc with libsoup 3 ignores its ssl-ca-file property", 0, 0, 0, NULL},
    [ME_WORKAROUND_KEY_UNIT_SEEK] = {"keyunit-seek-snap",
                                     "qtdemux snaps a KEY_UNIT seek to the earliest keyframe of all streams (an audio "
                                     "frame's), and the video then decodes a whole GOP before the target",
                                     0, 0, 0, NULL},
    [ME_WORKAROUND_PAUSED_AUDIO_SWITCH] = {"paused-audio-switch",
                                           "switching playbin's audio track while PAUSED deadlocks the next flushing "
                                           "seek (the old track's thread waits in playsink's full queue holding the "
                                           "input-selector's output)",
                                           0, 0, 0, NULL},
};

// 0: no override; 1: off; 2: on. Written by me_workaround_override, read by me_workaround_active.
static gint overrides[ME_WORKAROUND_COUNT];

typedef struct {
    gboolean active[ME_WORKAROUND_COUNT];
    MeWorkaroundDecision decision[ME_WORKAROUND_COUNT];
} Decisions;

static gboolean affects(const Entry *entry, guint major, guint minor, guint micro) {
    if (entry->fixed_major == 0) return TRUE;
    if (major != entry->fixed_major) return major < entry->fixed_major;
    if (minor != entry->fixed_minor) return minor < entry->fixed_minor;
    return micro < entry->fixed_micro;
}

static gboolean parse_state(const gchar *text, gboolean *active) {
    static const gchar *on[] = {"on", "1", "yes", "true"};
    static const gchar *off[] = {"off", "0", "no", "false"};
    for (guint i = 0; i < G_N_ELEMENTS(on); i++) {
        if (g_ascii_strcasecmp(text, on[i]) == 0) {
            *active = TRUE;
            return TRUE;
        }
        if (g_ascii_strcasecmp(text, off[i]) == 0) {
            *active = FALSE;
            return TRUE;
        }
    }
    return FALSE;
}

// MEDIA_ENGINE_WORKAROUNDS: "name=on|off,..." ("all" names every one; later entries win).
static void apply_environment(Decisions *decisions) {
    const gchar *setting = g_getenv("MEDIA_ENGINE_WORKAROUNDS");
    if (!setting) return;
    gchar **entries = g_strsplit(setting, ",", -1);
    for (gchar **entry = entries; *entry; entry++) {
        gchar **parts = g_strsplit(*entry, "=", 2);
        const gchar *name = parts[0] ? g_strstrip(parts[0]) : "";
        gboolean active = FALSE;
        if (*name == '\0') {
            g_strfreev(parts);
            continue;
        }
        if (!parts[1] || !parse_state(g_strstrip(parts[1]), &active)) {
            g_printerr("MEDIA_ENGINE_WORKAROUNDS: '%s' is not NAME=on or NAME=off; ignored\n", *entry);
            g_strfreev(parts);
            continue;
        }
        gboolean known = FALSE;
        for (guint index = 0; index < ME_WORKAROUND_COUNT; index++) {
            if (g_str_equal(name, "all") || g_str_equal(name, table[index].name)) {
                decisions->active[index] = active;
                decisions->decision[index] = ME_WORKAROUND_BY_ENVIRONMENT;
                known = TRUE;
            }
        }
        if (!known) g_printerr("MEDIA_ENGINE_WORKAROUNDS: no workaround is named '%s'; ignored\n", name);
        g_strfreev(parts);
    }
    g_strfreev(entries);
}

static const Decisions *decisions(void) {
    static Decisions made;
    static gsize done = 0;
    if (g_once_init_enter(&done)) {
        guint major = 0, minor = 0, micro = 0, nano = 0;
        gst_version(&major, &minor, &micro, &nano);
        for (guint index = 0; index < ME_WORKAROUND_COUNT; index++) {
            made.active[index] = affects(&table[index], major, minor, micro);
            made.decision[index] = ME_WORKAROUND_BY_VERSION;
        }
        apply_environment(&made);
        g_once_init_leave(&done, 1);
    }
    return &made;
}

gboolean me_workaround_active(MeWorkaround workaround) {
    if ((guint)workaround >= ME_WORKAROUND_COUNT) return FALSE;
    gint forced = g_atomic_int_get(&overrides[workaround]);
    if (forced != 0) return forced == 2;
    return decisions()->active[workaround];
}

MeWorkaroundDecision me_workaround_decision(MeWorkaround workaround) {
    if ((guint)workaround >= ME_WORKAROUND_COUNT) return ME_WORKAROUND_BY_VERSION;
    if (g_atomic_int_get(&overrides[workaround]) != 0) return ME_WORKAROUND_BY_OVERRIDE;
    return decisions()->decision[workaround];
}

const gchar *me_workaround_name(MeWorkaround workaround) {
    return (guint)workaround < ME_WORKAROUND_COUNT ? table[workaround].name : NULL;
}

const gchar *me_workaround_summary(MeWorkaround workaround) {
    return (guint)workaround < ME_WORKAROUND_COUNT ? table[workaround].summary : NULL;
}

const gchar *me_workaround_fixed_in(MeWorkaround workaround) {
    return (guint)workaround < ME_WORKAROUND_COUNT ? table[workaround].fixed_in : NULL;
}

void me_workaround_override(MeWorkaround workaround, gint active) {
    if ((guint)workaround >= ME_WORKAROUND_COUNT) return;
    g_atomic_int_set(&overrides[workaround], active < 0 ? 0 : active ? 2 : 1);
}
