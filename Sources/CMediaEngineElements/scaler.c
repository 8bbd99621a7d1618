// mescaler: fits frames of any size into a fixed output size the way a player's scaling mode
// says (none, aspect fit, aspect fill, fill), in one GstVideoConverter pass: crop, scale, place,
// and paint the bars in a chosen colour. Same format in and out; a pass-through when the output
// would equal the input. As one tile of a video wall ("wall-columns" and its siblings) it fits the
// picture to the whole wall, bezels included, and outputs its tile's part. Registered privately
// by me_register_elements().
//
// It is also the engine's one compositing step for overlays: with "compositing" on, it asks a
// callback for each frame's GstVideoOverlayComposition, giving it the geometry it just used
// (where the movie's picture landed in the output), and blends that onto the output frame
// (blend_rectangle below). With compositing off and nothing to scale it stays a pass-through, so
// unused overlays and scaling cost nothing.
#include "me_scaler.h"
#include "me_elements.h"
#include "me_released_picture.h"
#include "scalerblend.h"
#include <gst/base/gstbasetransform.h>

#define ME_SCALER_FORMATS \
    "{ I420, YV12, NV12, NV21, Y42B, Y444, AYUV, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, RGB, BGR }"

enum { PROP_0, PROP_WIDTH, PROP_HEIGHT, PROP_MODE, PROP_BACKGROUND, PROP_N_THREADS, PROP_VIEW_X, PROP_VIEW_Y,
       PROP_VIEW_WIDTH, PROP_VIEW_HEIGHT, PROP_COMPOSITING, PROP_FROM_MODE, PROP_PROGRESS, PROP_FRAMES_COPIED,
       PROP_FRAMES_CLAIMED, PROP_WALL_COLUMNS, PROP_WALL_ROWS, PROP_WALL_COLUMN, PROP_WALL_ROW, PROP_BEZEL_WIDTH,
       PROP_BEZEL_HEIGHT };

typedef struct {
    GstBaseTransform parent;
    GMutex lock;
    guint out_width, out_height; // 0: the input's size
    gint mode;                   // 0 none, 1 aspect fit, 2 aspect fill, 3 fill
    gint from_mode;              // -1, or the mode a change of mode comes from (an animation)
    guint progress;              // how far from `from_mode` to `mode`, in thousandths
    guint32 background;          // ARGB
    guint n_threads;
    gint view_x, view_y;             // where in the output the picture is fitted
    guint view_width, view_height;   // 0: the whole output
    // A tile of a video wall: the picture is fitted to a wall of wall_columns x wall_rows outputs
    // (each the view's size, bezel_width/bezel_height pixels of frame between two), and this
    // output shows the one at (wall_column, wall_row). A wall of 1 x 1 is no wall.
    guint wall_columns, wall_rows, wall_column, wall_row, bezel_width, bezel_height;
    GstVideoInfo in_info, out_info;
    GstVideoConverter *converter;
    gint dirty; // atomic: the mode or colour changed since the converter was made
    gint compositing; // atomic: ask `compose` for overlays on every frame
    MeScalerGeometry geometry; // under `lock`: the mapping the current converter uses
    me_compose_callback compose; // set once, before the element starts
    gpointer compose_data;
    GDestroyNotify compose_destroy;
    GstBufferPool *copy_pool; // streaming thread: buffers for frames copied before blending
    GstBuffer *copy_source;   // streaming thread: the read-only frame the next transform_ip copies
    guint64 frames_copied;    // atomic: read-only frames copied before blending
    guint64 frames_claimed;   // atomic: read-only frames their decoder had let go of, blended in place
} MeScaler;

typedef struct {
    GstBaseTransformClass parent_class;
} MeScalerClass;

G_DEFINE_TYPE(MeScaler, me_scaler, GST_TYPE_BASE_TRANSFORM)

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE(ME_SCALER_FORMATS)));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE(ME_SCALER_FORMATS)));

// Stores `value` in `field`, saying whether it changed.
#define ME_SCALER_STORE(field, value)                                                                                \
    do {                                                                                                               \
        __typeof__(field) stored = (value);                                                                            \
        changed = field != stored;                                                                                     \
        field = stored;                                                                                                \
    } while (0)

static void me_scaler_set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
    MeScaler *self = (MeScaler *)object;
    gboolean changed = FALSE;
    g_mutex_lock(&self->lock);
    switch (id) {
    case PROP_WIDTH: ME_SCALER_STORE(self->out_width, g_value_get_uint(value)); break;
    case PROP_HEIGHT: ME_SCALER_STORE(self->out_height, g_value_get_uint(value)); break;
    case PROP_MODE: ME_SCALER_STORE(self->mode, g_value_get_int(value)); break;
    case PROP_FROM_MODE: ME_SCALER_STORE(self->from_mode, g_value_get_int(value)); break;
    case PROP_PROGRESS: ME_SCALER_STORE(self->progress, g_value_get_uint(value)); break;
    case PROP_BACKGROUND: ME_SCALER_STORE(self->background, g_value_get_uint(value)); break;
    case PROP_N_THREADS: ME_SCALER_STORE(self->n_threads, g_value_get_uint(value)); break;
    case PROP_VIEW_X: ME_SCALER_STORE(self->view_x, g_value_get_int(value)); break;
    case PROP_VIEW_Y: ME_SCALER_STORE(self->view_y, g_value_get_int(value)); break;
    case PROP_VIEW_WIDTH: ME_SCALER_STORE(self->view_width, g_value_get_uint(value)); break;
    case PROP_VIEW_HEIGHT: ME_SCALER_STORE(self->view_height, g_value_get_uint(value)); break;
    case PROP_WALL_COLUMNS: ME_SCALER_STORE(self->wall_columns, g_value_get_uint(value)); break;
    case PROP_WALL_ROWS: ME_SCALER_STORE(self->wall_rows, g_value_get_uint(value)); break;
    case PROP_WALL_COLUMN: ME_SCALER_STORE(self->wall_column, g_value_get_uint(value)); break;
    case PROP_WALL_ROW: ME_SCALER_STORE(self->wall_row, g_value_get_uint(value)); break;
    case PROP_BEZEL_WIDTH: ME_SCALER_STORE(self->bezel_width, g_value_get_uint(value)); break;
    case PROP_BEZEL_HEIGHT: ME_SCALER_STORE(self->bezel_height, g_value_get_uint(value)); break;
    case PROP_COMPOSITING: {
        gint compositing = g_value_get_boolean(value) ? TRUE : FALSE;
        changed = g_atomic_int_exchange(&self->compositing, compositing) != compositing;
        break;
    }
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec); break;
    }
    g_mutex_unlock(&self->lock);
    // A new size renegotiates (set_caps rebuilds the converter); a new mode or colour with the
    // same caps only marks the converter stale, and the next frame rebuilds it. A value set to
    // what it was changes nothing: the player sets the whole presentation at once (after every
    // output swap, too), and each renegotiation is work for the streaming thread.
    if (changed) {
        g_atomic_int_set(&self->dirty, TRUE);
        gst_base_transform_reconfigure_src(GST_BASE_TRANSFORM(self));
    }
}

