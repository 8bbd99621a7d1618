// Workaround "aac-id3" (aacid3.c): the ID3 tag at the start of packed AAC, which aacparse skips
// unread when no id3demux was plugged before it.
#pragma once
#include <gst/gst.h>

/// Called on the streaming thread with a buffer that starts with a whole ID3v2 tag (its size
/// checked against the buffer's), the stream time where its audio starts and the sequence number
/// of the segment it came in (0: unknown), from `element`.
typedef void (*me_id3_tag_callback)(GstElement *element, GstBuffer *tag, guint64 stream_time, guint32 seqnum,
                                    gpointer user_data);
/// Hands the ID3 tag at the start of each packed-audio buffer entering `aacparse` to `callback`;
/// `user_data` must live as long as the element (the engine passes NULL).
void me_aac_id3_watch(GstElement *aacparse, me_id3_tag_callback callback, gpointer user_data);
