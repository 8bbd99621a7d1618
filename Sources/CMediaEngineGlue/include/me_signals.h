// Signals with typed callbacks: g_signal_connect is a macro over GCallback, which Swift cannot
// call with a C function of another type (signals.c).
#pragma once
#include <gst/gst.h>

typedef void (*me_element_callback)(GstElement *self, GstElement *element, gpointer user_data);
/// Connects a handler for a signal of signature void (GstElement*, GstElement*, gpointer),
/// such as playbin's "source-setup".
gulong me_signal_connect_element(gpointer instance, const gchar *signal, me_element_callback callback,
                                 gpointer user_data, GClosureNotify destroy);

/// playbin's about-to-finish: called on a streaming thread with the playbin. Its only argument is
/// the playbin, which me_element_callback does not fit.
typedef void (*me_about_to_finish_callback)(GstElement *playbin, gpointer user_data);
gulong me_connect_about_to_finish(GstElement *playbin, me_about_to_finish_callback callback, gpointer user_data,
                                  GClosureNotify destroy);

/// Called with each sink pad of an element (me_watch_sink_pads).
typedef void (*me_pad_callback)(GstElement *element, GstPad *pad, gpointer user_data);
/// Calls `callback` with each sink pad `element` has now and, from its "pad-added", each one it
/// adds later; the handler keeps `user_data`, which `destroy` frees with the element's handler.
/// FALSE, doing nothing, when `element` is NULL.
gboolean me_watch_sink_pads(GstElement *element, me_pad_callback callback, gpointer user_data, GClosureNotify destroy);
