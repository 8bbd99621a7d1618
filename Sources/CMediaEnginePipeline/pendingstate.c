// A pipeline stuck on its way to NULL (a sink that blocks in its state change, a source that
// hangs) is reported with the element that holds it up: the deepest element still between two
// states. Its parents are between states too, waiting for it, so the deepest is the one to name.
#include "me_pending_state.h"

typedef struct {
    GstElement *element;
    guint depth;
    GstState current, next;
} Pending;

static void collect(GstElement *element, guint depth, GArray *found) {
    GST_OBJECT_LOCK(element);
    GstState current = GST_STATE(element);
    GstState next = GST_STATE_NEXT(element);
    GstState pending = GST_STATE_PENDING(element);
    GST_OBJECT_UNLOCK(element);
    if (next != GST_STATE_VOID_PENDING || pending != GST_STATE_VOID_PENDING) {
        Pending entry = {gst_object_ref(element), depth, current,
                         next != GST_STATE_VOID_PENDING ? next : pending};
        g_array_append_val(found, entry);
    }
    if (!GST_IS_BIN(element)) return;
    // The children under the bin's object lock, each referenced, then looked at without it.
    GST_OBJECT_LOCK(element);
    GList *children = g_list_copy_deep(GST_BIN_CHILDREN(element), (GCopyFunc)gst_object_ref, NULL);
    GST_OBJECT_UNLOCK(element);
    for (GList *child = children; child != NULL; child = child->next) collect(GST_ELEMENT(child->data), depth + 1, found);
    g_list_free_full(children, gst_object_unref);
}

static gint deepest_first(gconstpointer a, gconstpointer b) {
    const Pending *left = a, *right = b;
    return (gint)right->depth - (gint)left->depth;
}

gchar *me_describe_pending_state_changes(GstElement *bin) {
    if (bin == NULL) return NULL;
    GArray *found = g_array_new(FALSE, FALSE, sizeof(Pending));
    collect(bin, 0, found);
    if (found->len == 0) {
        g_array_free(found, TRUE);
        return NULL;
    }
    g_array_sort(found, deepest_first);
    GString *text = g_string_new(NULL);
    guint deepest = g_array_index(found, Pending, 0).depth;
    for (guint index = 0; index < found->len; index++) {
        Pending *entry = &g_array_index(found, Pending, index);
        if (entry->depth == deepest) {
            GstElementFactory *factory = gst_element_get_factory(entry->element);
            gchar *name = gst_object_get_name(GST_OBJECT(entry->element));
            g_string_append_printf(text, "%s%s (%s): %s to %s", text->len ? "; " : "", name,
                                   factory ? GST_OBJECT_NAME(factory) : G_OBJECT_TYPE_NAME(entry->element),
                                   gst_element_state_get_name(entry->current),
                                   gst_element_state_get_name(entry->next));
            g_free(name);
        }
        gst_object_unref(entry->element);
    }
    g_array_free(found, TRUE);
    return g_string_free(text, FALSE);
}
