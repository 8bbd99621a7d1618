// The engine's elements as a loadable GStreamer plugin, libgstmediaengine.so (the
// `gstmediaengine` product), for reproducing a problem without Swift:
//
//   swift build --product gstmediaengine
//   gst-inspect-1.0 --gst-plugin-path=.build/debug meh264dec
//   gst-launch-1.0 --gst-plugin-path=.build/debug filesrc location=movie.mp4 ! qtdemux ! h264parse ! \
//       meh264dec ! mescaler ! video/x-raw,width=640,height=360 ! autovideosink
//
// The same elements the engine registers in its own process (elements.c), from the same code; the
// libav decoders come with the CMediaEngineLibavDecoder target, which the product links and which installs
// them from its constructor when the plugin is opened.
// GST_PLUGIN_DEFINE names the plugin's source package by this macro.
#define PACKAGE "swift-media-engine"
#include "me_elements.h"

static gboolean plugin_init(GstPlugin *plugin) { return me_register_elements_in(plugin); }

GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, mediaengine, ME_PLUGIN_DESCRIPTION, plugin_init, "1.0",
                  GST_LICENSE_UNKNOWN, "swift-media-engine", "https://github.com/swift-media-engine")
