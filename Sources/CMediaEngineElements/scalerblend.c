// Blending overlay rectangles onto the decoders' own formats (8-bit 4:2:0: I420, YV12, NV12,
// NV21). Each rectangle's pixels are split once into planes (luma, alpha, and chroma with its
// alpha sampled at the frame's 2x2 grid), kept with the rectangle together with each row's span
// of visible pixels, and blended row by row with loops the compiler vectorizes. The pixels are
// the overlay's own ARGB when the rectangle is drawn at their size (converted to YUV here, with
// GStreamer's own arithmetic), or the AYUV GStreamer scales and converts them to
// (gst_video_overlay_rectangle_get_pixels_ayuv). gst_video_blend, which unpacks every frame row
// to AYUV, blends in plain C and packs it back, cost about 5 ns a pixel here: 8 overlays over a
// quarter of a 1080p frame took 2.5 ms a frame, as long as decoding it (engine-bench --only
// overlays).
//
// A decoder's picture is read-only (libav still uses it as a reference), so the frame that gets
// the overlays is a copy: me_blend_420 copies it into the frame it is given, then blends.
#include "scalerblend.h"
#include <string.h>

// On x86-64 the blending loops are built twice, for the baseline (SSE2) and for AVX2, and the
// loader picks the one the processor runs (glibc's ifunc): AVX2 does sixteen 16-bit lanes in one
// instruction where SSE2 needs two, and nearly every x86-64 processor since 2013 has it.
// Not in sanitizer builds (make tsan, asan, fuzz): the loader runs the clones' resolver while it
// relocates the program, before the sanitizer's runtime has started, and the sanitizer's
// instrumentation of the resolver then crashes the process before main (seen under TSan).
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define ME_BLEND_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define ME_BLEND_SANITIZED 1
#endif
#if defined(__x86_64__) && defined(__linux__) && (defined(__clang__) || defined(__GNUC__)) &&                         \
    !defined(ME_BLEND_SANITIZED)
#define ME_BLEND_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define ME_BLEND_CLONES
#endif

typedef struct {
    gint first, end; // the columns [first, end) of a row that have any alpha; first == end: none
} Span;

typedef struct {
    gint width, height;
    gint parity_x, parity_y; // the frame position's parity the chroma was sampled for
    gint chroma_width, chroma_height;
    guint8 *luma, *alpha;             // width x height
    guint8 *u, *v, *chroma_alpha;     // chroma_width x chroma_height
    Span *luma_spans, *chroma_spans;  // one per row
} Planes;

static void planes_free(gpointer data) {
    Planes *planes = data;
    g_free(planes->luma);
    g_free(planes->u);
    g_free(planes->luma_spans);
    g_free(planes);
}

// Where a row of `count` alpha values is not fully transparent.
static Span visible_span(const guint8 *alpha, gint count) {
    gint first = 0, end = count;
    while (first < end && alpha[first] == 0) {
        first++;
    }
    while (end > first && alpha[end - 1] == 0) {
        end--;
    }
    return (Span){first, end};
}

// One pixel of GStreamer's overlay ARGB (native-endian 32 bits) in YUV, with the arithmetic of
// GStreamer 1.22's gst_video_overlay_rectangle_convert, so the result is the AYUV it would make.
static inline guint32 argb_pixel(const guint8 *pixel) {
    guint32 argb;
    memcpy(&argb, pixel, sizeof argb);
    return argb;
}
static inline guint8 argb_luma(guint32 argb) {
    gint r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;
    return (guint8)CLAMP((47 * r + 157 * g + 16 * b + 4096) >> 8, 0, 255);
}
static inline guint8 argb_u(guint32 argb) {
    gint r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;
    return (guint8)CLAMP((-26 * r - 87 * g + 112 * b + 32768) >> 8, 0, 255);
}
static inline guint8 argb_v(guint32 argb) {
    gint r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;
    return (guint8)CLAMP((112 * r - 102 * g - 10 * b + 32768) >> 8, 0, 255);
}

