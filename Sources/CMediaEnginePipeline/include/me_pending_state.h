// Which elements of a pipeline are still changing state (pendingstate.c): the names a stuck
// teardown is reported with.
#pragma once
#include <gst/gst.h>

/// The elements inside `bin` (at any depth, `bin` itself included) whose state change has not
/// completed, deepest first: "appsink0 (appsink): PAUSED to READY; ..." (g_free it), or NULL when
/// none is. Reads each element's state fields under its object lock only (never its state lock,
/// which the stuck change holds), so it answers while a teardown is stuck.
gchar *me_describe_pending_state_changes(GstElement *bin);
