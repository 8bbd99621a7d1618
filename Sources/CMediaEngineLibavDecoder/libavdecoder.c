// The engine's own video decoders, meh264dec (H.264) and meh265dec (H.265/HEVC): libavcodec
// (the decoders ffmpeg and avdec_h264/avdec_h265 use too) behind GstVideoDecoder, with one
// difference that matters for speed: the pictures libav decoded go downstream as they are
// (read-only memories wrapping libav's reference-counted frames, described by a GstVideoMeta)
// instead of being copied into new buffers, whenever downstream reads GstVideoMeta. libav keeps
// decoded pictures as references for later ones, so avdec_* copies every picture it outputs
// (perf: about 6 % of the CPU at 1080p H.264). An element that writes into a frame (the scaler
// blending overlays) copies it first. Each is ranked just above its avdec_* counterpart, so
// decodebin picks it (elements.c).
//
// MeLibavDecoder does the work; each codec is a type registered from the table at the end, with
// its libav codec and its caps.
#include "CMediaEngineLibavDecoder.h"
#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/version.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC(me_libav_decoder_debug);
#define GST_CAT_DEFAULT me_libav_decoder_debug
GST_DEBUG_CATEGORY_STATIC(me_libav_debug);

// What the output caps were made from; a picture that differs in any of these renegotiates.
typedef struct {
    enum AVPixelFormat format;
    int width, height;
    enum AVColorRange range;
    enum AVColorSpace matrix;
    enum AVColorPrimaries primaries;
    enum AVColorTransferCharacteristic transfer;
    gboolean interlaced; // an interlaced picture was seen: caps say "mixed" from then on
} PictureLayout;

typedef struct {
    GstVideoDecoder parent;
    // All below: the streaming thread (the base class's stream lock), or start/stop.
    AVCodecContext *context; // open from set_format to stop
    AVBSFContext *sar_filter; // with `context`, for streams whose aspect ratio libav refuses (open_context)
    AVPacket *packet;
    AVPacket *filtered; // `packet` after `sar_filter`
    AVFrame *picture;
    guint8 *padded; // the access unit being sent, followed by libav's zeroed padding
    gsize padded_capacity;
    GstVideoCodecState *input_state;
    GstVideoCodecState *output_state;
    PictureLayout layout; // valid while output_state is set
    gboolean downstream_reads_meta;
    guint far_behind; // pictures in a row far behind the output (QoS, me_libav_skip_policy)
} MeLibavDecoder;

typedef struct {
    GstVideoDecoderClass parent_class;
    enum AVCodecID codec; // set by each codec's subclass
    const char *codec_name; // for messages: "H.264"
} MeLibavDecoderClass;

G_DEFINE_ABSTRACT_TYPE(MeLibavDecoder, me_libav_decoder, GST_TYPE_VIDEO_DECODER)

#define ME_LIBAV_DECODER_GET_CLASS(object) ((MeLibavDecoderClass *)G_OBJECT_GET_CLASS(object))