// Splits AYUV, or ARGB converted on the way, into planes; chroma from the pixels that land on
// even frame columns and rows.
static Planes *planes_new(const guint8 *pixels, gboolean argb, gint stride, gint width, gint height, gint parity_x,
                          gint parity_y) {
    Planes *planes = g_new0(Planes, 1);
    planes->width = width;
    planes->height = height;
    planes->parity_x = parity_x;
    planes->parity_y = parity_y;
    planes->luma = g_malloc((gsize)width * height * 2);
    planes->alpha = planes->luma + (gsize)width * height;
    for (gint row = 0; row < height; row++) {
        const guint8 *pixel = pixels + (gsize)row * stride;
        guint8 *alpha = planes->alpha + (gsize)row * width, *luma = planes->luma + (gsize)row * width;
        if (argb) {
            for (gint column = 0; column < width; column++) {
                guint32 value = argb_pixel(pixel + column * 4);
                alpha[column] = (guint8)(value >> 24);
                luma[column] = argb_luma(value);
            }
        } else {
            for (gint column = 0; column < width; column++) {
                alpha[column] = pixel[column * 4];
                luma[column] = pixel[column * 4 + 1];
            }
        }
    }
    // Source column c lies on an even frame column when (x + c) is even, that is c = parity_x + 2k.
    planes->chroma_width = MAX(0, (width - parity_x + 1) / 2);
    planes->chroma_height = MAX(0, (height - parity_y + 1) / 2);
    gsize count = (gsize)planes->chroma_width * planes->chroma_height;
    planes->u = g_malloc(MAX(count, 1) * 3);
    planes->v = planes->u + count;
    planes->chroma_alpha = planes->v + count;
    for (gint row = 0; row < planes->chroma_height; row++) {
        const guint8 *line = pixels + (gsize)(parity_y + row * 2) * stride;
        for (gint column = 0; column < planes->chroma_width; column++) {
            const guint8 *pixel = line + (parity_x + column * 2) * 4;
            gsize index = (gsize)row * planes->chroma_width + column;
            if (argb) {
                guint32 value = argb_pixel(pixel);
                planes->chroma_alpha[index] = (guint8)(value >> 24);
                planes->u[index] = argb_u(value);
                planes->v[index] = argb_v(value);
            } else {
                planes->chroma_alpha[index] = pixel[0];
                planes->u[index] = pixel[2];
                planes->v[index] = pixel[3];
            }
        }
    }
    planes->luma_spans = g_new(Span, (gsize)height + (gsize)planes->chroma_height);
    planes->chroma_spans = planes->luma_spans + height;
    for (gint row = 0; row < height; row++) {
        planes->luma_spans[row] = visible_span(planes->alpha + (gsize)row * width, width);
    }
    for (gint row = 0; row < planes->chroma_height; row++) {
        planes->chroma_spans[row] =
            visible_span(planes->chroma_alpha + (gsize)row * planes->chroma_width, planes->chroma_width);
    }
    return planes;
}

// destination = (source * alpha + destination * (255 - alpha)) / 255, rounded, in 16-bit
// arithmetic (255 * 255 + 128 fits); blend_row does the same sixteen pixels at a time.
static inline guint8 mix(guint8 source, guint8 destination, guint8 alpha) {
    guint16 t = (guint16)((guint16)(source * alpha) + (guint16)(destination * (guint8)(255 - alpha)) + 128);
    return (guint8)((guint16)(t + (t >> 8)) >> 8);
}

#if defined(__clang__)
// Sixteen pixels at a time in 16-bit lanes, written out: left to itself the compiler widens the
// arithmetic to 32 bits (C's integer promotion) and does half as many pixels a step.
typedef guint8 Bytes16 __attribute__((vector_size(16)));
typedef guint16 Words16 __attribute__((vector_size(32)));

