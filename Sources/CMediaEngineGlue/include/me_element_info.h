// What an element is and where it stands, read under the right lock: its factory's name and
// class, the state the application last asked for (elementinfo.c).
#pragma once
#include <gst/gst.h>

/// GST_OBJECT_NAME of an element's factory, or NULL.
const gchar *me_element_factory_name(GstElement *element);
/// Its factory's class ("Codec/Demuxer/Adaptive"), or NULL.
const gchar *me_element_klass(GstElement *element);
/// GST_STATE_TARGET, under the element's object lock: the state the application last asked for
/// (PLAYING while a bin's state is lost to a child's preroll, as its current and pending state say
/// PAUSED).
GstState me_element_target_state(GstElement *element);
/// Whether `element` is a demuxer (its factory's class names one).
gboolean me_element_is_demuxer(GstElement *element);
/// Whether `object` is a demuxer with no source pad yet: an error it posts is about a container it
/// could not read a single stream from.
gboolean me_is_demuxer_without_streams(GstObject *object);
/// Whether `element` is an adaptive-streaming demuxer (its class has Demux and Adaptive:
/// hlsdemux, dashdemux, mssdemux).
gboolean me_is_adaptive_demuxer(GstElement *element);
/// Whether `element` reads a URI (a source element: souphttpsrc, filesrc, ...).
gboolean me_is_uri_source(GstElement *element);