static GstStaticPadTemplate raw_src = GST_STATIC_PAD_TEMPLATE(
    "src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE("{ I420, NV12, Y42B, Y444, GRAY8, I420_10LE, I422_10LE, Y444_10LE }")));

// The GStreamer format of a libav pixel format; `full_range` for libav's JPEG-range variants.
static GstVideoFormat video_format_of(enum AVPixelFormat format, gboolean *full_range) {
    *full_range = format == AV_PIX_FMT_YUVJ420P || format == AV_PIX_FMT_YUVJ422P || format == AV_PIX_FMT_YUVJ444P;
    switch (format) {
    case AV_PIX_FMT_YUV420P:
    case AV_PIX_FMT_YUVJ420P: return GST_VIDEO_FORMAT_I420;
    case AV_PIX_FMT_YUV422P:
    case AV_PIX_FMT_YUVJ422P: return GST_VIDEO_FORMAT_Y42B;
    case AV_PIX_FMT_YUV444P:
    case AV_PIX_FMT_YUVJ444P: return GST_VIDEO_FORMAT_Y444;
    case AV_PIX_FMT_NV12: return GST_VIDEO_FORMAT_NV12;
    case AV_PIX_FMT_GRAY8: return GST_VIDEO_FORMAT_GRAY8;
    case AV_PIX_FMT_YUV420P10LE: return GST_VIDEO_FORMAT_I420_10LE;
    case AV_PIX_FMT_YUV422P10LE: return GST_VIDEO_FORMAT_I422_10LE;
    case AV_PIX_FMT_YUV444P10LE: return GST_VIDEO_FORMAT_Y444_10LE;
    default: return GST_VIDEO_FORMAT_UNKNOWN;
    }
}

static void close_context(MeLibavDecoder *self) {
    avcodec_free_context(&self->context);
    av_bsf_free(&self->sar_filter);
    g_clear_pointer(&self->output_state, gst_video_codec_state_unref);
}

// libav's H.264 decoder refuses a sample aspect ratio whose short side rounds to no pixel at all
// (av_image_check_sar: 65535:1 on 240 rows, 1:65535 on 320 columns) and keeps 0:1 instead; every
// frame after, the SPS's ratio differs from the one it kept, so it reinitialises ("Reinit
// context"), dropping its reference pictures, and outputs none but the keyframes (measured: 2 of
// 15 frames; avdec_h264 outputs the others concealed, their pixels wrong). Such a stream goes
// through libav's h264_metadata filter, which rewrites the SPS's ratio to 1:1 (in the avcC and
// in-band). The ratio shown is not libav's anyway: the caps' pixel-aspect-ratio is passed on.
static gboolean needs_sar_filter(MeLibavDecoder *self, GstVideoCodecState *state) {
    const GstVideoInfo *info = &state->info;
    return ME_LIBAV_DECODER_GET_CLASS(self)->codec == AV_CODEC_ID_H264 && info->width > 0 && info->height > 0 &&
           info->par_n > 0 && info->par_d > 0 &&
           av_image_check_sar((unsigned)info->width, (unsigned)info->height, (AVRational){info->par_n, info->par_d}) <
               0;
}

// h264_metadata for `context`'s stream, with the context's extradata replaced by the rewritten one.
static AVBSFContext *make_sar_filter(AVCodecContext *context) {
    const AVBitStreamFilter *filter = av_bsf_get_by_name("h264_metadata");
    AVBSFContext *bsf = NULL;
    if (!filter || av_bsf_alloc(filter, &bsf) < 0) {
        return NULL;
    }
    if (avcodec_parameters_from_context(bsf->par_in, context) < 0 ||
        av_opt_set(bsf->priv_data, "sample_aspect_ratio", "1/1", 0) < 0 || av_bsf_init(bsf) < 0) {
        av_bsf_free(&bsf);
        return NULL;
    }
    if (bsf->par_out->extradata_size > 0) {
        guint8 *extradata = av_mallocz((size_t)bsf->par_out->extradata_size + AV_INPUT_BUFFER_PADDING_SIZE);
        if (!extradata) {
            av_bsf_free(&bsf);
            return NULL;
        }
        memcpy(extradata, bsf->par_out->extradata, (size_t)bsf->par_out->extradata_size);
        av_freep(&context->extradata);
        context->extradata = extradata;
        context->extradata_size = bsf->par_out->extradata_size;
    }
    return bsf;
}

/// The address the engine's codec contexts carry in `opaque` (forward_libav_log). Never written;
/// not const, as `opaque` is a `void *`.
static char me_libav_context_marker;

static gboolean open_context(MeLibavDecoder *self, GstVideoCodecState *state) {
    const AVCodec *codec = avcodec_find_decoder(ME_LIBAV_DECODER_GET_CLASS(self)->codec);
    AVCodecContext *context = codec ? avcodec_alloc_context3(codec) : NULL;
    if (!context) {
        return FALSE;
    }
    // Marks the context (and the copies frame threading makes of it) as the engine's, for the log.
    context->opaque = &me_libav_context_marker;
    // avcC (stream-format=avc) or nothing (byte-stream: the parameter sets come in-band).
    GstMapInfo map;
    if (state->codec_data && gst_buffer_map(state->codec_data, &map, GST_MAP_READ)) {
        context->extradata = av_mallocz(map.size + AV_INPUT_BUFFER_PADDING_SIZE);
        if (context->extradata) {
            memcpy(context->extradata, map.data, map.size);
            context->extradata_size = (int)map.size;
        }
        gst_buffer_unmap(state->codec_data, &map);
    }
    // One thread per core this process may use, frame and slice, as avdec_* does. (libav's
    // own choice, and ffmpeg's, is one more than the cores: no faster here, measured, and one more
    // runnable thread per playing movie crowds everything else on a small machine.)
    context->thread_count = (int)g_get_num_processors();
    context->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
    AVBSFContext *sar_filter = NULL;
    if (needs_sar_filter(self, state)) {
        sar_filter = make_sar_filter(context);
        if (sar_filter) {
            GST_WARNING_OBJECT(self, "libav refuses the %d:%d pixel aspect ratio of a %dx%d picture: rewriting the "
                               "stream's to 1:1 for it (h264_metadata)", state->info.par_n, state->info.par_d,
                               state->info.width, state->info.height);
        } else {
            GST_WARNING_OBJECT(self, "libav refuses the %d:%d pixel aspect ratio and h264_metadata is not there: "
                               "only keyframes may come out", state->info.par_n, state->info.par_d);
        }
    }
    if (avcodec_open2(context, codec, NULL) < 0) {
        av_bsf_free(&sar_filter);
        avcodec_free_context(&context);
        return FALSE;
    }
    self->context = context;
    self->sar_filter = sar_filter;
    // Frame threads hold back one picture each before the first comes out.
    GstVideoInfo *info = &state->info;
    if (info->fps_n > 0 && info->fps_d > 0) {
        int held = (context->active_thread_type & FF_THREAD_FRAME) ? context->thread_count - 1 : 0;
        GstClockTime latency = gst_util_uint64_scale_int((guint64)MAX(held, 0) * GST_SECOND, info->fps_d, info->fps_n);
        gst_video_decoder_set_latency(GST_VIDEO_DECODER(self), latency, latency);
    }
    return TRUE;
}

// MARK: pictures out

// The shared reference is a box holding one clone of libav's frame (AVFrame's size is not
// libav's stable ABI, so the frame is libav's own allocation).
static void drop_picture_reference(gpointer data) { av_frame_free((AVFrame **)data); }

static void release_picture(gpointer data) { g_atomic_rc_box_release_full(data, drop_picture_reference); }

// Whether libav has let the picture go: every plane's buffer referenced by the clone alone (the
// memories hold the clone). A B-picture nothing refers to is, as soon as it is out; a reference
// picture once later ones have replaced it. Its planes can then be written in place.
static gboolean picture_released(gpointer data) {
    const AVFrame *picture = *(AVFrame **)data;
    for (int plane = 0; plane < AV_NUM_DATA_POINTERS && picture->buf[plane]; plane++) {
        if (!av_buffer_is_writable(picture->buf[plane])) {
            return FALSE;
        }
    }
    return picture->nb_extended_buf == 0;
}

// The picture's planes as read-only memories laid out by a GstVideoMeta with libav's strides. No
// pixel is copied: the memories share one reference to libav's frame, let go with the last of
// them (a memory can outlive its buffer, in a copy of the buffer).
static GstBuffer *wrap_picture(MeLibavDecoder *self, const AVFrame *picture) {
    const GstVideoInfo *info = &self->output_state->info;
    guint planes = GST_VIDEO_INFO_N_PLANES(info);
    AVFrame **owner = g_atomic_rc_box_new0(AVFrame *);
    *owner = av_frame_clone(picture);
    if (!*owner) {
        g_atomic_rc_box_release(owner);
        return NULL;
    }
    gsize offsets[GST_VIDEO_MAX_PLANES] = {0};
    gint strides[GST_VIDEO_MAX_PLANES] = {0};
    gsize offset = 0;
    GstBuffer *buffer = gst_buffer_new();
    for (guint plane = 0; plane < planes; plane++) {
        if (picture->linesize[plane] <= 0) {
            gst_buffer_unref(buffer);
            release_picture(owner);
            return NULL;
        }
        gint rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT(info->finfo, plane, GST_VIDEO_INFO_HEIGHT(info));
        gsize size = (gsize)picture->linesize[plane] * (gsize)rows;
        GstMemory *memory = gst_memory_new_wrapped(GST_MEMORY_FLAG_READONLY, picture->data[plane], size, 0, size,
                                                   g_atomic_rc_box_acquire(owner), release_picture);
        me_picture_memory_set_release_check(memory, picture_released, owner);
        gst_buffer_append_memory(buffer, memory);
        offsets[plane] = offset;
        strides[plane] = picture->linesize[plane];
        offset += size;
    }
    release_picture(owner); // the memories hold it now
    gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(info),
                                   (guint)GST_VIDEO_INFO_WIDTH(info), (guint)GST_VIDEO_INFO_HEIGHT(info), planes,
                                   offsets, strides);
    return buffer;
}