// A macro, not a function: a 32-byte vector passed by value changes the calling convention
// between the two builds of blend_row.
#define ME_LOAD16(bytes)                                                                                               \
    ({                                                                                                                 \
        Bytes16 loaded;                                                                                                \
        memcpy(&loaded, (bytes), sizeof loaded);                                                                       \
        __builtin_convertvector(loaded, Words16);                                                                      \
    })
#endif

ME_BLEND_CLONES
static void blend_row(guint8 *restrict destination, const guint8 *restrict source, const guint8 *restrict alpha,
                      gint count, guint scale) {
    gint i = 0;
#if defined(__clang__)
    for (; i + 16 <= count; i += 16) {
        Words16 a = ME_LOAD16(alpha + i);
        if (scale < 256) {
            a = (a * (guint16)scale) >> 8;
        }
        Words16 t = ME_LOAD16(source + i) * a + ME_LOAD16(destination + i) * (255 - a) + 128;
        Bytes16 mixed = __builtin_convertvector((t + (t >> 8)) >> 8, Bytes16);
        memcpy(destination + i, &mixed, sizeof mixed);
    }
#endif
    for (; i < count; i++) {
        guint8 a = scale >= 256 ? alpha[i] : (guint8)((guint16)(alpha[i] * scale) >> 8);
        destination[i] = mix(source[i], destination[i], a);
    }
}

ME_BLEND_CLONES
static void blend_interleaved_row(guint8 *restrict destination, const guint8 *restrict source,
                                  const guint8 *restrict alpha, gint count, guint scale) {
    for (gint i = 0; i < count; i++) {
        guint8 a = scale >= 256 ? alpha[i] : (guint8)((alpha[i] * scale) >> 8);
        destination[i * 2] = mix(source[i], destination[i * 2], a);
    }
}

// Atomic: scalers of different players blend on their own streaming threads, and the first two
// frames with overlays may ask at once (both get the same quark; a plain static was a data race).
static GQuark planes_quark(void) {
    static gint quark = 0;
    GQuark value = (GQuark)g_atomic_int_get(&quark);
    if (!value) {
        value = g_quark_from_static_string("me-overlay-planes");
        g_atomic_int_set(&quark, (gint)value);
    }
    return value;
}

// A rectangle ready to blend: its planes and where they land.
typedef struct {
    const Planes *planes;
    gint x, y;
    guint scale; // the rectangle's opacity, 256 = opaque
} Placed;

// The planes for a rectangle's pixels at this position's parity: made once, kept with the
// rectangle (its owner), which only this thread blends.
static const Planes *planes_for(const MeBlendSource *source) {
    gint parity_x = source->x & 1, parity_y = source->y & 1;
    GstMiniObject *owner = source->owner ? source->owner : GST_MINI_OBJECT(source->pixels);
    Planes *planes = gst_mini_object_get_qdata(owner, planes_quark());
    if (planes && planes->parity_x == parity_x && planes->parity_y == parity_y && planes->width == source->width &&
        planes->height == source->height) {
        return planes;
    }
    GstMapInfo map;
    if (!gst_buffer_map(source->pixels, &map, GST_MAP_READ)) {
        return NULL;
    }
    gboolean fits = source->stride >= source->width * 4 &&
                    (gsize)source->stride * (gsize)(source->height - 1) + (gsize)source->width * 4 <= map.size;
    planes = fits ? planes_new(map.data, source->argb, source->stride, source->width, source->height, parity_x,
                               parity_y)
                  : NULL;
    gst_buffer_unmap(source->pixels, &map);
    if (planes) {
        gst_mini_object_set_qdata(owner, planes_quark(), planes, planes_free);
    }
    return planes;
}

// Blends the rectangle's part of luma row `row` (a frame row) onto `line`, `frame_width` pixels.
static void blend_luma_line(guint8 *line, gint row, gint frame_width, const Placed *placed) {
    const Planes *planes = placed->planes;
    gint source_row = row - placed->y;
    if (source_row < 0 || source_row >= planes->height) {
        return;
    }
    Span span = planes->luma_spans[source_row];
    gint first = MAX(span.first, -placed->x), end = MIN(span.end, frame_width - placed->x);
    if (end <= first) {
        return;
    }
    gsize source = (gsize)source_row * planes->width + first;
    blend_row(line + placed->x + first, planes->luma + source, planes->alpha + source, end - first, placed->scale);
}

