// Workaround "dash-manifest" (manifestcapture.c): a copy of the manifest an adaptive demuxer reads,
// posted whole, so the engine can tell dashdemux's switches from its segments' URIs.
#pragma once
#include <gst/gst.h>

/// Copies the manifest `demuxer` reads (up to ME_MANIFEST_MAX_BYTES) and posts it as
/// ME_MESSAGE_MANIFEST when it has all of it. Install before the manifest arrives.
void me_capture_manifest(GstElement *demuxer);