#undef ME_SCALER_STORE

static void me_scaler_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
    MeScaler *self = (MeScaler *)object;
    g_mutex_lock(&self->lock);
    switch (id) {
    case PROP_WIDTH: g_value_set_uint(value, self->out_width); break;
    case PROP_HEIGHT: g_value_set_uint(value, self->out_height); break;
    case PROP_MODE: g_value_set_int(value, self->mode); break;
    case PROP_FROM_MODE: g_value_set_int(value, self->from_mode); break;
    case PROP_PROGRESS: g_value_set_uint(value, self->progress); break;
    case PROP_BACKGROUND: g_value_set_uint(value, self->background); break;
    case PROP_N_THREADS: g_value_set_uint(value, self->n_threads); break;
    case PROP_VIEW_X: g_value_set_int(value, self->view_x); break;
    case PROP_VIEW_Y: g_value_set_int(value, self->view_y); break;
    case PROP_VIEW_WIDTH: g_value_set_uint(value, self->view_width); break;
    case PROP_VIEW_HEIGHT: g_value_set_uint(value, self->view_height); break;
    case PROP_WALL_COLUMNS: g_value_set_uint(value, self->wall_columns); break;
    case PROP_WALL_ROWS: g_value_set_uint(value, self->wall_rows); break;
    case PROP_WALL_COLUMN: g_value_set_uint(value, self->wall_column); break;
    case PROP_WALL_ROW: g_value_set_uint(value, self->wall_row); break;
    case PROP_BEZEL_WIDTH: g_value_set_uint(value, self->bezel_width); break;
    case PROP_BEZEL_HEIGHT: g_value_set_uint(value, self->bezel_height); break;
    case PROP_COMPOSITING: g_value_set_boolean(value, g_atomic_int_get(&self->compositing)); break;
    case PROP_FRAMES_COPIED: g_value_set_uint64(value, __atomic_load_n(&self->frames_copied, __ATOMIC_RELAXED)); break;
    case PROP_FRAMES_CLAIMED: g_value_set_uint64(value, __atomic_load_n(&self->frames_claimed, __ATOMIC_RELAXED)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec); break;
    }
    g_mutex_unlock(&self->lock);
}

static GstCaps *me_scaler_transform_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps,
                                         GstCaps *filter) {
    MeScaler *self = (MeScaler *)trans;
    g_mutex_lock(&self->lock);
    guint width = self->out_width, height = self->out_height;
    g_mutex_unlock(&self->lock);
    GstCaps *result = gst_caps_new_empty();
    for (guint i = 0; i < gst_caps_get_size(caps); i++) {
        GstStructure *s = gst_structure_copy(gst_caps_get_structure(caps, i));
        if (direction == GST_PAD_SINK && width > 0 && height > 0) {
            gst_structure_set(s, "width", G_TYPE_INT, (gint)width, "height", G_TYPE_INT, (gint)height,
                              "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, NULL);
        } else if (direction == GST_PAD_SRC) {
            gst_structure_set(s, "width", GST_TYPE_INT_RANGE, 1, G_MAXINT, "height", GST_TYPE_INT_RANGE, 1, G_MAXINT,
                              NULL);
            gst_structure_remove_field(s, "pixel-aspect-ratio");
        }
        result = gst_caps_merge_structure(result, s);
    }
    if (filter) {
        GstCaps *intersection = gst_caps_intersect_full(filter, result, GST_CAPS_INTERSECT_FIRST);
        gst_caps_unref(result);
        result = intersection;
    }
    return result;
}

// Sizes and positions the converter can build.
//
// GstVideoConverter (1.22) checks none of its rectangles: a scaled size of 0 fails an assertion
// in gst_video_resampler_init and then corrupts the heap (free(): invalid size). Interlaced
// frames are scaled field by field, each plane's rows split between the two fields, so a plane
// of one row (the chroma of a 4:2:0 picture two rows tall) gives a field of none. A movie alone
// can ask for both (an interlaced picture whose display aspect is 100:1, fitted 3 rows tall;
// a pixel aspect ratio of 65535:1 cropped to less than a column), so every size below is
// clamped to what the converter builds before it is used, and checked once more after.

// `value` rounded to a multiple of `step`, at least `minimum`, within `room` (at least 1); when
// `room` is smaller than `minimum`, all of it. Never 0, whatever the double (huge, NaN).
static gint snap(gdouble value, gint step, gint minimum, gint room) {
    room = MAX(room, 1);
    gint rounded = value >= 0.5 && value < room ? (gint)(value + 0.5) : (value >= room ? room : 0);
    rounded -= rounded % step;
    if (rounded > room - room % step) {
        rounded = room - room % step;
    }
    return MIN(MAX(rounded, minimum), room);
}

// A position: `value` rounded, aligned down to `step`, within [0, limit].
static gint place(gdouble value, gint step, gint limit) {
    limit = MAX(limit, 0);
    gint rounded = value >= 0.5 && value < limit ? (gint)(value + 0.5) : (value >= limit ? limit : 0);
    return rounded - rounded % step;
}

// Whether every plane of a picture `rows` high has rows in both fields: what the converter needs
// to scale an interlaced picture field by field.
static gboolean fields_scalable(const GstVideoFormatInfo *format, gint rows) {
    for (guint component = 0; component < GST_VIDEO_FORMAT_INFO_N_COMPONENTS(format); component++) {
        if (GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT(format, component, rows) < 2) {
            return FALSE;
        }
    }
    return TRUE;
}

// Whether (x, y, width, height) is a non-empty rectangle inside a `frame_width`x`frame_height` frame.
static gboolean inside(gint x, gint y, gint width, gint height, gint frame_width, gint frame_height) {
    return x >= 0 && y >= 0 && width > 0 && height > 0 && width <= frame_width - x && height <= frame_height - y;
}

// Refuses a geometry the converter cannot build: an error on the bus (the engine's MediaError)
// and no converter, so no frame goes through unscaled.
static gboolean refuse(MeScaler *self, gint in_w, gint in_h, gint canvas_w, gint canvas_h, const char *detail) {
    gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), FALSE);
    gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), FALSE);
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION,
                      ("Cannot scale a %dx%d picture into %dx%d.", in_w, in_h, canvas_w, canvas_h), ("mescaler: %s",
                                                                                                      detail));
    return FALSE;
}