// Blends the rectangle's part of chroma row `row` onto `u` and `v` (planar: `step` 1) or onto one
// interleaved line (`v` = `u` + 1, `step` 2); `chroma_width` samples. The frame's chroma sample
// (cx, cy) takes the colour and alpha of the rectangle's pixel at frame position (2cx, 2cy).
static void blend_chroma_line(guint8 *u, guint8 *v, gint step, gint row, gint chroma_width, const Placed *placed) {
    const Planes *planes = placed->planes;
    // x + parity_x and y + parity_y are even: the rectangle's first sampled pixel's chroma position.
    gint base_x = (placed->x + planes->parity_x) / 2, base_y = (placed->y + planes->parity_y) / 2;
    gint source_row = row - base_y;
    if (source_row < 0 || source_row >= planes->chroma_height) {
        return;
    }
    Span span = planes->chroma_spans[source_row];
    gint first = MAX(span.first, -base_x), end = MIN(span.end, chroma_width - base_x);
    if (end <= first) {
        return;
    }
    gsize source = (gsize)source_row * planes->chroma_width + first;
    gsize offset = (gsize)(base_x + first) * (gsize)step;
    if (step == 1) {
        blend_row(u + offset, planes->u + source, planes->chroma_alpha + source, end - first, placed->scale);
        blend_row(v + offset, planes->v + source, planes->chroma_alpha + source, end - first, placed->scale);
    } else {
        blend_interleaved_row(u + offset, planes->u + source, planes->chroma_alpha + source, end - first,
                              placed->scale);
        blend_interleaved_row(v + offset, planes->v + source, planes->chroma_alpha + source, end - first,
                              placed->scale);
    }
}

// Copies plane `plane` of `source` into `destination` (same format and size): one memcpy when the
// strides agree. A copy that large goes through the processor's string copy, which writes whole
// cache lines without reading them first; row by row the same copy took half as long again
// (1080p luma, 0.10 against 0.16 ms), more than blending just after each row saves.
static void copy_plane(GstVideoFrame *destination, const GstVideoFrame *source, guint plane, gint rows,
                       gsize row_bytes) {
    gint to_stride = GST_VIDEO_FRAME_PLANE_STRIDE(destination, plane);
    gint from_stride = GST_VIDEO_FRAME_PLANE_STRIDE(source, plane);
    guint8 *to = GST_VIDEO_FRAME_PLANE_DATA(destination, plane);
    const guint8 *from = GST_VIDEO_FRAME_PLANE_DATA(source, plane);
    if (rows <= 0) {
        return;
    }
    if (to_stride == from_stride && to_stride > 0) {
        memcpy(to, from, (gsize)to_stride * (gsize)(rows - 1) + row_bytes);
        return;
    }
    for (gint row = 0; row < rows; row++) {
        memcpy(to + (gsize)row * to_stride, from + (gsize)row * from_stride, row_bytes);
    }
}

