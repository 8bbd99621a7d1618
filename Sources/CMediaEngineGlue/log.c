// The log's queue and GStreamer's debug log forwarded into it (me_log.h).
//
// Any thread pushes (a streaming thread in GStreamer's log function, the engine's threads through
// Swift); one thread pops, the engine's logging thread, and calls the app's handler. A push holds
// the queue's lock for a few stores and never waits for the handler: when the queue is full (the
// handler is slower than the log), the record is dropped and counted, and the next record popped
// says how many were. The bound is on records and on bytes, so that a burst of caps dumps cannot
// take more than ME_LOG_QUEUE_BYTES. Messages are not cut (a cut could split a secret the redaction
// would then not recognize).
#include "me_log.h"
#include <string.h>

#define ME_LOG_QUEUE_RECORDS 4096
#define ME_LOG_QUEUE_BYTES (4 * 1024 * 1024)
// Slots beyond the bound kept for forced items (flush markers, changes of handler).
#define ME_LOG_QUEUE_FORCED 256
#define ME_LOG_QUEUE_SLOTS (ME_LOG_QUEUE_RECORDS + ME_LOG_QUEUE_FORCED)

static GMutex queue_lock;
static GCond queue_ready;
static MeLogRecord queue[ME_LOG_QUEUE_SLOTS];
static guint queue_head;     // the next record to pop
static guint queue_count;    // records waiting
static gsize queue_bytes;    // bytes of their owned strings
static guint queue_dropped;  // dropped since the last pop
static gboolean consumer_waiting;

/// Stores a record, under the lock. FALSE when there is no room: then an ordinary record is
/// counted as dropped; a forced one (no bound on bytes, ME_LOG_QUEUE_FORCED slots more) only
/// fails when every slot is taken.
static gboolean enqueue(const MeLogRecord *record, gsize bytes, gboolean force) {
    g_mutex_lock(&queue_lock);
    gboolean room = force ? queue_count < ME_LOG_QUEUE_SLOTS
                          : queue_count < ME_LOG_QUEUE_RECORDS && queue_bytes + bytes <= ME_LOG_QUEUE_BYTES;
    if (!room) {
        if (!force) queue_dropped++;
        g_mutex_unlock(&queue_lock);
        return FALSE;
    }
    MeLogRecord *slot = &queue[(queue_head + queue_count) % ME_LOG_QUEUE_SLOTS];
    *slot = *record;
    slot->bytes = bytes;
    queue_count++;
    queue_bytes += bytes;
    // A signal is a system call: only when the logging thread sleeps.
    if (consumer_waiting) g_cond_signal(&queue_ready);
    g_mutex_unlock(&queue_lock);
    return TRUE;
}

gboolean me_log_queue_push_payload(gpointer payload, gsize bytes, gboolean force) {
    MeLogRecord record = {.kind = ME_LOG_RECORD_PAYLOAD, .payload = payload};
    // A forced item (a flush marker, a change of handler: from an app's thread, rare) waits for a
    // slot only when ME_LOG_QUEUE_FORCED others are already waiting beyond a full queue.
    while (!enqueue(&record, bytes, force)) {
        if (!force) return FALSE;
        g_usleep(1000);
    }
    return TRUE;
}

void me_log_queue_pop(MeLogRecord *record) {
    g_mutex_lock(&queue_lock);
    while (queue_count == 0) {
        consumer_waiting = TRUE;
        g_cond_wait(&queue_ready, &queue_lock);
        consumer_waiting = FALSE;
    }
    *record = queue[queue_head];
    queue_head = (queue_head + 1) % ME_LOG_QUEUE_SLOTS;
    queue_count--;
    queue_bytes -= record->bytes;
    record->dropped = queue_dropped;
    queue_dropped = 0;
    g_mutex_unlock(&queue_lock);
}

void me_log_record_clear(MeLogRecord *record) {
    g_clear_pointer(&record->object, g_free);
    g_clear_pointer(&record->message, g_free);
}

guint me_log_queue_length(void) {
    g_mutex_lock(&queue_lock);
    guint count = queue_count;
    g_mutex_unlock(&queue_lock);
    return count;
}

// MARK: GStreamer's debug log