// Where a picture `in_w`x`in_h` (pixel aspect `par`) goes in an `out_w`x`out_h` area in scaling
// `mode`: the part of the picture taken and the rectangle it fills, on the 4:2:0 grid.
typedef struct {
    gint src_x, src_y, src_w, src_h, dst_x, dst_y, dst_w, dst_h;
} Rects;

static Rects rects_for(gint mode, gint in_w, gint in_h, gint out_w, gint out_h, gdouble par, gint row_step) {
    gdouble display_w = in_w * par; // the input's width in square pixels
    gint src_x = 0, src_y = 0, src_w = in_w, src_h = in_h;
    gint dst_x = 0, dst_y = 0, dst_w = out_w, dst_h = out_h;
    switch (mode) {
    case 1: { // aspect fit: all of the picture, bars around it
        gdouble scale = MIN(out_w / display_w, (gdouble)out_h / in_h);
        dst_w = snap(display_w * scale, 2, 2, out_w);
        dst_h = snap(in_h * scale, row_step, row_step, out_h);
        dst_x = place((out_w - dst_w) / 2.0, 2, out_w - dst_w);
        dst_y = place((out_h - dst_h) / 2.0, row_step, out_h - dst_h);
        break;
    }
    case 2: { // aspect fill: no bars, the overflow cropped
        gdouble scale = MAX(out_w / display_w, (gdouble)out_h / in_h);
        src_w = snap(out_w / scale / par, 2, 2, in_w);
        src_h = snap(out_h / scale, row_step, row_step, in_h);
        src_x = place((in_w - src_w) / 2.0, 2, in_w - src_w);
        src_y = place((in_h - src_h) / 2.0, row_step, in_h - src_h);
        break;
    }
    case 3: // fill: stretched to the whole output
        break;
    default: { // none: the natural size, centred, cropped or with bars
        dst_w = snap(display_w, 2, 2, out_w);
        dst_h = snap(in_h, row_step, row_step, out_h);
        dst_x = place((out_w - dst_w) / 2.0, 2, out_w - dst_w);
        dst_y = place((out_h - dst_h) / 2.0, row_step, out_h - dst_h);
        src_w = snap(dst_w / par, 2, 2, in_w);
        src_h = snap(dst_h, row_step, row_step, in_h);
        src_x = place((in_w - src_w) / 2.0, 2, in_w - src_w);
        src_y = place((in_h - src_h) / 2.0, row_step, in_h - src_h);
        break;
    }
    }
    Rects rects = {src_x, src_y, src_w, src_h, dst_x, dst_y, dst_w, dst_h};
    return rects;
}

// The part of `whole` (a picture's source and destination on a whole wall) that falls in the
// tile at (tile_x, tile_y), tile_w x tile_h, in the tile's own coordinates: the destination cut to
// the tile, the source cut in proportion, both on the 4:2:0 grid. A tile wholly outside the picture
// (in aspect fit's bars) takes the picture's nearest 2x2 corner of pixels: the converter draws
// nothing at all for an empty rectangle (not even the background), so the tile shows its
// background with a speck of the picture's edge where the picture would continue.
static Rects tile_of(Rects whole, gint in_w, gint in_h, gint tile_x, gint tile_y, gint tile_w, gint tile_h,
                     gint row_step) {
    gdouble scale_x = (gdouble)whole.src_w / whole.dst_w, scale_y = (gdouble)whole.src_h / whole.dst_h;
    gint left = MAX(whole.dst_x, tile_x), right = MIN(whole.dst_x + whole.dst_w, tile_x + tile_w);
    gint top = MAX(whole.dst_y, tile_y), bottom = MIN(whole.dst_y + whole.dst_h, tile_y + tile_h);
    if (right - left < 2) {
        left = CLAMP(tile_x, whole.dst_x, whole.dst_x + whole.dst_w - 2);
        left = CLAMP(left, tile_x, tile_x + tile_w - 2);
        right = left + 2;
    }
    if (bottom - top < row_step) {
        top = CLAMP(tile_y, whole.dst_y, whole.dst_y + whole.dst_h - row_step);
        top = CLAMP(top, tile_y, tile_y + tile_h - row_step);
        bottom = top + row_step;
    }
    Rects rects;
    rects.dst_w = snap(right - left, 2, 2, tile_w);
    rects.dst_h = snap(bottom - top, row_step, row_step, tile_h);
    rects.dst_x = place(left - tile_x, 2, tile_w - rects.dst_w);
    rects.dst_y = place(top - tile_y, row_step, tile_h - rects.dst_h);
    rects.src_w = snap((right - left) * scale_x, 2, 2, in_w);
    rects.src_h = snap((bottom - top) * scale_y, row_step, row_step, in_h);
    rects.src_x = place(whole.src_x + (left - whole.dst_x) * scale_x, 2, in_w - rects.src_w);
    rects.src_y = place(whole.src_y + (top - whole.dst_y) * scale_y, row_step, in_h - rects.src_h);
    return rects;
}

