// The GStreamer headers the engine uses. Includes only: code that Swift cannot
// import lives in the CMediaEngine C targets, because SwiftPM does not track changes to a
// system library's headers.
#pragma once
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/base/gstbasesink.h>
#include <gst/pbutils/pbutils.h>
#include <gst/video/video.h>
#include <gst/video/videooverlay.h>
#include <gst/video/navigation.h>
