// What a C callback installed for Swift holds on to (watch.c): the data Swift gave with it and
// how to let that data go. Every watch struct (a probe's, a signal's) starts with one, so that one
// allocation and one free function serve them all.
#pragma once
#include <glib.h>

typedef struct {
    gpointer data;
    GDestroyNotify destroy; // may be NULL
} MeWatchOwner;

/// A zeroed watch of `size` bytes (a struct whose first member is an MeWatchOwner), owning
/// `data`: `destroy` is called on it when the watch is freed.
gpointer me_watch_new(gsize size, gpointer data, GDestroyNotify destroy);

/// Lets the watch's data go, then frees the watch: the GDestroyNotify of a probe or signal that
/// holds a watch made by me_watch_new.
void me_watch_free(gpointer watch);

#define ME_WATCH_NEW(Type, data, destroy) ((Type *)me_watch_new(sizeof(Type), (data), (destroy)))
