// Stream groups: which movie of a gapless queue an element plays, and that movie's own duration
// (streamgroups.c).
#pragma once
#include <gst/gst.h>

/// The stream group of the element that posted `message` (a DURATION_CHANGED): the group id of
/// the stream start its pads carry, 0 when it has none.
guint me_message_source_group_id(GstMessage *message);
/// The duration (time) of stream group `group` in `pipeline`, asked of the elements that carry
/// that group's stream start outside playsink; FALSE when none answers.
gboolean me_stream_group_duration(GstElement *pipeline, guint group, gint64 *duration);
