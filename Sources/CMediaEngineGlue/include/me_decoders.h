// The engine's own decoders: the point where a decoder target installs them (the CMediaEngineLibavDecoder
// target's meh264dec and meh265dec, from its constructor when it is linked), and the ranks the
// engine prefers them at (decoders.c). The core alone (MediaEngineCore) has none, and GStreamer's
// own decoders (avdec_h264, ...) decode.
#pragma once
#include <gst/gst.h>

/// The rank a decoder element registers with: its factory name and the media type it decodes.
typedef guint (*me_decoder_rank_callback)(const gchar *element, const gchar *media_type);
/// Registers decoder elements in `plugin`: at the rank `rank` gives them when `ranked` (a loadable
/// plugin), or at NONE with that rank kept as the engine's preference (me_decoder_preference_record).
typedef gboolean (*me_decoder_registrar)(GstPlugin *plugin, me_decoder_rank_callback rank, gboolean ranked);
/// Installs the engine's own decoders: registered with the engine's other elements.
void me_decoders_install(me_decoder_registrar registrar);
/// Registers the installed decoders, if any, as `me_decoder_registrar` says (TRUE when none).
gboolean me_register_decoders(GstPlugin *plugin, me_decoder_rank_callback rank, gboolean ranked);

/// The most decoders the engine keeps a preference for.
#define ME_MAX_PREFERRED_DECODERS 8
/// One decoder the engine prefers in its own pipelines, at `rank`.
typedef struct {
    const gchar *element; // its factory's name (kept for the process's life)
    guint rank;
} MeDecoderPreference;
/// Keeps `rank` as the engine's preference for decoder `element` in its own pipelines.
void me_decoder_preference_record(const gchar *element, guint rank);
/// Copies the preferences into `preferences` (ME_MAX_PREFERRED_DECODERS of them at most);
/// returns how many.
guint me_decoder_preferences(MeDecoderPreference *preferences);
/// Gives the engine's decoders their preferred rank in the registry: every decodebin in the
/// process then prefers them (an app's opt-in); FALSE takes it back (rank NONE).
void me_prefer_engine_decoders_everywhere(gboolean everywhere);
