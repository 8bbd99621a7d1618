// Thread names and malloc's free memory (me_threads.h).
#define _GNU_SOURCE
#include "me_threads.h"
#include <malloc.h>
#include <pthread.h>

void me_name_current_thread(const char *name) { pthread_setname_np(pthread_self(), name); }

gboolean me_on_engine_thread(void) {
    char name[16] = {0};
    if (pthread_getname_np(pthread_self(), name, sizeof name) != 0) {
        return FALSE;
    }
    return g_str_equal(name, "me-player") || g_str_equal(name, "me-thumbs");
}

void me_return_free_memory(void) { malloc_trim(0); }
