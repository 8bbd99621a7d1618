// Swapping a running pipeline's video output between two buffers (swap.c).
#pragma once
#include <gst/gst.h>

/// Replaces the chain of elements after `upstream` inside `bin` (see swap.c), setting the
/// upstream scaler's output size on the way; posts ME_MESSAGE_OUTPUT_SWAPPED on `bin` when done.
/// Adds the new chain to `bin` and brings it to the bin's state on the calling thread (the
/// player's); only the relink itself runs between two buffers, on the streaming thread.
/// `unblock_old`: the pipeline is paused and the old output holds its streaming thread.
void me_swap_chain(GstElement *bin, GstElement *upstream, GstElement **old_chain, guint old_count,
                   GstElement **new_chain, guint new_count, guint width, guint height, gboolean unblock_old);
/// Shuts down an element of an output a swap replaced and takes it out of `bin`, once that swap's
/// probe has unlinked it (its state is locked then); FALSE, doing nothing, before that. On the
/// player's thread, when it handles ME_MESSAGE_OUTPUT_SWAPPED.
gboolean me_swap_remove_replaced(GstElement *bin, GstElement *element);
