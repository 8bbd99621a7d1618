// The engine's own GStreamer elements, as one plugin, "mediaengine" (elements.c): mescaler
// (scaler.c), meframeselect (frameselect.c), mebackdrop (backdrop.c), meoutputbin (outputbin.c),
// and the decoders a decoder target installs (me_decoders.h: meh264dec, meh265dec). Registered
// statically in the engine's process, and built as the loadable plugin libgstmediaengine.so (the
// `gstmediaengine` product, plugin.c) for gst-inspect-1.0 and gst-launch-1.0.
#pragma once
#include <gst/gst.h>

/// Registers the engine's own elements in the process. Call once after gst_init.
gboolean me_register_elements(void);
/// Registers the engine's elements in `plugin` (the loadable plugin's init, or the static one's).
gboolean me_register_elements_in(GstPlugin *plugin);
/// The plugin's description, for both ways of registering it.
#define ME_PLUGIN_DESCRIPTION                                                                                          \
    "swift-media-engine's elements: decoders that hand libavcodec's pictures over without a copy, the scaler, "        \
    "frame selection, the backdrop and the player's video output bin"
/// The author every element's metadata names.
#define ME_ELEMENT_AUTHOR "swift-media-engine <https://github.com/swift-media-engine>"