static gint forward_gstreamer; // atomic: forward categories other than libav's
static gint forward_libav;     // atomic: forward libav's categories

static gboolean is_libav_category(const gchar *name) {
    return name && (g_str_equal(name, "libav") || g_str_equal(name, "melibav"));
}

/// GStreamer's log function: on the thread that logs (a streaming thread, often), so it only
/// formats the message (GStreamer's own work, shared with any other log function) and queues it.
G_GNUC_NO_INSTRUMENT static void forward(GstDebugCategory *category, GstDebugLevel level, const gchar *file,
                                         const gchar *function, gint line, GObject *object,
                                         GstDebugMessage *message, gpointer unused) {
    const gchar *name = gst_debug_category_get_name(category);
    if (!g_atomic_int_get(is_libav_category(name) ? &forward_libav : &forward_gstreamer)) return;
    const gchar *text = gst_debug_message_get(message);
    if (!text) return;
    const gchar *id = gst_debug_message_get_id(message);
    MeLogRecord record = {
        .kind = ME_LOG_RECORD_GSTREAMER,
        .level = level,
        .category = name,
        .file = file,
        .function = function,
        .line = line,
        .object = g_strdup(id),
        .message = g_strdup(text),
    };
    gsize bytes = strlen(record.message) + 1 + (record.object ? strlen(record.object) + 1 : 0);
    if (!enqueue(&record, bytes, FALSE)) me_log_record_clear(&record);
}

static GMutex forward_lock;
static gboolean forwarding;        // under forward_lock
static gboolean removed_default;   // GStreamer's default log function was installed and removed
static GstDebugLevel saved_default_threshold;
static GSList *saved_thresholds;   // of SavedThreshold

typedef struct {
    GstDebugCategory *category;
    GstDebugLevel level;
} SavedThreshold;

/// The thresholds as GST_DEBUG set them, then every category's as it was at the first start.
static void restore_thresholds(void) {
    const gchar *environment = g_getenv("GST_DEBUG");
    gst_debug_set_threshold_from_string(environment ? environment : "", TRUE);
    gst_debug_set_default_threshold(saved_default_threshold);
    for (GSList *walk = saved_thresholds; walk; walk = walk->next) {
        SavedThreshold *saved = walk->data;
        gst_debug_category_set_threshold(saved->category, saved->level);
    }
}

void me_log_forward_start(const gchar *thresholds, gboolean gstreamer, gboolean libav, GstDebugLevel libav_level) {
    g_mutex_lock(&forward_lock);
    if (!forwarding) {
        saved_default_threshold = gst_debug_get_default_threshold();
        GSList *categories = gst_debug_get_all_categories();
        for (GSList *walk = categories; walk; walk = walk->next) {
            SavedThreshold *saved = g_new(SavedThreshold, 1);
            saved->category = walk->data;
            saved->level = gst_debug_category_get_threshold(walk->data);
            saved_thresholds = g_slist_prepend(saved_thresholds, saved);
        }
        g_slist_free(categories);
        removed_default = gst_debug_remove_log_function(gst_debug_log_default) > 0;
        gst_debug_add_log_function(forward, NULL, NULL);
        forwarding = TRUE;
    } else {
        restore_thresholds();
    }
    g_atomic_int_set(&forward_gstreamer, gstreamer);
    g_atomic_int_set(&forward_libav, libav);
    if (thresholds) gst_debug_set_threshold_from_string(thresholds, TRUE);
    if (libav) {
        gst_debug_set_threshold_for_name("libav", libav_level);
        gst_debug_set_threshold_for_name("melibav", libav_level);
    }
    g_mutex_unlock(&forward_lock);
}

void me_log_forward_stop(void) {
    g_mutex_lock(&forward_lock);
    if (forwarding) {
        g_atomic_int_set(&forward_gstreamer, FALSE);
        g_atomic_int_set(&forward_libav, FALSE);
        gst_debug_remove_log_function(forward);
        if (removed_default) gst_debug_add_log_function(gst_debug_log_default, NULL, NULL);
        restore_thresholds();
        g_slist_free_full(saved_thresholds, g_free);
        saved_thresholds = NULL;
        forwarding = FALSE;
    }
    g_mutex_unlock(&forward_lock);
}