static gboolean me_scaler_configure(MeScaler *self) {
    GstBaseTransform *trans = GST_BASE_TRANSFORM(self);
    g_atomic_int_set(&self->dirty, FALSE);
    g_mutex_lock(&self->lock);
    gint mode = self->mode, from_mode = self->from_mode;
    guint progress = self->progress;
    guint32 background = self->background;
    guint threads = self->n_threads;
    gint view_x = self->view_x, view_y = self->view_y;
    guint view_width = self->view_width, view_height = self->view_height;
    guint wall_columns = MAX(self->wall_columns, 1), wall_rows = MAX(self->wall_rows, 1);
    guint wall_column = MIN(self->wall_column, wall_columns - 1), wall_row = MIN(self->wall_row, wall_rows - 1);
    guint bezel_width = self->bezel_width, bezel_height = self->bezel_height;
    g_mutex_unlock(&self->lock);
    if (self->converter) {
        gst_video_converter_free(self->converter);
        self->converter = NULL;
    }
    gint in_w = GST_VIDEO_INFO_WIDTH(&self->in_info), in_h = GST_VIDEO_INFO_HEIGHT(&self->in_info);
    gint canvas_w = GST_VIDEO_INFO_WIDTH(&self->out_info), canvas_h = GST_VIDEO_INFO_HEIGHT(&self->out_info);
    if (in_w < 1 || in_h < 1 || canvas_w < 1 || canvas_h < 1) {
        return refuse(self, in_w, in_h, canvas_w, canvas_h, "an empty input or output");
    }
    // Interlaced pictures keep whole field pairs of 4:2:0 rows (4 rows) where there is room, so
    // each field keeps its own chroma rows; positions keep the fields' order.
    gboolean interlaced = GST_VIDEO_INFO_IS_INTERLACED(&self->in_info) &&
                          GST_VIDEO_INFO_INTERLACE_MODE(&self->in_info) != GST_VIDEO_INTERLACE_MODE_ALTERNATE;
    gint row_step = interlaced ? 4 : 2;
    // The picture is fitted into the view (by default the whole output); the rest is background.
    gint origin_x = 0, origin_y = 0, out_w = canvas_w, out_h = canvas_h;
    if (view_width > 0 && view_height > 0) {
        origin_x = place(CLAMP(view_x, 0, canvas_w - 1), 2, canvas_w - 1);
        origin_y = place(CLAMP(view_y, 0, canvas_h - 1), row_step, canvas_h - 1);
        out_w = (gint)MIN(view_width, (guint)(canvas_w - origin_x));
        out_h = (gint)MIN(view_height, (guint)(canvas_h - origin_y));
    }
    gdouble par = GST_VIDEO_INFO_PAR_N(&self->in_info) > 0 && GST_VIDEO_INFO_PAR_D(&self->in_info) > 0
                      ? (gdouble)GST_VIDEO_INFO_PAR_N(&self->in_info) / GST_VIDEO_INFO_PAR_D(&self->in_info)
                      : 1.0;
    Rects rects = rects_for(mode, in_w, in_h, out_w, out_h, par, row_step);
    if (wall_columns > 1 || wall_rows > 1) {
        // The picture fitted to the whole wall (bezels included, so that a line crossing two
        // screens stays straight), then this tile's part of it. No animation of the mode.
        gint64 wall_w = (gint64)wall_columns * out_w + (gint64)(wall_columns - 1) * bezel_width;
        gint64 wall_h = (gint64)wall_rows * out_h + (gint64)(wall_rows - 1) * bezel_height;
        if (wall_w > G_MAXINT / 2 || wall_h > G_MAXINT / 2) {
            return refuse(self, in_w, in_h, canvas_w, canvas_h, "a wall too large");
        }
        Rects whole = rects_for(mode, in_w, in_h, (gint)wall_w, (gint)wall_h, par, row_step);
        rects = tile_of(whole, in_w, in_h, (gint)(wall_column * (out_w + bezel_width)),
                        (gint)(wall_row * (out_h + bezel_height)), out_w, out_h, row_step);
    } else if (from_mode >= 0 && from_mode != mode && progress < 1000) {
        // A change of mode on its way: every edge moved part of the way, kept on the grid.
        Rects from = rects_for(from_mode, in_w, in_h, out_w, out_h, par, row_step);
        gdouble t = progress / 1000.0;
        Rects mixed;
        mixed.src_w = snap(from.src_w + (rects.src_w - from.src_w) * t, 2, 2, in_w);
        mixed.src_h = snap(from.src_h + (rects.src_h - from.src_h) * t, row_step, row_step, in_h);
        mixed.src_x = place(from.src_x + (rects.src_x - from.src_x) * t, 2, in_w - mixed.src_w);
        mixed.src_y = place(from.src_y + (rects.src_y - from.src_y) * t, row_step, in_h - mixed.src_h);
        mixed.dst_w = snap(from.dst_w + (rects.dst_w - from.dst_w) * t, 2, 2, out_w);
        mixed.dst_h = snap(from.dst_h + (rects.dst_h - from.dst_h) * t, row_step, row_step, out_h);
        mixed.dst_x = place(from.dst_x + (rects.dst_x - from.dst_x) * t, 2, out_w - mixed.dst_w);
        mixed.dst_y = place(from.dst_y + (rects.dst_y - from.dst_y) * t, row_step, out_h - mixed.dst_h);
        rects = mixed;
    }
    gint src_x = rects.src_x, src_y = rects.src_y, src_w = rects.src_w, src_h = rects.src_h;
    gint dst_x = rects.dst_x, dst_y = rects.dst_y, dst_w = rects.dst_w, dst_h = rects.dst_h;
    dst_x += origin_x;
    dst_y += origin_y;
    if (!inside(src_x, src_y, src_w, src_h, in_w, in_h) || !inside(dst_x, dst_y, dst_w, dst_h, canvas_w, canvas_h)) {
        // Not reached with the clamps above; a converter must never be built from this.
        gchar *detail = g_strdup_printf("source %d,%d %dx%d, picture %d,%d %dx%d: outside the frames", src_x, src_y,
                                        src_w, src_h, dst_x, dst_y, dst_w, dst_h);
        refuse(self, in_w, in_h, canvas_w, canvas_h, detail);
        g_free(detail);
        return FALSE;
    }
    MeScalerGeometry geometry = {canvas_w, canvas_h, in_w, in_h, src_x, src_y, src_w, src_h,
                                 dst_x, dst_y, dst_w, dst_h, GST_CLOCK_TIME_NONE};
    g_mutex_lock(&self->lock);
    self->geometry = geometry;
    g_mutex_unlock(&self->lock);
    gboolean identity = in_w == canvas_w && in_h == canvas_h && in_w == out_w && in_h == out_h && src_x == 0 &&
                        src_y == 0 && src_w == in_w &&
                        src_h == in_h && dst_x == 0 && dst_y == 0 && dst_w == canvas_w && dst_h == canvas_h &&
                        GST_VIDEO_INFO_FORMAT(&self->in_info) == GST_VIDEO_INFO_FORMAT(&self->out_info);
    if (identity) {
        // Nothing to scale: untouched, or overlays blended onto the frame itself.
        gboolean compositing = g_atomic_int_get(&self->compositing) && self->compose;
        gst_base_transform_set_in_place(trans, compositing);
        gst_base_transform_set_passthrough(trans, !compositing);
        return TRUE;
    }
    gst_base_transform_set_in_place(trans, FALSE);
    gst_base_transform_set_passthrough(trans, FALSE);
    // A picture too short to scale field by field (fewer than two rows of some plane in a field)
    // is scaled as a whole: at a few rows, mixing the fields is all there is to see.
    GstVideoInfo in_info = self->in_info, out_info = self->out_info;
    if (interlaced && (!fields_scalable(in_info.finfo, src_h) || !fields_scalable(out_info.finfo, dst_h))) {
        GST_INFO_OBJECT(self, "%d rows from %d rows: too few to scale field by field, scaling the frames whole", dst_h,
                        src_h);
        GST_VIDEO_INFO_INTERLACE_MODE(&in_info) = GST_VIDEO_INTERLACE_MODE_PROGRESSIVE;
        GST_VIDEO_INFO_INTERLACE_MODE(&out_info) = GST_VIDEO_INTERLACE_MODE_PROGRESSIVE;
    }
    GstStructure *config = gst_structure_new(
        "config", GST_VIDEO_CONVERTER_OPT_SRC_X, G_TYPE_INT, src_x, GST_VIDEO_CONVERTER_OPT_SRC_Y, G_TYPE_INT, src_y,
        GST_VIDEO_CONVERTER_OPT_SRC_WIDTH, G_TYPE_INT, src_w, GST_VIDEO_CONVERTER_OPT_SRC_HEIGHT, G_TYPE_INT, src_h,
        GST_VIDEO_CONVERTER_OPT_DEST_X, G_TYPE_INT, dst_x, GST_VIDEO_CONVERTER_OPT_DEST_Y, G_TYPE_INT, dst_y,
        GST_VIDEO_CONVERTER_OPT_DEST_WIDTH, G_TYPE_INT, dst_w, GST_VIDEO_CONVERTER_OPT_DEST_HEIGHT, G_TYPE_INT, dst_h,
        GST_VIDEO_CONVERTER_OPT_FILL_BORDER, G_TYPE_BOOLEAN, TRUE, GST_VIDEO_CONVERTER_OPT_BORDER_ARGB, G_TYPE_UINT,
        background, GST_VIDEO_CONVERTER_OPT_THREADS, G_TYPE_UINT, threads > 0 ? threads : 1, NULL);
    self->converter = gst_video_converter_new(&in_info, &out_info, config);
    if (!self->converter) {
        return refuse(self, in_w, in_h, canvas_w, canvas_h, "GstVideoConverter refused the geometry");
    }
    return TRUE;
}

