// ThreadSanitizer annotations for GLib's locks (`make tsan`); compiled only when the build is
// instrumented for TSan (`swift build --sanitize=thread`), empty otherwise.
//
// Why: GLib 2.74 implements GMutex, GRecMutex, GRWLock and GCond on Linux with futex system calls
// of its own, not with pthreads, so TSan, which learns of locks by intercepting pthread calls,
// never sees them. GStreamer hands buffers, events and element state between threads under
// those locks (GST_OBJECT_LOCK, GST_PAD_STREAM_LOCK, queues' and appsink's GMutex + GCond), and
// the engine's C elements guard their own fields with them; without this file every access
// made under one of them on two threads is a "data race" to TSan.
//
// How: each function below is defined in the executable, which the dynamic linker prefers to
// libglib's own, and exported because the GStreamer libraries linked with it call them (an
// executable exports a symbol that the shared libraries it links refer to). Each forwards to
// GLib's implementation (dlsym RTLD_NEXT) and tells TSan what the call means: taking a lock is
// an acquire on its address, releasing it a release, and a condition wait releases the mutex
// and takes it again. Calls GLib makes to itself (g_cond_wait inside GAsyncQueue, say) are
// bound inside libglib and do not come here; GStreamer's, and the engine's, do.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ME_TSAN 1
#endif
#endif

#if defined(ME_TSAN)
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glib.h>

void __tsan_acquire(void *address);
void __tsan_release(void *address);

// GLib's implementation of `name`, looked up on first use: GLib's and GStreamer's constructors
// may take a lock before this executable's constructors run. Two threads looking it up at once
// store the same pointer.
#define ME_REAL(name)                                                                                                  \
    static __typeof__(&name) real = NULL;                                                                              \
    __typeof__(&name) function = __atomic_load_n(&real, __ATOMIC_RELAXED);                                             \
    if (!function) {                                                                                                   \
        function = (__typeof__(&name))dlsym(RTLD_NEXT, #name);                                                         \
        __atomic_store_n(&real, function, __ATOMIC_RELAXED);                                                           \
    }

void g_mutex_lock(GMutex *mutex) {
    ME_REAL(g_mutex_lock);
    function(mutex);
    __tsan_acquire(mutex);
}

gboolean g_mutex_trylock(GMutex *mutex) {
    ME_REAL(g_mutex_trylock);
    gboolean locked = function(mutex);
    if (locked) {
        __tsan_acquire(mutex);
    }
    return locked;
}

void g_mutex_unlock(GMutex *mutex) {
    ME_REAL(g_mutex_unlock);
    __tsan_release(mutex);
    function(mutex);
}

void g_rec_mutex_lock(GRecMutex *mutex) {
    ME_REAL(g_rec_mutex_lock);
    function(mutex);
    __tsan_acquire(mutex);
}

gboolean g_rec_mutex_trylock(GRecMutex *mutex) {
    ME_REAL(g_rec_mutex_trylock);
    gboolean locked = function(mutex);
    if (locked) {
        __tsan_acquire(mutex);
    }
    return locked;
}

void g_rec_mutex_unlock(GRecMutex *mutex) {
    ME_REAL(g_rec_mutex_unlock);
    __tsan_release(mutex);
    function(mutex);
}

void g_rw_lock_writer_lock(GRWLock *lock) {
    ME_REAL(g_rw_lock_writer_lock);
    function(lock);
    __tsan_acquire(lock);
}

gboolean g_rw_lock_writer_trylock(GRWLock *lock) {
    ME_REAL(g_rw_lock_writer_trylock);
    gboolean locked = function(lock);
    if (locked) {
        __tsan_acquire(lock);
    }
    return locked;
}

void g_rw_lock_writer_unlock(GRWLock *lock) {
    ME_REAL(g_rw_lock_writer_unlock);
    __tsan_release(lock);
    function(lock);
}

// Readers are treated like writers: a release by one reader orders it before the next holder,
// which can only hide a race between two readers, and readers do not write.
void g_rw_lock_reader_lock(GRWLock *lock) {
    ME_REAL(g_rw_lock_reader_lock);
    function(lock);
    __tsan_acquire(lock);
}

gboolean g_rw_lock_reader_trylock(GRWLock *lock) {
    ME_REAL(g_rw_lock_reader_trylock);
    gboolean locked = function(lock);
    if (locked) {
        __tsan_acquire(lock);
    }
    return locked;
}

void g_rw_lock_reader_unlock(GRWLock *lock) {
    ME_REAL(g_rw_lock_reader_unlock);
    __tsan_release(lock);
    function(lock);
}

void g_cond_wait(GCond *cond, GMutex *mutex) {
    ME_REAL(g_cond_wait);
    __tsan_release(mutex);
    function(cond, mutex);
    __tsan_acquire(mutex);
}

gboolean g_cond_wait_until(GCond *cond, GMutex *mutex, gint64 end_time) {
    ME_REAL(g_cond_wait_until);
    __tsan_release(mutex);
    gboolean signalled = function(cond, mutex, end_time);
    __tsan_acquire(mutex);
    return signalled;
}

// The slow path of g_once_init_enter (G_DEFINE_TYPE's get_type functions): the fast path is an
// atomic load in the caller, which TSan sees, of a value GLib stored without TSan's knowledge.
void(g_once_init_leave)(volatile void *location, gsize result) { // (a macro too)
    ME_REAL(g_once_init_leave);
    __tsan_release((void *)location);
    function(location, result);
}
#endif