// For a downstream that does not read GstVideoMeta: the picture copied into a buffer of the
// default layout (what avdec_h264 always does).
static gboolean copy_picture(MeLibavDecoder *self, const AVFrame *picture, GstBuffer *buffer) {
    GstVideoFrame out;
    if (!gst_video_frame_map(&out, &self->output_state->info, buffer, GST_MAP_WRITE)) {
        return FALSE;
    }
    for (guint plane = 0; plane < GST_VIDEO_FRAME_N_PLANES(&out); plane++) {
        guint8 *target = GST_VIDEO_FRAME_PLANE_DATA(&out, plane);
        gint target_stride = GST_VIDEO_FRAME_PLANE_STRIDE(&out, plane);
        const guint8 *source = picture->data[plane];
        gint source_stride = picture->linesize[plane];
        gint rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT(out.info.finfo, plane, GST_VIDEO_FRAME_HEIGHT(&out));
        gsize bytes = (gsize)MIN(ABS(source_stride), target_stride);
        for (gint row = 0; row < rows; row++) {
            memcpy(target + (gsize)row * (gsize)target_stride, source + (gssize)row * source_stride, bytes);
        }
    }
    gst_video_frame_unmap(&out);
    return TRUE;
}

// Whether a picture is interlaced, and whether its top field comes first. FFmpeg 6.1 (libavutil
// 58.7.100) put both in AVFrame.flags (AV_FRAME_FLAG_INTERLACED, AV_FRAME_FLAG_TOP_FIELD_FIRST) and
// deprecated the fields interlaced_frame and top_field_first, which FFmpeg 8 (libavutil 60) removed;
// Debian 12's FFmpeg 5.1 (libavutil 57.28) has only the fields.
#if LIBAVUTIL_VERSION_INT >= AV_VERSION_INT(58, 7, 100)
static gboolean picture_is_interlaced(const AVFrame *picture) {
    return (picture->flags & AV_FRAME_FLAG_INTERLACED) != 0;
}
static gboolean picture_top_field_first(const AVFrame *picture) {
    return (picture->flags & AV_FRAME_FLAG_TOP_FIELD_FIRST) != 0;
}
#else
static gboolean picture_is_interlaced(const AVFrame *picture) { return picture->interlaced_frame != 0; }
static gboolean picture_top_field_first(const AVFrame *picture) { return picture->top_field_first != 0; }
#endif

