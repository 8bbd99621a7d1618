// The engine's own decoders, registered with its other elements: the CLibavDecoder target's
// (meh264dec, meh265dec), installed from its constructor when it is linked (the MediaEngine
// product and the loadable plugin), or none (MediaEngineCore alone: GStreamer's own decoders).
#include "CGStreamerShim.h"

// Written once, before main or at the plugin's load (a constructor), read after.
static gpointer installed;

void me_decoders_install(me_decoder_registrar registrar) { g_atomic_pointer_set(&installed, (gpointer)registrar); }

gboolean me_register_decoders(GstPlugin *plugin, me_decoder_rank_callback rank, gboolean ranked) {
    me_decoder_registrar registrar = (me_decoder_registrar)g_atomic_pointer_get(&installed);
    return registrar ? registrar(plugin, rank, ranked) : TRUE;
}