static void release_copy_pool(MeScaler *self) {
    gst_clear_buffer(&self->copy_source);
    if (self->copy_pool) {
        gst_buffer_pool_set_active(self->copy_pool, FALSE);
        gst_clear_object(&self->copy_pool);
    }
}

static gboolean me_scaler_set_caps(GstBaseTransform *trans, GstCaps *incaps, GstCaps *outcaps) {
    MeScaler *self = (MeScaler *)trans;
    release_copy_pool(self);
    if (!gst_video_info_from_caps(&self->in_info, incaps) || !gst_video_info_from_caps(&self->out_info, outcaps)) {
        return FALSE;
    }
    return me_scaler_configure(self);
}

// Blends one rectangle onto a frame of a format scalerblend.c does not take (RGB, 4:2:2, 4:4:4) with
// gst_video_blend, on a view of just the part of the frame the rectangle covers.
// gst_video_blend unpacks and packs the destination's whole width for every row it touches
// (GStreamer 1.22), so a 320-pixel-wide picture on a 1920-pixel frame cost six times its area;
// and it mishandles rectangles that start above or left of the frame. The view starts on even
// pixels (4:2:0 chroma), and the rectangle is cropped to the frame first.
static void blend_rectangle(GstVideoOverlayRectangle *rectangle, GstVideoFrame *frame) {
    gint x = 0, y = 0;
    guint width = 0, height = 0;
    gst_video_overlay_rectangle_get_render_rectangle(rectangle, &x, &y, &width, &height);
    if (width == 0 || height == 0 || width > G_MAXINT / 2 || height > G_MAXINT / 2 || ABS(x) > G_MAXINT / 2 ||
        ABS(y) > G_MAXINT / 2) {
        return; // nothing to draw, or sums below that would overflow
    }
    gint frame_width = GST_VIDEO_FRAME_WIDTH(frame), frame_height = GST_VIDEO_FRAME_HEIGHT(frame);
    gint left = MAX(0, x) & ~1, top = MAX(0, y) & ~1;
    gint right = MIN(frame_width, x + (gint)width), bottom = MIN(frame_height, y + (gint)height);
    right = MIN(frame_width, right + (right & 1));
    bottom = MIN(frame_height, bottom + (bottom & 1));
    if (right <= left || bottom <= top || right <= x || bottom <= y) {
        return;
    }
    // The rectangle's pixels at its render size, in AYUV for YUV frames and ARGB for RGB ones
    // (GStreamer scales and converts them once and keeps them with the rectangle).
    // GLOBAL_ALPHA: the pixels without the rectangle's opacity, which the blend applies.
    gboolean yuv = GST_VIDEO_INFO_IS_YUV(&frame->info);
    GstVideoOverlayFormatFlags flags = GST_VIDEO_OVERLAY_FORMAT_FLAG_GLOBAL_ALPHA;
    GstBuffer *pixels = yuv ? gst_video_overlay_rectangle_get_pixels_ayuv(rectangle, flags)
                            : gst_video_overlay_rectangle_get_pixels_argb(rectangle, flags);
    GstVideoInfo source_info;
    gst_video_info_set_format(&source_info,
                              yuv ? GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_YUV : GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB,
                              width, height);
    GstVideoMeta *meta = gst_buffer_get_video_meta(pixels);
    if (meta) {
        source_info.stride[0] = meta->stride[0];
        source_info.offset[0] = meta->offset[0];
    }
    gfloat global_alpha = gst_video_overlay_rectangle_get_global_alpha(rectangle);
    GstVideoFrame source;
    if (!gst_video_frame_map(&source, &source_info, pixels, GST_MAP_READ)) {
        return;
    }
    // Crop the source to what lies inside the frame.
    gint skip_columns = MAX(0, left - x), skip_rows = MAX(0, top - y);
    GstVideoFrame cropped = source;
    cropped.data[0] = (guint8 *)source.data[0] + skip_rows * GST_VIDEO_FRAME_PLANE_STRIDE(&source, 0) + skip_columns * 4;
    cropped.info.width = (gint)width - skip_columns;
    cropped.info.height = (gint)height - skip_rows;
    // The frame's view: same planes and strides, starting at (left, top).
    GstVideoFrame view = *frame;
    const GstVideoFormatInfo *format = frame->info.finfo;
    view.info.width = right - left;
    view.info.height = bottom - top;
    for (guint plane = 0; plane < GST_VIDEO_FRAME_N_PLANES(frame); plane++) {
        gint components[GST_VIDEO_MAX_COMPONENTS];
        gst_video_format_info_component(format, plane, components);
        gint component = components[0];
        gint column = GST_VIDEO_SUB_SCALE(GST_VIDEO_FORMAT_INFO_W_SUB(format, component), left);
        gint row = GST_VIDEO_SUB_SCALE(GST_VIDEO_FORMAT_INFO_H_SUB(format, component), top);
        view.data[plane] = (guint8 *)frame->data[plane] + row * GST_VIDEO_FRAME_PLANE_STRIDE(frame, plane) +
                           column * GST_VIDEO_FORMAT_INFO_PSTRIDE(format, component);
    }
    gst_video_blend(&view, &cropped, x + skip_columns - left, y + skip_rows - top, global_alpha);
    gst_video_frame_unmap(&source);
}