static gboolean same_layout(const PictureLayout *a, const PictureLayout *b) {
    return a->format == b->format && a->width == b->width && a->height == b->height && a->range == b->range &&
           a->matrix == b->matrix && a->primaries == b->primaries && a->transfer == b->transfer &&
           a->interlaced == b->interlaced;
}

// Output caps for the picture's layout, negotiated again when it changed or downstream asked.
static gboolean ensure_output_state(MeLibavDecoder *self, const AVFrame *picture) {
    GstVideoDecoder *decoder = GST_VIDEO_DECODER(self);
    PictureLayout layout = {picture->format,
                            picture->width,
                            picture->height,
                            picture->color_range,
                            picture->colorspace,
                            picture->color_primaries,
                            picture->color_trc,
                            picture_is_interlaced(picture) || (self->output_state && self->layout.interlaced)};
    gboolean reconfigure = gst_pad_check_reconfigure(GST_VIDEO_DECODER_SRC_PAD(decoder));
    if (self->output_state && same_layout(&layout, &self->layout)) {
        if (!reconfigure) {
            return TRUE;
        }
        if (gst_video_decoder_negotiate(decoder)) {
            return TRUE;
        }
        gst_pad_mark_reconfigure(GST_VIDEO_DECODER_SRC_PAD(decoder));
        return FALSE;
    }
    gboolean full_range = FALSE;
    GstVideoFormat format = video_format_of(picture->format, &full_range);
    if (format == GST_VIDEO_FORMAT_UNKNOWN) {
        const char *name = av_get_pix_fmt_name(picture->format);
        GST_ELEMENT_ERROR(self, STREAM, FORMAT,
                          ("The %s stream's pixel layout (%s) is not supported.",
                           ME_LIBAV_DECODER_GET_CLASS(self)->codec_name, name ? name : "?"),
                          (NULL));
        return FALSE;
    }
    g_clear_pointer(&self->output_state, gst_video_codec_state_unref);
    GstVideoCodecState *state = gst_video_decoder_set_output_state(decoder, format, (guint)picture->width,
                                                                   (guint)picture->height, self->input_state);
    // What the bitstream says about colour wins over the caps (H.273 numbering, as libav's).
    GstVideoColorimetry *colorimetry = &state->info.colorimetry;
    if (full_range || picture->color_range == AVCOL_RANGE_JPEG) {
        colorimetry->range = GST_VIDEO_COLOR_RANGE_0_255;
    } else if (picture->color_range == AVCOL_RANGE_MPEG) {
        colorimetry->range = GST_VIDEO_COLOR_RANGE_16_235;
    }
    GstVideoColorMatrix matrix = gst_video_color_matrix_from_iso((guint)picture->colorspace);
    if (matrix != GST_VIDEO_COLOR_MATRIX_UNKNOWN && matrix != GST_VIDEO_COLOR_MATRIX_RGB) {
        colorimetry->matrix = matrix;
    }
    GstVideoColorPrimaries primaries = gst_video_color_primaries_from_iso((guint)picture->color_primaries);
    if (primaries != GST_VIDEO_COLOR_PRIMARIES_UNKNOWN) {
        colorimetry->primaries = primaries;
    }
    GstVideoTransferFunction transfer = gst_video_transfer_function_from_iso((guint)picture->color_trc);
    if (transfer != GST_VIDEO_TRANSFER_UNKNOWN) {
        colorimetry->transfer = transfer;
    }
    if (layout.interlaced) {
        // Each buffer says whether it is interlaced (and which field comes first), as
        // avdec_h264's do, for a deinterlacer or sink downstream.
        GST_VIDEO_INFO_INTERLACE_MODE(&state->info) = GST_VIDEO_INTERLACE_MODE_MIXED;
    }
    self->output_state = state;
    self->layout = layout;
    if (!gst_video_decoder_negotiate(decoder)) {
        g_clear_pointer(&self->output_state, gst_video_codec_state_unref);
        return FALSE;
    }
    return TRUE;
}

// libav outputs pictures in presentation order: once a picture is out, a frame sent before it
// with an earlier time that has not come out never will (libav dropped it, e.g. a broken one).
// Only the oldest pending frames are looked at, so this costs nothing in the usual case (the
// oldest is the picture going out, or a reference picture shown later); a frame left behind
// further back is released once the frames before it have gone.
static void release_frames_left_behind(GstVideoDecoder *decoder, GstVideoCodecFrame *output) {
    if (!GST_CLOCK_TIME_IS_VALID(output->pts)) {
        return;
    }
    GstVideoCodecFrame *oldest;
    while ((oldest = gst_video_decoder_get_oldest_frame(decoder)) != NULL) {
        if (oldest == output || !GST_CLOCK_TIME_IS_VALID(oldest->pts) || oldest->pts >= output->pts) {
            gst_video_codec_frame_unref(oldest);
            return;
        }
        gst_video_decoder_release_frame(decoder, oldest);
    }
}

