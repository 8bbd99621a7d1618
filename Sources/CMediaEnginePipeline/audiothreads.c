// A player's sound must reach the audio sink in time however busy the CPU: an audio sink's ring
// buffer holds 200 ms at its defaults, and a thread that delivers the next buffer later than
// that is heard as a gap. On a starved CPU (engine-bench --only qos: a tenth of a core for 1080p
// H.264 and its sound), the video decoder's threads are always runnable and the sound's threads
// wake into their queue: under Linux's EEVDF scheduler (6.6 and later) a woken thread waits
// until the running one has used its slice, so the sound's buffers came 50 to 170 ms late in
// bursts.
//
// Since Linux 6.12 a thread may ask for a shorter slice (sched_attr.sched_runtime with
// SCHED_OTHER, no privilege needed): its virtual deadline is then earlier, so it runs first when
// it wakes (the scheduler's PREEMPT_SHORT) and for a shorter turn. Its weight, and so its share
// of the CPU, is unchanged: the video keeps what it had, the sound only gets it sooner. This is
// why audio servers give their threads real-time priority; this needs no privilege.
// Older kernels ignore sched_runtime for SCHED_OTHER, and nothing changes.
#define _GNU_SOURCE // SCHED_BATCH
#include "me_audio_threads.h"
#include <sched.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

// The kernel's struct sched_attr (include/uapi/linux/sched/types.h), which glibc 2.36 does not
// declare.
typedef struct {
    uint32_t size;
    uint32_t policy;
    uint64_t flags;
    int32_t nice;
    uint32_t priority;
    uint64_t runtime;
    uint64_t deadline;
    uint64_t period;
    uint32_t utilization_min;
    uint32_t utilization_max;
} me_sched_attr;

// The shortest slice the kernel grants (sched_setattr clamps to 0.1 ms..100 ms).
#define ME_AUDIO_SLICE_NS 100000ULL

// The threads of one player that hold the short slice now, by Linux thread id: shared by the
// playbin (its data), its probes and bus handler, and each such thread until it gives the slice
// back (reference counted: a thread may leave its task after the playbin is gone).
typedef struct {
    GMutex lock;
    GArray *threads; // pid_t
} me_audio_threads;

static me_audio_threads *audio_threads_new(void) {
    me_audio_threads *record = g_atomic_rc_box_new0(me_audio_threads);
    g_mutex_init(&record->lock);
    record->threads = g_array_new(FALSE, FALSE, sizeof(pid_t));
    return record;
}

static void audio_threads_clear(gpointer data) {
    me_audio_threads *record = data;
    g_array_unref(record->threads);
    g_mutex_clear(&record->lock);
}

static gpointer audio_threads_ref(me_audio_threads *record) { return g_atomic_rc_box_acquire(record); }

static void audio_threads_unref(gpointer record) { g_atomic_rc_box_release_full(record, audio_threads_clear); }

// The player whose sound this thread carries with the short slice, or NULL: the slice is given
// back as the thread leaves its task.
static __thread me_audio_threads *me_audio_slice_holder = NULL;
// Whether this thread asked already, in its current task (whatever the answer): the probes run
// on every sound buffer, and ask the kernel once per task.
static __thread gboolean me_audio_slice_asked = FALSE;

static gboolean read_attributes(pid_t thread, me_sched_attr *attributes) {
    *attributes = (me_sched_attr){0};
    return syscall(SYS_sched_getattr, thread, attributes, sizeof *attributes, 0) == 0;
}

// Sets the calling thread's slice (0: the kernel's default), keeping its policy and niceness.
// Only for the fair policies: a thread an app made real-time is left alone.
static gboolean set_slice(guint64 slice) {
    me_sched_attr attributes;
    if (!read_attributes(0, &attributes)) return FALSE;
    if (attributes.policy != SCHED_OTHER && attributes.policy != SCHED_BATCH) return FALSE;
    attributes.size = sizeof attributes;
    attributes.flags = 0;
    attributes.runtime = slice;
    return syscall(SYS_sched_setattr, 0, &attributes, 0) == 0;
}

static void take_short_slice(me_audio_threads *record) {
    if (me_audio_slice_asked) return;
    me_audio_slice_asked = TRUE;
    if (!set_slice(ME_AUDIO_SLICE_NS)) return;
    me_audio_slice_holder = audio_threads_ref(record);
    pid_t self = (pid_t)syscall(SYS_gettid);
    g_mutex_lock(&record->lock);
    g_array_append_val(record->threads, self);
    g_mutex_unlock(&record->lock);
}

