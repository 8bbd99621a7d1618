// Gapless hand-over: playbin's about-to-finish signal, when the current movie's source has
// delivered everything, is where the next movie's URI must be set for playbin to play it
// right after, without a gap (a pre-roll ad, then the content). The signal has no argument
// but the playbin, which me_signal_connect_element's callback type does not fit.
#include "CGStreamerShim.h"

gulong me_connect_about_to_finish(GstElement *playbin, me_about_to_finish_callback callback, gpointer user_data,
                                  GClosureNotify destroy) {
    return g_signal_connect_data(playbin, "about-to-finish", G_CALLBACK(callback), user_data, destroy, 0);
}

guint me_message_group_id(GstMessage *message) {
    guint group = 0;
    if (!gst_message_parse_group_id(message, &group)) return 0;
    return group;
}