static GstFlowReturn push_picture(MeLibavDecoder *self, const AVFrame *picture) {
    GstVideoDecoder *decoder = GST_VIDEO_DECODER(self);
    // The packet's pts carried the frame's number through libav's reordering.
    GstVideoCodecFrame *frame = gst_video_decoder_get_frame(decoder, (int)picture->pts);
    if (!frame) {
        return GST_FLOW_OK; // flushed meanwhile
    }
    release_frames_left_behind(decoder, frame);
    if (!ensure_output_state(self, picture)) {
        gst_video_decoder_drop_frame(decoder, frame);
        return GST_PAD_IS_FLUSHING(GST_VIDEO_DECODER_SRC_PAD(decoder)) ? GST_FLOW_FLUSHING : GST_FLOW_NOT_NEGOTIATED;
    }
    if (self->downstream_reads_meta) {
        frame->output_buffer = wrap_picture(self, picture);
    } else {
        GstFlowReturn flow = gst_video_decoder_allocate_output_frame(decoder, frame);
        if (flow != GST_FLOW_OK) {
            gst_video_decoder_release_frame(decoder, frame);
            return flow;
        }
        if (!copy_picture(self, picture, frame->output_buffer)) {
            gst_clear_buffer(&frame->output_buffer);
        }
    }
    if (!frame->output_buffer) {
        gst_video_decoder_release_frame(decoder, frame);
        GST_ELEMENT_ERROR(self, RESOURCE, FAILED, ("Could not hand over a decoded picture."), (NULL));
        return GST_FLOW_ERROR;
    }
    if (picture_is_interlaced(picture)) {
        GST_BUFFER_FLAG_SET(frame->output_buffer, GST_VIDEO_BUFFER_FLAG_INTERLACED);
        if (picture_top_field_first(picture)) {
            GST_BUFFER_FLAG_SET(frame->output_buffer, GST_VIDEO_BUFFER_FLAG_TFF);
        }
    }
    if (picture->flags & AV_FRAME_FLAG_CORRUPT) {
        GST_BUFFER_FLAG_SET(frame->output_buffer, GST_BUFFER_FLAG_CORRUPTED);
    }
    return gst_video_decoder_finish_frame(decoder, frame);
}

static GstFlowReturn libav_error(MeLibavDecoder *self, int result) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    av_strerror(result, text, sizeof text);
    GstFlowReturn flow = GST_FLOW_OK;
    // Counted against max-errors like every GStreamer decoder's errors: a few broken access
    // units are skipped, a stream of them fails.
    GST_VIDEO_DECODER_ERROR(self, 1, STREAM, DECODE,
                            ("Could not decode the %s stream.", ME_LIBAV_DECODER_GET_CLASS(self)->codec_name),
                            ("libav: %s", text), flow);
    return flow;
}

// Hands downstream every picture libav has ready.
static GstFlowReturn receive_pictures(MeLibavDecoder *self) {
    for (;;) {
        int result = avcodec_receive_frame(self->context, self->picture);
        if (result == AVERROR(EAGAIN) || result == AVERROR_EOF) {
            return GST_FLOW_OK;
        }
        if (result < 0) {
            return libav_error(self, result);
        }
        GstFlowReturn flow = push_picture(self, self->picture);
        av_frame_unref(self->picture);
        if (flow != GST_FLOW_OK) {
            return flow;
        }
    }
}

// MARK: GstVideoDecoder

static gboolean me_libav_decoder_start(GstVideoDecoder *decoder) {
    MeLibavDecoder *self = (MeLibavDecoder *)decoder;
    self->packet = av_packet_alloc();
    self->filtered = av_packet_alloc();
    self->picture = av_frame_alloc();
    return self->packet && self->filtered && self->picture;
}

static gboolean me_libav_decoder_stop(GstVideoDecoder *decoder) {
    MeLibavDecoder *self = (MeLibavDecoder *)decoder;
    close_context(self);
    av_packet_free(&self->packet);
    av_packet_free(&self->filtered);
    av_frame_free(&self->picture);
    g_clear_pointer(&self->padded, g_free);
    self->padded_capacity = 0;
    g_clear_pointer(&self->input_state, gst_video_codec_state_unref);
    self->downstream_reads_meta = FALSE;
    return TRUE;
}

static GstFlowReturn me_libav_decoder_drain(GstVideoDecoder *decoder) {
    MeLibavDecoder *self = (MeLibavDecoder *)decoder;
    if (!self->context) {
        return GST_FLOW_OK;
    }
    avcodec_send_packet(self->context, NULL);
    GstFlowReturn flow = receive_pictures(self);
    avcodec_flush_buffers(self->context); // ready for more after the drain
    return flow;
}

static gboolean same_codec_data(GstBuffer *a, GstBuffer *b) {
    if (!a || !b) {
        return a == b;
    }
    GstMapInfo map;
    if (gst_buffer_get_size(a) != gst_buffer_get_size(b) || !gst_buffer_map(a, &map, GST_MAP_READ)) {
        return FALSE;
    }
    gboolean same = gst_buffer_memcmp(b, 0, map.data, map.size) == 0;
    gst_buffer_unmap(a, &map);
    return same;
}

