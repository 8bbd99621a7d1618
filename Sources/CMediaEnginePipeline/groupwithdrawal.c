// A movie withdrawn from the queue after playbin took it shows nothing: playbin reads ahead into
// the next movie (even while paused) before the player hears that the queue changed, so the
// player says which stream group it withdrew, and a probe on playsink's sink pads drops the
// buffers of that group and every later one. Its events go on, so that the player sees its start
// (a STREAM_START message of a new group) and reloads or closes there, which ends the dropping.
// Groups are counted by their STREAM_START's group id (the first movie's is 1), not relative to
// the moment of the withdrawal: the withdrawn movie may already have started.
#include "me_group_withdrawal.h"
#include "me_signals.h"

struct MeGroupWithdrawal {
    GMutex lock;
    gboolean have_group; // a STREAM_START with a group id was seen since the (re)start
    guint last_group;    // the group id of the last STREAM_START seen
    guint groups;        // the groups started since the (re)start: the first movie's is 1
    guint drop_from;     // >0: the data of that group and every later one is withdrawn
    gboolean dropping;   // the current group's buffers are withdrawn (dropped)
};

static MeGroupWithdrawal *withdrawal_ref(MeGroupWithdrawal *withdrawal) { return g_atomic_rc_box_acquire(withdrawal); }

static void withdrawal_clear(MeGroupWithdrawal *withdrawal) { g_mutex_clear(&withdrawal->lock); }

static void withdrawal_unref(gpointer withdrawal) {
    g_atomic_rc_box_release_full(withdrawal, (GDestroyNotify)withdrawal_clear);
}

static GstPadProbeReturn on_data(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    MeGroupWithdrawal *withdrawal = data;
    if (info->type & (GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST)) {
        g_mutex_lock(&withdrawal->lock);
        gboolean drop = withdrawal->dropping;
        g_mutex_unlock(&withdrawal->lock);
        return drop ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK;
    }
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    guint group = 0;
    if (GST_EVENT_TYPE(event) != GST_EVENT_STREAM_START || !gst_event_parse_group_id(event, &group)) {
        return GST_PAD_PROBE_OK;
    }
    g_mutex_lock(&withdrawal->lock);
    if (!withdrawal->have_group || group != withdrawal->last_group) {
        withdrawal->have_group = TRUE;
        withdrawal->last_group = group;
        withdrawal->groups++;
        withdrawal->dropping = withdrawal->drop_from > 0 && withdrawal->groups >= withdrawal->drop_from;
    }
    g_mutex_unlock(&withdrawal->lock);
    return GST_PAD_PROBE_OK;
}

static void on_sink_pad(GstElement *playsink, GstPad *pad, gpointer data) {
    (void)playsink;
    gst_pad_add_probe(pad,
                      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST,
                      on_data, withdrawal_ref(data), withdrawal_unref);
}

static void closure_unref(gpointer data, GClosure *closure) {
    (void)closure;
    withdrawal_unref(data);
}

void me_group_withdrawal_withdraw(MeGroupWithdrawal *withdrawal, guint from_group) {
    if (withdrawal == NULL) return;
    g_mutex_lock(&withdrawal->lock);
    // Counted, not relative to now: the withdrawn movie may already have started at playsink
    // while the player was still deciding (playbin reads ahead, even while paused).
    withdrawal->drop_from = from_group;
    withdrawal->dropping = from_group > 0 && withdrawal->groups >= from_group;
    g_mutex_unlock(&withdrawal->lock);
}

void me_group_withdrawal_restart(MeGroupWithdrawal *withdrawal) {
    if (withdrawal == NULL) return;
    g_mutex_lock(&withdrawal->lock);
    withdrawal->have_group = FALSE;
    withdrawal->groups = 0;
    withdrawal->drop_from = 0;
    withdrawal->dropping = FALSE;
    g_mutex_unlock(&withdrawal->lock);
}

MeGroupWithdrawal *me_group_withdrawal_install(GstElement *playbin) {
    GstElement *playsink = gst_bin_get_by_name(GST_BIN(playbin), "playsink");
    MeGroupWithdrawal *withdrawal = playsink ? g_atomic_rc_box_new0(MeGroupWithdrawal) : NULL;
    if (withdrawal) {
        g_mutex_init(&withdrawal->lock);
        me_watch_sink_pads(playsink, on_sink_pad, withdrawal_ref(withdrawal), closure_unref);
        gst_object_unref(playsink);
        // The playbin's reference; the probes and the handler hold their own.
        g_object_set_data_full(G_OBJECT(playbin), "me-group-withdrawal", withdrawal, withdrawal_unref);
    }
    return withdrawal;
}