// Blends the rectangles onto one plane (planar chroma: U and V together, `plane` being U's),
// after copying it from `source` when there is one.
static void blend_plane(GstVideoFrame *destination, const GstVideoFrame *source, guint plane, const Placed *placed,
                        guint count, gboolean luma) {
    GstVideoFormat format = GST_VIDEO_FRAME_FORMAT(destination);
    gboolean interleaved = format == GST_VIDEO_FORMAT_NV12 || format == GST_VIDEO_FORMAT_NV21;
    gint frame_width = GST_VIDEO_FRAME_WIDTH(destination), frame_height = GST_VIDEO_FRAME_HEIGHT(destination);
    gint width = luma ? frame_width : (frame_width + 1) / 2;
    gint rows = luma ? frame_height : (frame_height + 1) / 2;
    gsize row_bytes = (gsize)width * (luma || !interleaved ? 1 : 2);
    gboolean planar_chroma = !luma && !interleaved;
    guint v_plane = format == GST_VIDEO_FORMAT_YV12 ? 1 : 2;
    if (source) {
        copy_plane(destination, source, plane, rows, row_bytes);
        if (planar_chroma) {
            copy_plane(destination, source, v_plane, rows, row_bytes);
        }
    }
    if (count == 0) {
        return;
    }
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(destination, plane);
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA(destination, plane);
    gint v_stride = GST_VIDEO_FRAME_PLANE_STRIDE(destination, v_plane);
    guint8 *v_data = planar_chroma ? GST_VIDEO_FRAME_PLANE_DATA(destination, v_plane) : NULL;
    gint u_offset = format == GST_VIDEO_FORMAT_NV21 ? 1 : 0;
    // One rectangle after the other, each over just its own rows: the order of overlapping ones.
    for (guint index = 0; index < count; index++) {
        const Placed *rectangle = &placed[index];
        gint top = luma ? rectangle->y : (rectangle->y + rectangle->planes->parity_y) / 2;
        gint height = luma ? rectangle->planes->height : rectangle->planes->chroma_height;
        for (gint row = MAX(0, top); row < MIN(rows, top + height); row++) {
            guint8 *line = data + (gsize)row * stride;
            if (luma) {
                blend_luma_line(line, row, width, rectangle);
            } else if (planar_chroma) {
                blend_chroma_line(line, v_data + (gsize)row * v_stride, 1, row, width, rectangle);
            } else {
                blend_chroma_line(line + u_offset, line + 1 - u_offset, 2, row, width, rectangle);
            }
        }
    }
}

gboolean me_blend_420(GstVideoFrame *destination, const GstVideoFrame *source, const MeBlendSource *sources,
                      guint count) {
    GstVideoFormat format = GST_VIDEO_FRAME_FORMAT(destination);
    gboolean planar = format == GST_VIDEO_FORMAT_I420 || format == GST_VIDEO_FORMAT_YV12;
    gboolean interleaved = format == GST_VIDEO_FORMAT_NV12 || format == GST_VIDEO_FORMAT_NV21;
    if (!planar && !interleaved) {
        return FALSE;
    }
    if (source && (GST_VIDEO_FRAME_FORMAT(source) != format ||
                   GST_VIDEO_FRAME_WIDTH(source) != GST_VIDEO_FRAME_WIDTH(destination) ||
                   GST_VIDEO_FRAME_HEIGHT(source) != GST_VIDEO_FRAME_HEIGHT(destination))) {
        return FALSE;
    }
    Placed *placed = g_new(Placed, MAX(count, 1)); // on the heap: an app may add any number of overlays
    guint usable = 0;
    for (guint index = 0; index < count; index++) {
        const MeBlendSource *rectangle = &sources[index];
        if (rectangle->width <= 0 || rectangle->height <= 0 || rectangle->width > G_MAXINT / 8 ||
            rectangle->height > G_MAXINT / 8 || ABS(rectangle->x) > G_MAXINT / 4 || ABS(rectangle->y) > G_MAXINT / 4) {
            continue; // nothing to draw, or sums below that would overflow
        }
        const Planes *planes = planes_for(rectangle);
        if (!planes) {
            continue; // nothing drawable: skip the rectangle
        }
        guint scale = (guint)(CLAMP(rectangle->global_alpha, 0.0f, 1.0f) * 256.0f + 0.5f);
        placed[usable++] = (Placed){planes, rectangle->x, rectangle->y, scale};
    }
    blend_plane(destination, source, 0, placed, usable, TRUE);
    blend_plane(destination, source, planar ? (format == GST_VIDEO_FORMAT_YV12 ? 2 : 1) : 1, placed, usable, FALSE);
    g_free(placed);
    return TRUE;
}