static gboolean me_libav_decoder_set_format(GstVideoDecoder *decoder, GstVideoCodecState *state) {
    MeLibavDecoder *self = (MeLibavDecoder *)decoder;
    if (self->context && self->input_state && same_codec_data(self->input_state->codec_data, state->codec_data)) {
        // The same stream described anew (frame rate, colorimetry, a size the parser read from
        // an in-band SPS, which libav follows by itself): keep decoding, since reopening would
        // lose the reference pictures until the next keyframe; the next picture renegotiates.
        GST_INFO_OBJECT(self, "new caps, same codec data: decoding on (%" GST_PTR_FORMAT ")", state->caps);
        g_clear_pointer(&self->input_state, gst_video_codec_state_unref);
        self->input_state = gst_video_codec_state_ref(state);
        g_clear_pointer(&self->output_state, gst_video_codec_state_unref);
        return TRUE;
    }
    if (self->context) {
        GST_INFO_OBJECT(self, "new codec data: draining, then reopening (%" GST_PTR_FORMAT ")", state->caps);
        me_libav_decoder_drain(decoder); // the pictures of the old configuration first
        close_context(self);
    }
    g_clear_pointer(&self->input_state, gst_video_codec_state_unref);
    self->input_state = gst_video_codec_state_ref(state);
    if (!open_context(self, state)) {
        GST_ELEMENT_ERROR(self, LIBRARY, INIT,
                          ("Could not open libav's %s decoder.", ME_LIBAV_DECODER_GET_CLASS(self)->codec_name), (NULL));
        return FALSE;
    }
    return TRUE;
}

// How far behind the output a picture may be before it counts as far behind: about four pictures
// late at 30 fps (GstVideoDecoder projects twice the sink's lateness ahead), and how many pictures
// in a row must be before only keyframes are decoded: half a second at 30 fps, so that a short
// spike (where decoding unreferenced pictures less is enough to catch up) costs no GOP.
#define ME_FAR_BEHIND (GST_SECOND / 4)
#define ME_FAR_BEHIND_PICTURES 15

// Quality of service, when downstream says pictures arrive late (its QoS events). A little late,
// libav skips the pictures no other picture refers to, whose decoding would be wasted, as
// avdec_h264 does. Far behind for half a second, where avdec_h264 goes on decoding every
// reference picture, each too late to be shown, only keyframes are decoded until a keyframe is in
// time again, and every picture from there: a board too slow for its video shows a keyframe every
// GOP and the pictures it can decode after it, instead of falling behind for good. Keyframes-only
// decoding ends only at a keyframe, since the pictures after a skipped one refer to it. A
// keyframe-only trick mode (the player's fast scan) decodes keyframes only, any other trick mode
// all but the unreferenced pictures. The base class still drops a decoded picture that is late;
// skipping frees the time.
MeSkip me_libav_skip_policy(MeSkip current, gboolean key_units_trick_mode, gboolean trick_mode, gint64 left,
                            gboolean keyframe, guint *far_behind) {
    gboolean known = left != G_MAXINT64;
    *far_behind = known && left < -ME_FAR_BEHIND ? MIN(*far_behind + 1, G_MAXUINT - 1) : 0;
    if (key_units_trick_mode) {
        return ME_SKIP_ALL_BUT_KEYFRAMES;
    }
    MeSkip skip = ME_SKIP_NOTHING;
    if (trick_mode) {
        skip = ME_SKIP_UNREFERENCED;
    } else if (*far_behind >= ME_FAR_BEHIND_PICTURES) {
        skip = ME_SKIP_ALL_BUT_KEYFRAMES;
    } else if (known && left <= 0) {
        skip = ME_SKIP_UNREFERENCED;
    }
    if (current == ME_SKIP_ALL_BUT_KEYFRAMES && !keyframe) {
        return ME_SKIP_ALL_BUT_KEYFRAMES;
    }
    return skip;
}

static void adapt_to_lateness(MeLibavDecoder *self, GstVideoCodecFrame *frame) {
    GstVideoDecoder *decoder = GST_VIDEO_DECODER(self);
    GstSegmentFlags flags = decoder->input_segment.flags;
    enum AVDiscard before = self->context->skip_frame;
    MeSkip current = before == AVDISCARD_NONKEY   ? ME_SKIP_ALL_BUT_KEYFRAMES
                     : before == AVDISCARD_NONREF ? ME_SKIP_UNREFERENCED
                                                  : ME_SKIP_NOTHING;
    // Without timing information (no QoS event yet, no clock) the base class says G_MAXINT64.
    MeSkip skip = me_libav_skip_policy(current, (flags & GST_SEGMENT_FLAG_TRICKMODE_KEY_UNITS) != 0,
                                       (flags & GST_SEGMENT_FLAG_TRICKMODE) != 0,
                                       gst_video_decoder_get_max_decode_time(decoder, frame),
                                       GST_VIDEO_CODEC_FRAME_IS_SYNC_POINT(frame), &self->far_behind);
    if (skip == current) {
        return;
    }
    GST_DEBUG_OBJECT(self, "QoS: %s (frame %u)",
                     skip == ME_SKIP_ALL_BUT_KEYFRAMES ? "keyframes only"
                     : skip == ME_SKIP_UNREFERENCED    ? "late: skipping pictures no other picture refers to"
                                                       : "in time: decoding every picture",
                     frame->system_frame_number);
    self->context->skip_frame = skip == ME_SKIP_ALL_BUT_KEYFRAMES ? AVDISCARD_NONKEY
                                : skip == ME_SKIP_UNREFERENCED    ? AVDISCARD_NONREF
                                                                 : AVDISCARD_DEFAULT;
}

