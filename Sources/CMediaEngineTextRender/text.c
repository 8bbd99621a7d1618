// Renders text with Pango into a cairo ARGB32 surface (premultiplied, native-endian), then
// hands it over as straight-alpha RGBA. Pango and cairo are thread-safe for separate objects;
// each call makes its own font map context, layout and surface.
#include "CMediaEngineTextRender.h"
#include <pango/pangocairo.h>
#include <stdlib.h>
#include <string.h>

static void set_color(cairo_t *cr, uint32_t rgba) {
    cairo_set_source_rgba(cr, ((rgba >> 24) & 0xff) / 255.0, ((rgba >> 16) & 0xff) / 255.0,
                          ((rgba >> 8) & 0xff) / 255.0, (rgba & 0xff) / 255.0);
}

static PangoLayout *make_layout(PangoContext *context, const MeTextStyle *style, char **error) {
    PangoLayout *layout = pango_layout_new(context);
    PangoFontDescription *font = pango_font_description_from_string(style->font);
    pango_layout_set_font_description(layout, font);
    pango_font_description_free(font);
    if (style->markup) {
        GError *markup_error = NULL;
        if (!pango_parse_markup(style->text, -1, 0, NULL, NULL, NULL, &markup_error)) {
            *error = strdup(markup_error ? markup_error->message : "invalid markup");
            if (markup_error) g_error_free(markup_error);
            g_object_unref(layout);
            return NULL;
        }
        pango_layout_set_markup(layout, style->text, -1);
    } else {
        pango_layout_set_text(layout, style->text, -1);
    }
    pango_layout_set_alignment(layout, style->alignment == 1   ? PANGO_ALIGN_CENTER
                                       : style->alignment == 2 ? PANGO_ALIGN_RIGHT
                                                               : PANGO_ALIGN_LEFT);
    if (style->wrap_width > 0) {
        pango_layout_set_width(layout, style->wrap_width * PANGO_SCALE);
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    }
    return layout;
}

static uint8_t *pango_text_render(const MeTextStyle *style, int *width, int *height, char **error) {
    *error = NULL;
    if (!g_utf8_validate(style->text, -1, NULL)) {
        *error = strdup("the text is not valid UTF-8");
        return NULL;
    }
    PangoFontMap *fonts = pango_cairo_font_map_get_default();
    PangoContext *context = pango_font_map_create_context(fonts);
    PangoLayout *layout = make_layout(context, style, error);
    if (!layout) {
        g_object_unref(context);
        return NULL;
    }
    PangoRectangle ink, logical;
    pango_layout_get_pixel_extents(layout, &ink, &logical);
    double outline = style->outline_width > 0 ? style->outline_width : 0;
    double shadow_x = style->shadow_dx, shadow_y = style->shadow_dy;
    int margin = style->padding + (int)(outline + 1.0);
    int left = margin + (shadow_x < 0 ? (int)(-shadow_x + 0.5) : 0);
    int top = margin + (shadow_y < 0 ? (int)(-shadow_y + 0.5) : 0);
    int w = logical.width + 2 * margin + (int)(shadow_x < 0 ? -shadow_x + 0.5 : shadow_x + 0.5);
    int h = logical.height + 2 * margin + (int)(shadow_y < 0 ? -shadow_y + 0.5 : shadow_y + 0.5);
    if (logical.width <= 0 || logical.height <= 0) {
        w = h = 1; // nothing to draw (empty text): one transparent pixel
    }
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        *error = strdup(cairo_status_to_string(cairo_surface_status(surface)));
        cairo_surface_destroy(surface);
        g_object_unref(layout);
        g_object_unref(context);
        return NULL;
    }
    cairo_t *cr = cairo_create(surface);
    if ((style->background & 0xff) != 0) {
        set_color(cr, style->background);
        cairo_paint(cr);
    }
    double x = left - logical.x, y = top - logical.y;
    if (shadow_x != 0 || shadow_y != 0) {
        cairo_move_to(cr, x + shadow_x, y + shadow_y);
        set_color(cr, style->shadow_color);
        pango_cairo_show_layout(cr, layout);
    }
    if (outline > 0) {
        cairo_move_to(cr, x, y);
        pango_cairo_layout_path(cr, layout);
        set_color(cr, style->outline_color);
        cairo_set_line_width(cr, outline * 2); // half of the stroke lies under the glyphs
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
        cairo_stroke(cr);
    }
    cairo_move_to(cr, x, y);
    set_color(cr, style->color);
    pango_cairo_show_layout(cr, layout);
    cairo_destroy(cr);
    cairo_surface_flush(surface);

    // Premultiplied native-endian ARGB words to straight RGBA bytes.
    uint8_t *rgba = malloc((size_t)w * h * 4);
    const uint8_t *data = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    for (int row = 0; row < h; row++) {
        const uint32_t *source = (const uint32_t *)(data + (size_t)row * stride);
        uint8_t *target = rgba + (size_t)row * w * 4;
        for (int column = 0; column < w; column++) {
            uint32_t pixel = source[column];
            uint32_t a = pixel >> 24;
            uint32_t r = (pixel >> 16) & 0xff, g = (pixel >> 8) & 0xff, b = pixel & 0xff;
            if (a != 0 && a != 255) {
                r = (r * 255 + a / 2) / a;
                g = (g * 255 + a / 2) / a;
                b = (b * 255 + a / 2) / a;
            }
            target[column * 4] = (uint8_t)(r > 255 ? 255 : r);
            target[column * 4 + 1] = (uint8_t)(g > 255 ? 255 : g);
            target[column * 4 + 2] = (uint8_t)(b > 255 ? 255 : b);
            target[column * 4 + 3] = (uint8_t)a;
        }
    }
    cairo_surface_destroy(surface);
    g_object_unref(layout);
    g_object_unref(context);
    *width = w;
    *height = h;
    return rgba;
}

// Installs this renderer in the core when this target is linked: a constructor, since a Swift app
// has no static initializers to do it from, and it runs before main, before any thread.
__attribute__((constructor)) static void install_pango_text_renderer(void) {
    me_text_renderer_install(pango_text_render);
}
