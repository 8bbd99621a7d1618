// Pango and cairo, which draw the engine's text overlays (Debian: libpango1.0-dev, libcairo2-dev).
#include <pango/pangocairo.h>
