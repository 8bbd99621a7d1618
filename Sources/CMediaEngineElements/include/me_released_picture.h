// Pictures a decoder let go of (releasedpicture.c): how a decoder (the CMediaEngineLibavDecoder target's)
// marks the read-only memories of its pictures, and how an element that writes into frames (the
// scaler) claims them once the decoder no longer reads them, instead of copying.
#pragma once
#include <gst/gst.h>

/// Whether the decoder that made a picture holds it no more (libav: no reference of its own left);
/// `owner` is what the decoder set with the check. Called on the streaming thread of the frame.
typedef gboolean (*me_picture_released_callback)(gpointer owner);
/// Marks a decoder's read-only `memory` (a plane of a picture the decoder may still read) with the
/// question `released(owner)`; `owner` must live as long as the memory does.
void me_picture_memory_set_release_check(GstMemory *memory, me_picture_released_callback released, gpointer owner);
/// Makes `buffer`'s read-only memories writable if only this buffer holds them and their decoder
/// has let their picture go (each memory's check); true when the buffer can then be written in
/// place, false (nothing changed) when it must be copied first.
gboolean me_picture_buffer_claim(GstBuffer *buffer);
