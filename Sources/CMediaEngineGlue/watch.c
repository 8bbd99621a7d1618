// What a C callback installed for Swift holds on to (me_watch.h).
#include "me_watch.h"

gpointer me_watch_new(gsize size, gpointer data, GDestroyNotify destroy) {
    g_assert(size >= sizeof(MeWatchOwner));
    MeWatchOwner *owner = g_malloc0(size);
    owner->data = data;
    owner->destroy = destroy;
    return owner;
}

void me_watch_free(gpointer watch) {
    MeWatchOwner *owner = watch;
    if (!owner) return;
    if (owner->destroy) owner->destroy(owner->data);
    g_free(owner);
}