static GstFlowReturn me_libav_decoder_handle_frame(GstVideoDecoder *decoder, GstVideoCodecFrame *frame) {
    MeLibavDecoder *self = (MeLibavDecoder *)decoder;
    if (!self->context) {
        gst_video_decoder_drop_frame(decoder, frame);
        return GST_FLOW_NOT_NEGOTIATED;
    }
    GstMapInfo map;
    if (!gst_buffer_map(frame->input_buffer, &map, GST_MAP_READ)) {
        gst_video_decoder_drop_frame(decoder, frame);
        GST_ELEMENT_ERROR(self, RESOURCE, READ,
                          ("Could not read a %s access unit.", ME_LIBAV_DECODER_GET_CLASS(self)->codec_name), (NULL));
        return GST_FLOW_ERROR;
    }
    gsize needed = map.size + AV_INPUT_BUFFER_PADDING_SIZE;
    if (needed > self->padded_capacity) {
        self->padded = g_realloc(self->padded, needed);
        self->padded_capacity = needed;
    }
    memcpy(self->padded, map.data, map.size);
    memset(self->padded + map.size, 0, AV_INPUT_BUFFER_PADDING_SIZE);
    self->packet->data = self->padded;
    self->packet->size = (int)map.size;
    gst_buffer_unmap(frame->input_buffer, &map);
    self->packet->pts = frame->system_frame_number;
    self->packet->dts = AV_NOPTS_VALUE;
    self->packet->flags = GST_VIDEO_CODEC_FRAME_IS_SYNC_POINT(frame) ? AV_PKT_FLAG_KEY : 0;
    adapt_to_lateness(self, frame);
    // The base class keeps the frame; the picture libav makes of it finds it again by number.
    gst_video_codec_frame_unref(frame);

    AVPacket *packet = self->packet;
    int result;
    if (self->sar_filter) {
        // One access unit in, one out; the filter copies the unreferenced packet.
        result = av_bsf_send_packet(self->sar_filter, self->packet);
        if (result >= 0) {
            result = av_bsf_receive_packet(self->sar_filter, self->filtered);
        }
        if (result < 0) {
            av_packet_unref(self->packet);
            return libav_error(self, result);
        }
        packet = self->filtered;
    }
    while ((result = avcodec_send_packet(self->context, packet)) == AVERROR(EAGAIN)) {
        // libav's output is full: take pictures out, then send again.
        GstFlowReturn flow = receive_pictures(self);
        if (flow != GST_FLOW_OK) {
            av_packet_unref(self->filtered);
            return flow;
        }
    }
    av_packet_unref(self->filtered); // libav holds its own reference
    if (result < 0 && result != AVERROR_EOF) {
        GstFlowReturn flow = libav_error(self, result);
        if (flow != GST_FLOW_OK) {
            return flow;
        }
    }
    return receive_pictures(self);
}

static gboolean me_libav_decoder_flush(GstVideoDecoder *decoder) {
    MeLibavDecoder *self = (MeLibavDecoder *)decoder;
    self->far_behind = 0;
    if (self->context) {
        avcodec_flush_buffers(self->context);
    }
    if (self->sar_filter) {
        av_bsf_flush(self->sar_filter);
    }
    return TRUE;
}

static gboolean me_libav_decoder_decide_allocation(GstVideoDecoder *decoder, GstQuery *query) {
    MeLibavDecoder *self = (MeLibavDecoder *)decoder;
    self->downstream_reads_meta = gst_query_find_allocation_meta(query, GST_VIDEO_META_API_TYPE, NULL);
    GST_INFO_OBJECT(self, "downstream %s GstVideoMeta: pictures are %s", self->downstream_reads_meta ? "reads" : "does not read",
                    self->downstream_reads_meta ? "handed over" : "copied");
    return GST_VIDEO_DECODER_CLASS(me_libav_decoder_parent_class)->decide_allocation(decoder, query);
}

// libav's messages about the engine's own decoding ("[h264 @ 0x...] no frame!") go to GStreamer's
// debug log (category "melibav", GST_DEBUG=melibav:4), not to standard error; every other message
// (the host app's own use of libav) goes to libav's default callback, as if the engine were not
// there. gst-libav installs a forwarder of its own when it loads; libav has one callback for the
// process, so whichever came last gets the messages (libav cannot say which callback was there
// before, to chain to an app's own).
static void forward_libav_log(void *object, int level, const char *format, va_list arguments) {
    const AVClass **class = object;
    gboolean ours = class && *class == avcodec_get_class() &&
                    ((AVCodecContext *)object)->opaque == &me_libav_context_marker;
    if (!ours) {
        av_log_default_callback(object, level, format, arguments);
        return;
    }
    GstDebugLevel debug_level = level <= AV_LOG_ERROR     ? GST_LEVEL_ERROR
                                : level <= AV_LOG_WARNING ? GST_LEVEL_WARNING
                                : level <= AV_LOG_INFO    ? GST_LEVEL_INFO
                                : level <= AV_LOG_VERBOSE ? GST_LEVEL_DEBUG
                                                          : GST_LEVEL_LOG;
    if (debug_level > gst_debug_category_get_threshold(me_libav_debug)) {
        return;
    }
    gchar *text = g_strdup_vprintf(format, arguments);
    GST_CAT_LEVEL_LOG(me_libav_debug, debug_level, NULL, "%s", g_strchomp(text));
    g_free(text);
}