// The decoders' 4:2:0 formats go to scalerblend.c (me_blend_420) all rectangles at once, copying
// `source` on the way when there is one; false for other formats.
static gboolean blend_composition_420(GstVideoOverlayComposition *composition, GstVideoFrame *frame,
                                      const GstVideoFrame *source) {
    GstVideoFormat format = GST_VIDEO_FRAME_FORMAT(frame);
    if (format != GST_VIDEO_FORMAT_I420 && format != GST_VIDEO_FORMAT_YV12 && format != GST_VIDEO_FORMAT_NV12 &&
        format != GST_VIDEO_FORMAT_NV21) {
        return FALSE;
    }
    guint count = composition ? gst_video_overlay_composition_n_rectangles(composition) : 0;
    MeBlendSource *sources = g_new0(MeBlendSource, MAX(count, 1));
    guint used = 0;
    for (guint index = 0; index < count; index++) {
        GstVideoOverlayRectangle *rectangle = gst_video_overlay_composition_get_rectangle(composition, index);
        gint x = 0, y = 0;
        guint width = 0, height = 0;
        gst_video_overlay_rectangle_get_render_rectangle(rectangle, &x, &y, &width, &height);
        if (width == 0 || height == 0 || width > G_MAXINT / 8 || height > G_MAXINT / 8) {
            continue;
        }
        // GLOBAL_ALPHA: the pixels without the rectangle's opacity, which the blend applies.
        // Drawn at their own size, the pixels are blended from the overlay's ARGB as they are
        // (scalerblend.c converts them with the planes it makes): GStreamer's conversion to AYUV, made
        // again for every frame of an overlay drawn anew each frame, is the slower way there.
        GstVideoOverlayFormatFlags flags = GST_VIDEO_OVERLAY_FORMAT_FLAG_GLOBAL_ALPHA;
        GstBuffer *pixels = gst_video_overlay_rectangle_get_pixels_unscaled_argb(rectangle, flags);
        GstVideoMeta *meta = pixels ? gst_buffer_get_video_meta(pixels) : NULL;
        gboolean argb = meta && meta->width == width && meta->height == height;
        if (!argb) {
            pixels = gst_video_overlay_rectangle_get_pixels_ayuv(rectangle, flags);
            meta = pixels ? gst_buffer_get_video_meta(pixels) : NULL;
        }
        if (!pixels) {
            continue;
        }
        sources[used++] = (MeBlendSource){pixels,
                                          GST_MINI_OBJECT(rectangle),
                                          argb,
                                          meta ? meta->stride[0] : (gint)width * 4,
                                          (gint)width,
                                          (gint)height,
                                          x,
                                          y,
                                          gst_video_overlay_rectangle_get_global_alpha(rectangle)};
    }
    gboolean done = me_blend_420(frame, source, sources, used);
    g_free(sources);
    return done;
}

// Asks the callback for this frame's overlays and blends them onto `frame`; with a `source`,
// `frame` is first filled with a copy of it.
static void me_scaler_blend(MeScaler *self, GstBuffer *buffer, GstVideoFrame *frame, const GstVideoFrame *source) {
    GstVideoOverlayComposition *composition = NULL;
    if (g_atomic_int_get(&self->compositing) && self->compose) {
        g_mutex_lock(&self->lock);
        MeScalerGeometry geometry = self->geometry;
        g_mutex_unlock(&self->lock);
        GstBaseTransform *trans = GST_BASE_TRANSFORM(self);
        geometry.stream_time = GST_BUFFER_PTS_IS_VALID(buffer)
                                   ? gst_segment_to_stream_time(&trans->segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer))
                                   : GST_CLOCK_TIME_NONE;
        composition = self->compose(&geometry, self->compose_data);
    }
    if (!composition && !source) {
        return;
    }
    if (!blend_composition_420(composition, frame, source)) {
        if (source) {
            gst_video_frame_copy(frame, source);
        }
        for (guint index = 0; composition && index < gst_video_overlay_composition_n_rectangles(composition); index++) {
            blend_rectangle(gst_video_overlay_composition_get_rectangle(composition, index), frame);
        }
    }
    if (composition) {
        gst_video_overlay_composition_unref(composition);
    }
}

// Called for every buffer, pass-through or not: applies a changed mode, colour or compositing.
static void me_scaler_before_transform(GstBaseTransform *trans, GstBuffer *buffer) {
    (void)buffer;
    MeScaler *self = (MeScaler *)trans;
    if (g_atomic_int_get(&self->dirty) && GST_VIDEO_INFO_FORMAT(&self->in_info) != GST_VIDEO_FORMAT_UNKNOWN) {
        me_scaler_configure(self);
    }
}

// Whether the frame can be written where it is. gst_memory_is_writable() answers only whether
// the memory is shared: the decoder's READONLY memories, held by nobody else, pass it, and mapping
// them for writing then makes GStreamer replace each with a fresh copy (a new allocation and its
// page faults for every plane of every frame). A picture the decoder has let go of since is
// claimed instead (releasedpicture.c): written in place, no copy.
static gboolean memories_writable(MeScaler *self, GstBuffer *buffer) {
    if (!gst_buffer_is_writable(buffer)) {
        return FALSE;
    }
    for (guint index = 0; index < gst_buffer_n_memory(buffer); index++) {
        GstMemory *memory = gst_buffer_peek_memory(buffer, index);
        if (!gst_memory_is_writable(memory)) {
            return FALSE;
        }
        if (GST_MEMORY_IS_READONLY(memory)) {
            gboolean claimed = me_picture_buffer_claim(buffer);
            if (claimed) {
                __atomic_fetch_add(&self->frames_claimed, 1, __ATOMIC_RELAXED);
            }
            return claimed;
        }
    }
    return TRUE;
}

