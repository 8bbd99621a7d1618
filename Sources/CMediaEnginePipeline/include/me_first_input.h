// An element's first input (firstinput.c).
#pragma once
#include "me_signals.h"

/// Calls `callback` (with `element` twice) when the first buffer reaches `element`'s "sink" pad,
/// on the streaming thread that pushes it, once; `destroy` frees `user_data` afterwards (or with
/// the pad). For settings an element's parent would overwrite between creating the element and
/// starting it (decodebin sets every demuxer's `connection-speed` after adding it). False when
/// the element has no "sink" pad.
gboolean me_on_first_input(GstElement *element, me_element_callback callback, gpointer user_data,
                           GDestroyNotify destroy);
