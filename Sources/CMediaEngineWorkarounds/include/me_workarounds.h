// The registry of the engine's workarounds for GStreamer's bugs (registry.c): one table listing
// each (its name, the bug, the GStreamer release that fixed it), and whether each is active.
//
// A workaround is active when the running GStreamer (gst_version(), at run time: not the headers
// the engine was built with) is older than the release that fixed its bug, or always when the bug
// is unfixed. The place that installs a workaround asks me_workaround_active first; when it says
// no, the engine does exactly what it would do without the workaround's code, and the bug shows.
//
// Overrides, for tests and for GStreamer builds patched or backported by a distribution:
//   MEDIA_ENGINE_WORKAROUNDS=gapless-eos=off,keyframe-flags=on   (read once, at the first question;
//   `all=off` or `all=on` sets every one, later entries win), and me_workaround_override, which a
//   test calls before it builds a pipeline (a workaround is consulted when it is installed: the
//   pipelines built before keep what they have). The Swift view is GStreamerWorkaround
//   (Sources/MediaEngineCore/GStreamer/GStreamerWorkaround.swift); MEDIA_ENGINE_TRACE=1 prints the
//   table's decisions once, when GStreamer starts.
//
// Each workaround's bug is shown with the workaround forced off, and fixed with it on, by
// WorkaroundReproductionTests: a scenario per workaround, run twice in a child process
// (Tests/WorkaroundCheck, `MEDIA_ENGINE_WORKAROUNDS=NAME=off engine-workaround-check NAME ...`).
#pragma once
#include <glib.h>

/// Each workaround; its file in Sources/CMediaEngineWorkarounds (or the Swift that installs it)
/// names the bug, the versions it affects, and how it was found.
typedef enum {
    ME_WORKAROUND_GAPLESS_EOS,          // gaplesseos.c
    ME_WORKAROUND_INSTANT_RATE,         // instantrate.c
    ME_WORKAROUND_UPSTREAM_LOOP_SEEK,   // upstreamseek.c
    ME_WORKAROUND_SINK_FLOW_GUARD,      // sinkflowguard.c
    ME_WORKAROUND_KEYFRAME_FLAGS,       // keyframes.c
    ME_WORKAROUND_RELOAD_SOURCES,       // reloadsources.c
    ME_WORKAROUND_TSDEMUX_ID3,          // tsdemuxid3.c
    ME_WORKAROUND_AAC_ID3,              // aacid3.c
    ME_WORKAROUND_DASH_MANIFEST,        // manifestcapture.c
    ME_WORKAROUND_FRAGMENT_GATE,        // fragmentgate.c
    ME_WORKAROUND_BUFFERING_THRESHOLDS, // bufferingthresholds.c
    ME_WORKAROUND_LOOP_RUNNING_TIME,    // loopcontinuity.c
    ME_WORKAROUND_STALLED_DEMUXER,      // stalleddemuxer.c
    ME_WORKAROUND_APPSINK_VIDEO_META,   // videometa.c
    ME_WORKAROUND_ADAPTIVE_START_BITRATE,    // adaptivestart.c
    ME_WORKAROUND_PLAYSINK_VOLUME_LEAK, // Swift: PipelineSession.swift (playbin's flags)
    ME_WORKAROUND_OVERLAY_GLOBAL_ALPHA, // Swift: OverlayCompositor.swift
    ME_WORKAROUND_SOUP_CA_FILE,         // Swift: HTTPStreamSource+Element.swift
    ME_WORKAROUND_KEY_UNIT_SEEK,        // Swift: the player's machine (PlayerMachine+Seeking.swift)
    ME_WORKAROUND_PAUSED_AUDIO_SWITCH,  // Swift: the player's machine (PlayerMachine+Tracks.swift)
    ME_WORKAROUND_COUNT
} MeWorkaround;

/// What decided whether a workaround is active.
typedef enum {
    ME_WORKAROUND_BY_VERSION,     // the running GStreamer's version
    ME_WORKAROUND_BY_ENVIRONMENT, // MEDIA_ENGINE_WORKAROUNDS
    ME_WORKAROUND_BY_OVERRIDE,    // me_workaround_override
} MeWorkaroundDecision;

/// Whether `workaround` is to be installed. Cheap (an array read after the first call); any thread.
gboolean me_workaround_active(MeWorkaround workaround);
/// What decided it.
MeWorkaroundDecision me_workaround_decision(MeWorkaround workaround);
/// Its name, the key MEDIA_ENGINE_WORKAROUNDS uses ("gapless-eos"); NULL past the table.
const gchar *me_workaround_name(MeWorkaround workaround);
/// The bug in one line.
const gchar *me_workaround_summary(MeWorkaround workaround);
/// The first GStreamer release without the bug ("1.28.0"), or NULL while it is unfixed.
const gchar *me_workaround_fixed_in(MeWorkaround workaround);
/// Forces `workaround` on (1) or off (0) from now on, in this process, over the version and the
/// environment; -1 goes back to them. For tests: call it before building the pipeline.
void me_workaround_override(MeWorkaround workaround, gint active);