// Blending in place needs a frame it may write to. The decoder's pictures are read-only (libav
// still uses them as references), and GStreamer's copy-on-write would allocate fresh memory for
// every plane of every frame (page faults included) and copy it in a pass of its own. Instead the
// frame gets a buffer of a pool of our own, reused frame after frame, which transform_ip fills
// from the picture before it blends.
static GstFlowReturn me_scaler_prepare_output_buffer(GstBaseTransform *trans, GstBuffer *input, GstBuffer **output) {
    MeScaler *self = (MeScaler *)trans;
    GstBaseTransformClass *parent = GST_BASE_TRANSFORM_CLASS(me_scaler_parent_class);
    gst_clear_buffer(&self->copy_source);
    if (!gst_base_transform_is_in_place(trans) || gst_base_transform_is_passthrough(trans) ||
        memories_writable(self, input)) {
        return parent->prepare_output_buffer(trans, input, output);
    }
    __atomic_fetch_add(&self->frames_copied, 1, __ATOMIC_RELAXED);
    if (!self->copy_pool) {
        GstCaps *caps = gst_video_info_to_caps(&self->in_info);
        self->copy_pool = gst_video_buffer_pool_new();
        GstStructure *config = gst_buffer_pool_get_config(self->copy_pool);
        gst_buffer_pool_config_set_params(config, caps, (guint)GST_VIDEO_INFO_SIZE(&self->in_info), 2, 0);
        gst_caps_unref(caps);
        if (!gst_buffer_pool_set_config(self->copy_pool, config) || !gst_buffer_pool_set_active(self->copy_pool, TRUE)) {
            gst_clear_object(&self->copy_pool);
            return parent->prepare_output_buffer(trans, input, output);
        }
    }
    GstBuffer *copy = NULL;
    if (gst_buffer_pool_acquire_buffer(self->copy_pool, &copy, NULL) != GST_FLOW_OK) {
        return parent->prepare_output_buffer(trans, input, output);
    }
    parent->copy_metadata(trans, input, copy);
    self->copy_source = gst_buffer_ref(input);
    *output = copy;
    return GST_FLOW_OK;
}

static gboolean me_scaler_stop(GstBaseTransform *trans) {
    release_copy_pool((MeScaler *)trans);
    return TRUE;
}

static GstFlowReturn me_scaler_transform_ip(GstBaseTransform *trans, GstBuffer *buffer) {
    MeScaler *self = (MeScaler *)trans;
    GstBuffer *copy_source = g_steal_pointer(&self->copy_source);
    GstVideoFrame frame, source;
    if (copy_source && !gst_video_frame_map(&source, &self->in_info, copy_source, GST_MAP_READ)) {
        gst_buffer_unref(copy_source);
        return GST_FLOW_ERROR;
    }
    if (!gst_video_frame_map(&frame, &self->in_info, buffer, copy_source ? GST_MAP_WRITE : GST_MAP_READWRITE)) {
        if (copy_source) {
            gst_video_frame_unmap(&source);
            gst_buffer_unref(copy_source);
        }
        return GST_FLOW_ERROR;
    }
    me_scaler_blend(self, buffer, &frame, copy_source ? &source : NULL);
    gst_video_frame_unmap(&frame);
    if (copy_source) {
        gst_video_frame_unmap(&source);
        gst_buffer_unref(copy_source);
    }
    return GST_FLOW_OK;
}

static GstFlowReturn me_scaler_transform(GstBaseTransform *trans, GstBuffer *inbuf, GstBuffer *outbuf) {
    MeScaler *self = (MeScaler *)trans;
    GstVideoFrame in, out;
    if (!self->converter) {
        return GST_FLOW_NOT_NEGOTIATED;
    }
    if (!gst_video_frame_map(&in, &self->in_info, inbuf, GST_MAP_READ)) {
        return GST_FLOW_ERROR;
    }
    if (!gst_video_frame_map(&out, &self->out_info, outbuf, GST_MAP_WRITE)) {
        gst_video_frame_unmap(&in);
        return GST_FLOW_ERROR;
    }
    gst_video_converter_frame(self->converter, &in, &out);
    me_scaler_blend(self, inbuf, &out, NULL);
    gst_video_frame_unmap(&out);
    gst_video_frame_unmap(&in);
    return GST_FLOW_OK;
}

static gboolean me_scaler_get_unit_size(GstBaseTransform *trans, GstCaps *caps, gsize *size) {
    (void)trans;
    GstVideoInfo info;
    if (!gst_video_info_from_caps(&info, caps)) {
        return FALSE;
    }
    *size = GST_VIDEO_INFO_SIZE(&info);
    return TRUE;
}

static GstCaps *me_scaler_fixate_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps,
                                      GstCaps *othercaps) {
    (void)trans;
    (void)direction;
    (void)caps;
    return gst_caps_fixate(othercaps);
}

static void me_scaler_finalize(GObject *object) {
    MeScaler *self = (MeScaler *)object;
    if (self->converter) {
        gst_video_converter_free(self->converter);
    }
    if (self->compose_destroy) {
        self->compose_destroy(self->compose_data);
    }
    release_copy_pool(self);
    g_mutex_clear(&self->lock);
    G_OBJECT_CLASS(me_scaler_parent_class)->finalize(object);
}

