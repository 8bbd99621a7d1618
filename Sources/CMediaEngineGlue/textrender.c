// The text renderer the engine's text overlays go through: the CMediaEngineTextRender target's (Pango and
// cairo), installed from its constructor when it is linked (the MediaEngine product), or none
// (MediaEngineCore alone), which is an error for each text to draw.
#include "me_text_render.h"
#include <glib.h>
#include <stdlib.h>
#include <string.h>

// Written once, before main (a constructor), read from any thread after.
static gpointer installed;

void me_text_renderer_install(me_text_renderer renderer) { g_atomic_pointer_set(&installed, (gpointer)renderer); }

uint8_t *me_text_render(const MeTextStyle *style, int *width, int *height, char **error) {
    me_text_renderer renderer = (me_text_renderer)g_atomic_pointer_get(&installed);
    if (!renderer) {
        *error = strdup("no text renderer is linked: MediaEngineCore alone draws no text; link the MediaEngine "
                        "product (or the CMediaEngineTextRender target)");
        return NULL;
    }
    return renderer(style, width, height, error);
}

void me_text_free(void *pointer) { free(pointer); }
