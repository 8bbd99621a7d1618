// Threads and memory: what needs _GNU_SOURCE, which Swift's Glibc module lacks (threads.c).
#pragma once
#include <glib.h>

/// Names the calling thread (pthread_setname_np).
void me_name_current_thread(const char *name);
/// Whether the calling thread is one of the engine's own: a player's thread (`me-player`) or a
/// thumbnail pipeline's (`me-thumbs`), where waiting for a thumbnail could wait for itself.
gboolean me_on_engine_thread(void);
/// Gives the memory malloc holds free, in every arena, back to the system (`malloc_trim(0)`).
void me_return_free_memory(void);
