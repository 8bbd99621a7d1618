// Text to pixels for the engine's text overlays, subtitles, captions and controls: one Pango
// layout drawn by cairo, with an outline and a shadow, into straight-alpha RGBA (text.c). The only
// target that links Pango and cairo; it installs itself in the core (me_text_renderer_install)
// from a constructor, so linking it is all it takes.
#pragma once
#include "me_text_render.h"