static void me_scaler_class_init(MeScalerClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    GstBaseTransformClass *transform_class = GST_BASE_TRANSFORM_CLASS(klass);
    object_class->set_property = me_scaler_set_property;
    object_class->get_property = me_scaler_get_property;
    object_class->finalize = me_scaler_finalize;
    GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;
    g_object_class_install_property(object_class, PROP_WIDTH,
                                    g_param_spec_uint("width", "Width", "Output width (0: the input's)", 0, G_MAXINT,
                                                      0, flags));
    g_object_class_install_property(object_class, PROP_HEIGHT,
                                    g_param_spec_uint("height", "Height", "Output height (0: the input's)", 0,
                                                      G_MAXINT, 0, flags));
    g_object_class_install_property(object_class, PROP_MODE,
                                    g_param_spec_int("mode", "Mode", "0 none, 1 aspect fit, 2 aspect fill, 3 fill",
                                                     0, 3, 1, flags));
    g_object_class_install_property(
        object_class, PROP_FROM_MODE,
        g_param_spec_int("from-mode", "From mode", "The mode a change of mode animates from (-1: none)", -1, 3, -1,
                         flags));
    g_object_class_install_property(object_class, PROP_PROGRESS,
                                    g_param_spec_uint("progress", "Progress",
                                                      "How far from from-mode to mode, in thousandths", 0, 1000, 1000,
                                                      flags));
    g_object_class_install_property(object_class, PROP_BACKGROUND,
                                    g_param_spec_uint("background", "Background", "Colour of the bars (ARGB)", 0,
                                                      G_MAXUINT32, 0xff000000, flags));
    g_object_class_install_property(object_class, PROP_VIEW_X,
                                    g_param_spec_int("view-x", "View x", "Left of the picture's area", 0, G_MAXINT, 0,
                                                     flags));
    g_object_class_install_property(object_class, PROP_VIEW_Y,
                                    g_param_spec_int("view-y", "View y", "Top of the picture's area", 0, G_MAXINT, 0,
                                                     flags));
    g_object_class_install_property(object_class, PROP_VIEW_WIDTH,
                                    g_param_spec_uint("view-width", "View width", "Width of the picture's area (0: all)",
                                                      0, G_MAXINT, 0, flags));
    g_object_class_install_property(object_class, PROP_VIEW_HEIGHT,
                                    g_param_spec_uint("view-height", "View height",
                                                      "Height of the picture's area (0: all)", 0, G_MAXINT, 0, flags));
    g_object_class_install_property(object_class, PROP_WALL_COLUMNS,
                                    g_param_spec_uint("wall-columns", "Wall columns",
                                                      "Screens across the video wall this output is a tile of (1: no "
                                                      "wall)",
                                                      1, 1024, 1, flags));
    g_object_class_install_property(object_class, PROP_WALL_ROWS,
                                    g_param_spec_uint("wall-rows", "Wall rows",
                                                      "Screens down the video wall this output is a tile of (1: no "
                                                      "wall)",
                                                      1, 1024, 1, flags));
    g_object_class_install_property(object_class, PROP_WALL_COLUMN,
                                    g_param_spec_uint("wall-column", "Wall column",
                                                      "The column of the tile this output shows, from 0 at the left", 0,
                                                      1023, 0, flags));
    g_object_class_install_property(object_class, PROP_WALL_ROW,
                                    g_param_spec_uint("wall-row", "Wall row",
                                                      "The row of the tile this output shows, from 0 at the top", 0,
                                                      1023, 0, flags));
    g_object_class_install_property(object_class, PROP_BEZEL_WIDTH,
                                    g_param_spec_uint("bezel-width", "Bezel width",
                                                      "Pixels of the wall hidden between two columns of screens", 0,
                                                      65535, 0, flags));
    g_object_class_install_property(object_class, PROP_BEZEL_HEIGHT,
                                    g_param_spec_uint("bezel-height", "Bezel height",
                                                      "Pixels of the wall hidden between two rows of screens", 0, 65535,
                                                      0, flags));
    g_object_class_install_property(object_class, PROP_COMPOSITING,
                                    g_param_spec_boolean("compositing", "Compositing",
                                                         "Blend the compose callback's overlays on every frame", FALSE,
                                                         flags));
    GParamFlags counter = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
    g_object_class_install_property(object_class, PROP_FRAMES_COPIED,
                                    g_param_spec_uint64("frames-copied", "Frames copied",
                                                        "Read-only frames copied before overlays were blended", 0,
                                                        G_MAXUINT64, 0, counter));
    g_object_class_install_property(object_class, PROP_FRAMES_CLAIMED,
                                    g_param_spec_uint64("frames-claimed", "Frames claimed",
                                                        "Read-only frames their decoder had let go of, blended in "
                                                        "place without a copy",
                                                        0, G_MAXUINT64, 0, counter));
    g_object_class_install_property(object_class, PROP_N_THREADS,
                                    g_param_spec_uint("n-threads", "Threads", "Threads for scaling", 1, 64, 1,
                                                      flags));
    gst_element_class_add_static_pad_template(element_class, &sink_template);
    gst_element_class_add_static_pad_template(element_class, &src_template);
    gst_element_class_set_static_metadata(element_class, "Media engine scaler", "Filter/Converter/Video/Scaler",
                                          "Fits frames into a fixed size by a scaling mode, with coloured bars",
                                          ME_ELEMENT_AUTHOR);
    transform_class->transform_caps = me_scaler_transform_caps;
    transform_class->fixate_caps = me_scaler_fixate_caps;
    transform_class->set_caps = me_scaler_set_caps;
    transform_class->transform = me_scaler_transform;
    transform_class->transform_ip = me_scaler_transform_ip;
    transform_class->prepare_output_buffer = me_scaler_prepare_output_buffer;
    transform_class->stop = me_scaler_stop;
    transform_class->transform_ip_on_passthrough = FALSE; // a pass-through leaves frames alone
    transform_class->before_transform = me_scaler_before_transform;
    transform_class->get_unit_size = me_scaler_get_unit_size;
    transform_class->passthrough_on_same_caps = FALSE;
}

static void me_scaler_init(MeScaler *self) {
    g_mutex_init(&self->lock);
    self->mode = 1;
    self->from_mode = -1;
    self->progress = 1000;
    self->background = 0xff000000;
    self->n_threads = 1;
    self->wall_columns = 1;
    self->wall_rows = 1;
}

GType me_scaler_get_type_public(void) { return me_scaler_get_type(); }

void me_scaler_set_compositor(GstElement *scaler, me_compose_callback compose, gpointer user_data,
                              GDestroyNotify destroy) {
    MeScaler *self = (MeScaler *)scaler;
    g_return_if_fail(self->compose == NULL);
    self->compose = compose;
    self->compose_data = user_data;
    self->compose_destroy = destroy;
}

gboolean me_scaler_geometry(GstElement *scaler, MeScalerGeometry *geometry) {
    MeScaler *self = (MeScaler *)scaler;
    g_mutex_lock(&self->lock);
    *geometry = self->geometry;
    g_mutex_unlock(&self->lock);
    return geometry->canvas_width > 0;
}
