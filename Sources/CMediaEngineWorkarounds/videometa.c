// Workaround "appsink-video-meta": makes an appsink say it reads GstVideoMeta.
//
// The gap: appsink answers no ALLOCATION query of its own, so a decoder upstream is not told
// that its sink reads GstVideoMeta (pictures with their own strides and padding) and copies each
// picture into a tightly packed buffer: the engine's libav decoders would copy every frame for
// the frames sink (VideoSink `frames`). A query probe on the appsink's pad adds the meta to the
// answer. appsink got a propose-allocation signal in 1.24 (96a46e31c7, !4185) through which an
// application can answer; it still adds no meta by itself.
//
// Versions: every release (seen on 1.22.0); unfixed as of 1.29.2 (main, 2026-08). Not a bug
// upstream: appsink does not know what its application reads.
//
// How it was found: profiling the frames sink, where avdec_h264 copied every frame (commit
// d2b032e, 2026-11-30, "the frames sink accepts GstVideoMeta").
//
// Off: VideoOutputBin does not install the probe; decoders copy every frame for the frames sink
// (LibavDecoderTests' "handed over uncopied" and OverlayInPlaceTests fail so).
// WorkaroundReproductionTests' appsink-video-meta test (engine-workaround-check, forced off and
// on), meh264dec at 328x184: off, rows of 328 bytes (GStreamer's copies); on, 384 (libav's own).
#include "me_video_meta.h"
#include <gst/video/video.h>

static GstPadProbeReturn on_allocation_query(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    (void)data;
    GstQuery *query = GST_PAD_PROBE_INFO_QUERY(info);
    if (GST_QUERY_TYPE(query) != GST_QUERY_ALLOCATION) {
        return GST_PAD_PROBE_OK;
    }
    if (!gst_query_find_allocation_meta(query, GST_VIDEO_META_API_TYPE, NULL)) {
        gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, NULL);
    }
    return GST_PAD_PROBE_HANDLED; // the query succeeds with this answer
}

void me_accept_video_meta(GstElement *sink) {
    GstPad *pad = gst_element_get_static_pad(sink, "sink");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM | GST_PAD_PROBE_TYPE_PUSH, on_allocation_query, NULL,
                      NULL);
    gst_object_unref(pad);
}
