// Workaround "reload-sources" (reloadsources.c): a reused playbin does not start the previous
// movie's source on its way up.
#pragma once
#include <gst/gst.h>

/// Locks the state of the uridecodebins a playbin at READY keeps from the movie before, so that
/// its next move up to PAUSED starts only the source of the new URI.
void me_lock_previous_sources(GstElement *playbin);
