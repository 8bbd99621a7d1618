// GStreamer's network library (libgstnet: the network time provider and client clock) for the
// one target that needs it, CMediaEngineNetClock. Includes only, as CMediaEngineCGStreamer.
#pragma once
#include <gst/gst.h>
#include <gst/net/net.h>