static void give_slice_back(void) {
    me_audio_slice_asked = FALSE;
    me_audio_threads *record = me_audio_slice_holder;
    if (record == NULL) return;
    set_slice(0);
    me_audio_slice_holder = NULL;
    pid_t self = (pid_t)syscall(SYS_gettid);
    g_mutex_lock(&record->lock);
    for (guint i = 0; i < record->threads->len; i++) {
        if (g_array_index(record->threads, pid_t, i) == self) {
            g_array_remove_index_fast(record->threads, i);
            break;
        }
    }
    g_mutex_unlock(&record->lock);
    audio_threads_unref(record);
}

guint64 me_thread_slice(gint thread) {
    me_sched_attr attributes;
    return read_attributes((pid_t)thread, &attributes) ? attributes.runtime : 0;
}

static gpointer try_slice(gpointer data) {
    (void)data;
    gboolean kept = set_slice(ME_AUDIO_SLICE_NS) && me_thread_slice(0) == ME_AUDIO_SLICE_NS;
    return GINT_TO_POINTER(kept);
}

gboolean me_thread_slices_supported(void) {
    static gsize supported = 0;
    if (g_once_init_enter(&supported)) {
        // On a thread of its own, which ends with its slice.
        GThread *thread = g_thread_new("me-slice-check", try_slice, NULL);
        gsize kept = GPOINTER_TO_INT(g_thread_join(thread)) ? 2 : 1;
        g_once_init_leave(&supported, kept);
    }
    return supported == 2;
}

gint me_audio_thread_ids(GstElement *playbin, gint *threads, gint capacity) {
    me_audio_threads *record = g_object_get_data(G_OBJECT(playbin), "me-audio-threads");
    if (record == NULL) return 0;
    g_mutex_lock(&record->lock);
    gint count = (gint)record->threads->len;
    for (gint i = 0; i < count && i < capacity; i++) threads[i] = g_array_index(record->threads, pid_t, i);
    g_mutex_unlock(&record->lock);
    return count;
}

static GstPadProbeReturn on_audio_data(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    (void)info;
    take_short_slice(data);
    return GST_PAD_PROBE_OK;
}

// playsink's audio queue (aqueue): the thread that pushes into it decodes the sound (a
// multiqueue thread of decodebin's, one per stream), its own thread hands it to the sink.
static void on_element_setup(GstElement *playbin, GstElement *element, gpointer data) {
    (void)playbin;
    GstElementFactory *factory = gst_element_get_factory(element);
    if (!factory || g_strcmp0(GST_OBJECT_NAME(factory), "queue") != 0) return;
    gchar *name = gst_element_get_name(element);
    if (g_strcmp0(name, "aqueue") == 0) {
        const gchar *pads[] = {"sink", "src"};
        for (guint i = 0; i < G_N_ELEMENTS(pads); i++) {
            GstPad *pad = gst_element_get_static_pad(element, pads[i]);
            if (pad) {
                gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST, on_audio_data,
                                  audio_threads_ref(data), audio_threads_unref);
                gst_object_unref(pad);
            }
        }
    }
    g_free(name);
}

// Posted by each streaming thread itself as it enters and leaves its task (GStreamer's
// "configuring thread priorities"): an audio sink's ring-buffer thread (alsasink's,
// osssink's: the thread that writes to the device) enters with the sink as its owner; any thread that took the short slice gives it back as it leaves.
static GstBusSyncReply on_message(GstBus *bus, GstMessage *message, gpointer data) {
    (void)bus;
    if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_STREAM_STATUS) return GST_BUS_PASS;
    GstStreamStatusType type;
    GstElement *owner = NULL;
    gst_message_parse_stream_status(message, &type, &owner);
    if (type == GST_STREAM_STATUS_TYPE_ENTER) {
        // By name: this target does not link libgstaudio (0 until an audio sink's class exists).
        GType audio_base_sink = g_type_from_name("GstAudioBaseSink");
        if (owner && audio_base_sink && g_type_is_a(G_OBJECT_TYPE(owner), audio_base_sink)) take_short_slice(data);
    } else if (type == GST_STREAM_STATUS_TYPE_LEAVE) {
        give_slice_back();
    }
    return GST_BUS_PASS;
}

void me_schedule_audio_threads_first(GstElement *playbin) {
    // A kernel that keeps no thread's slice (before 6.12): nothing to ask, no probe on the sound.
    if (!me_thread_slices_supported()) return;
    me_audio_threads *record = audio_threads_new();
    g_signal_connect_data(playbin, "element-setup", G_CALLBACK(on_element_setup), audio_threads_ref(record),
                          (GClosureNotify)audio_threads_unref, 0);
    GstBus *bus = gst_element_get_bus(playbin);
    gst_bus_set_sync_handler(bus, on_message, audio_threads_ref(record), audio_threads_unref);
    gst_object_unref(bus);
    g_object_set_data_full(G_OBJECT(playbin), "me-audio-threads", record, audio_threads_unref);
}