static void me_libav_decoder_class_init(MeLibavDecoderClass *klass) {
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    GstVideoDecoderClass *decoder_class = GST_VIDEO_DECODER_CLASS(klass);
    gst_element_class_add_static_pad_template(element_class, &raw_src);
    decoder_class->start = me_libav_decoder_start;
    decoder_class->stop = me_libav_decoder_stop;
    decoder_class->set_format = me_libav_decoder_set_format;
    decoder_class->handle_frame = me_libav_decoder_handle_frame;
    decoder_class->drain = me_libav_decoder_drain;
    decoder_class->finish = me_libav_decoder_drain;
    decoder_class->flush = me_libav_decoder_flush;
    decoder_class->decide_allocation = me_libav_decoder_decide_allocation;
    GST_DEBUG_CATEGORY_INIT(me_libav_decoder_debug, "melibavdec", 0, "swift-media-engine's libav decoders");
    GST_DEBUG_CATEGORY_INIT(me_libav_debug, "melibav", 0, "libav's messages, from the engine's decoder");
    av_log_set_callback(forward_libav_log);
}

static void me_libav_decoder_init(MeLibavDecoder *self) {
    GstVideoDecoder *decoder = GST_VIDEO_DECODER(self);
    gst_video_decoder_set_packetized(decoder, TRUE);
    gst_video_decoder_set_needs_format(decoder, TRUE);
    gst_video_decoder_set_use_default_pad_acceptcaps(decoder, TRUE);
    GST_PAD_SET_ACCEPT_TEMPLATE(GST_VIDEO_DECODER_SINK_PAD(decoder));
}

// MARK: the codecs

// One element per codec: the same class, told its codec through the type's class data.
typedef struct {
    const gchar *element;    // the factory name
    enum AVCodecID codec;
    const gchar *codec_name; // for messages and the element's description
    const gchar *sink_caps;
} MeLibavCodec;

static const MeLibavCodec me_libav_codecs[] = {
    {"meh264dec", AV_CODEC_ID_H264, "H.264",
     "video/x-h264, stream-format = (string) { avc, byte-stream }, alignment = (string) au"},
    {"meh265dec", AV_CODEC_ID_HEVC, "H.265",
     "video/x-h265, stream-format = (string) { hvc1, hev1, byte-stream }, alignment = (string) au"},
};

static void me_libav_codec_class_init(gpointer klass, gpointer data) {
    const MeLibavCodec *codec = data;
    MeLibavDecoderClass *libav_class = klass;
    libav_class->codec = codec->codec;
    libav_class->codec_name = codec->codec_name;
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    GstCaps *caps = gst_caps_from_string(codec->sink_caps);
    gst_element_class_add_pad_template(element_class, gst_pad_template_new("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
    gst_caps_unref(caps);
    gchar *long_name = g_strdup_printf("%s decoder (libav, no copy)", codec->codec_name);
    gchar *description =
        g_strdup_printf("Decodes %s with libavcodec and hands its pictures over without copying", codec->codec_name);
    gst_element_class_set_metadata(element_class, long_name, "Codec/Decoder/Video", description, ME_ELEMENT_AUTHOR);
    g_free(long_name);
    g_free(description);
}

gboolean me_register_libav_decoders(GstPlugin *plugin, me_decoder_rank_callback rank, gboolean ranked) {
    for (gsize index = 0; index < G_N_ELEMENTS(me_libav_codecs); index++) {
        const MeLibavCodec *codec = &me_libav_codecs[index];
        gchar *type_name = g_strdup_printf("MeLibavDecoder_%s", codec->element);
        GTypeInfo info = {
            .class_size = sizeof(MeLibavDecoderClass),
            .class_init = me_libav_codec_class_init,
            .class_data = codec,
            .instance_size = sizeof(MeLibavDecoder),
        };
        GType type = g_type_from_name(type_name);
        if (!type) {
            type = g_type_register_static(me_libav_decoder_get_type(), type_name, &info, 0);
        }
        g_free(type_name);
        GstCaps *caps = gst_caps_from_string(codec->sink_caps);
        const gchar *media_type = gst_structure_get_name(gst_caps_get_structure(caps, 0));
        guint element_rank = rank(codec->element, media_type);
        gst_caps_unref(caps);
        if (!ranked) {
            me_decoder_preference_record(codec->element, element_rank);
            element_rank = GST_RANK_NONE;
        }
        if (!gst_element_register(plugin, codec->element, element_rank, type)) {
            return FALSE;
        }
    }
    return TRUE;
}
