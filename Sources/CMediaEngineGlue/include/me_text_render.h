// Text to pixels for text overlays, subtitles, captions and the on-screen controls (textrender.c).
#pragma once
#include <stdint.h>

// Text to pixels for text overlays, subtitles, captions and the on-screen controls. The engine's
// renderer (Pango and cairo) lives in the CMediaEngineTextRender target, which installs itself here from a
// constructor when it is linked (the MediaEngine product); the core alone has none.

/// How to draw a piece of text. Colours are 0xRRGGBBAA.
typedef struct {
    const char *text;        // UTF-8
    int markup;              // text is Pango markup
    const char *font;        // Pango font description ("Sans Bold 24")
    uint32_t color;
    uint32_t outline_color;
    double outline_width;    // pixels; 0: none
    uint32_t shadow_color;
    double shadow_dx, shadow_dy; // pixels; both 0: no shadow
    uint32_t background;     // behind the text box; alpha 0: none
    int alignment;           // 0 left, 1 centre, 2 right (lines relative to each other)
    int wrap_width;          // pixels; 0: no wrapping
    int padding;             // pixels around the text
} MeTextStyle;
/// A text renderer: as me_text_render, its results allocated with malloc.
typedef uint8_t *(*me_text_renderer)(const MeTextStyle *style, int *width, int *height, char **error);
/// Installs the text renderer (once, before main: from the CMediaEngineTextRender target's constructor).
void me_text_renderer_install(me_text_renderer renderer);
/// Draws `style->text`. On success returns width*height*4 bytes of RGBA (free with
/// me_text_free) and sets the size; on failure returns NULL and sets `error` (free with
/// me_text_free) to what went wrong, "no text renderer" included.
uint8_t *me_text_render(const MeTextStyle *style, int *width, int *height, char **error);
void me_text_free(void *pointer);
