// Read-only pictures a decoder has since let go of, written in place after all.
//
// The engine's libav decoders hand their pictures downstream as read-only memories (libavdecoder.c):
// libav may still read a picture as a reference for later ones. Many pictures stop being needed
// soon after: a B-picture nothing refers to as soon as it is out, a reference once later pictures
// have replaced it. The scaler, which must write into a frame to blend overlays over it, used to
// copy every read-only frame first (scaler.c). It now asks whether the decoder still holds the
// picture: if the buffer, its memories and the decoder's side (libav's reference counts) are all
// held by this one frame, no one else can see the pixels, and the memories become writable.
#include "me_released_picture.h"

typedef struct {
    me_picture_released_callback released;
    gpointer owner;
} ReleaseCheck;

// release_check_quark(): the memories' qdata key.
static G_DEFINE_QUARK(me-picture-release-check, release_check)

void me_picture_memory_set_release_check(GstMemory *memory, me_picture_released_callback released, gpointer owner) {
    ReleaseCheck *check = g_new(ReleaseCheck, 1);
    check->released = released;
    check->owner = owner;
    gst_mini_object_set_qdata(GST_MINI_OBJECT_CAST(memory), release_check_quark(), check, g_free);
}

gboolean me_picture_buffer_claim(GstBuffer *buffer) {
    if (!gst_buffer_is_writable(buffer)) {
        return FALSE; // another holder of the buffer would see the change
    }
    const ReleaseCheck *check = NULL;
    guint count = gst_buffer_n_memory(buffer);
    for (guint index = 0; index < count; index++) {
        GstMemory *memory = gst_buffer_peek_memory(buffer, index);
        // Held only by this buffer: one reference, one exclusive lock (the buffer's).
        if (GST_MINI_OBJECT_REFCOUNT_VALUE(memory) != 1 || !gst_mini_object_is_writable(GST_MINI_OBJECT_CAST(memory))) {
            return FALSE;
        }
        if (!GST_MEMORY_IS_READONLY(memory)) {
            continue;
        }
        const ReleaseCheck *own = gst_mini_object_get_qdata(GST_MINI_OBJECT_CAST(memory), release_check_quark());
        // Read-only for a reason no decoder of ours answers for; or planes of two pictures.
        if (!own || (check && (own->owner != check->owner || own->released != check->released))) {
            return FALSE;
        }
        check = own;
    }
    if (check && !check->released(check->owner)) {
        return FALSE;
    }
    for (guint index = 0; index < count; index++) {
        GST_MINI_OBJECT_FLAG_UNSET(gst_buffer_peek_memory(buffer, index), GST_MEMORY_FLAG_READONLY);
    }
    return TRUE;
}
