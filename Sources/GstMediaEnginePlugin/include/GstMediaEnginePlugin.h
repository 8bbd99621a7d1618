// libgstmediaengine.so: GStreamer finds it by its gst_plugin_mediaengine_get_desc symbol
// (GST_PLUGIN_DEFINE in plugin.c); nothing here is for Swift.
#pragma once
