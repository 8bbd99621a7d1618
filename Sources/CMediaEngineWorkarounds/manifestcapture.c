// Workaround "dash-manifest": keeps a copy of the manifest an adaptive demuxer reads, for the
// engine to read beside it.
//
// The bug: dashdemux does not say when it moves to another representation (hlsdemux posts
// adaptive-streaming-statistics with the new variant's bitrate; dashdemux only changes its caps).
// Its segment downloads are reported with their URIs, though, and the manifest maps each segment
// URI to its representation: the engine reads the manifest too. The manifest arrives through the
// demuxer's sink pad, whole, before any segment is read; a probe there copies the bytes (at most
// ME_MANIFEST_MAX_BYTES: a larger manifest is not kept) and, at its EOS, posts ME_MESSAGE_MANIFEST
// with the text, which the HTTP source reads (DASHManifest.swift).
//
// Versions: seen on 1.22.0. No upstream issue found; unfixed in dashdemux as of 1.29.2 (main,
// 2026-08; its only changes since 1.22 are a track-id tag and keeping the representation on a
// live manifest update). dashdemux2 (adaptivedemux2) cannot run in playbin (see SourceSetup.swift).
//
// How it was found: writing the access log's variant entries for DASH, whose switches never
// showed (commit c113aad, 2026-11-30, "DASH: switches reported from the segments' URIs").
//
// Off: SourceSetup does not install the capture; a DASH stream's switches are not reported
// (HLSTests' "a DASH stream starts on its lowest representation, climbs, and says so" fails so).
// WorkaroundReproductionTests' dash-manifest test (engine-workaround-check, forced off and on):
// off, no switch reported though the stream climbs to 640x480; on, the switch to `#high`.
#include "me_manifest_capture.h"
#include "me_messages.h"

typedef struct {
    GMutex lock;
    GByteArray *bytes;  // NULL once too large or posted
} ManifestCopy;

static void manifest_copy_free(gpointer data) {
    ManifestCopy *copy = data;
    if (copy->bytes) {
        g_byte_array_unref(copy->bytes);
    }
    g_mutex_clear(&copy->lock);
    g_free(copy);
}

static void append(ManifestCopy *copy, GstBuffer *buffer) {
    if (!copy->bytes) {
        return;
    }
    gsize size = gst_buffer_get_size(buffer);
    if (copy->bytes->len + size > ME_MANIFEST_MAX_BYTES) {
        g_byte_array_unref(copy->bytes);
        copy->bytes = NULL;
        return;
    }
    GstMapInfo map;
    if (gst_buffer_map(buffer, &map, GST_MAP_READ)) {
        g_byte_array_append(copy->bytes, map.data, (guint)map.size);
        gst_buffer_unmap(buffer, &map);
    }
}

static gboolean append_list_item(GstBuffer **buffer, guint index, gpointer user_data) {
    (void)index;
    append(user_data, *buffer);
    return TRUE;
}

static GstPadProbeReturn on_manifest_data(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    ManifestCopy *copy = user_data;
    g_mutex_lock(&copy->lock);
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
        append(copy, GST_PAD_PROBE_INFO_BUFFER(info));
    } else if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
        gst_buffer_list_foreach(GST_PAD_PROBE_INFO_BUFFER_LIST(info), append_list_item, copy);
    } else if ((info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) &&
               GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info)) == GST_EVENT_EOS && copy->bytes) {
        GByteArray *bytes = copy->bytes;
        copy->bytes = NULL;
        g_mutex_unlock(&copy->lock);
        if (g_utf8_validate((const gchar *)bytes->data, bytes->len, NULL)) {
            gchar *text = g_strndup((const gchar *)bytes->data, bytes->len);
            GstElement *demuxer = gst_pad_get_parent_element(pad);
            if (demuxer) {
                GstStructure *s = gst_structure_new(ME_MESSAGE_MANIFEST, ME_FIELD_TEXT, G_TYPE_STRING, text, NULL);
                gst_element_post_message(demuxer, gst_message_new_application(GST_OBJECT(demuxer), s));
                gst_object_unref(demuxer);
            }
            g_free(text);
        }
        g_byte_array_unref(bytes);
        return GST_PAD_PROBE_REMOVE;
    }
    g_mutex_unlock(&copy->lock);
    return GST_PAD_PROBE_OK;
}

void me_capture_manifest(GstElement *demuxer) {
    GstPad *pad = gst_element_get_static_pad(demuxer, "sink");
    if (!pad) {
        return;
    }
    ManifestCopy *copy = g_new0(ManifestCopy, 1);
    g_mutex_init(&copy->lock);
    copy->bytes = g_byte_array_new();
    gst_pad_add_probe(pad,
                      GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
                      on_manifest_data, copy, manifest_copy_free);
    gst_object_unref(pad);
}
