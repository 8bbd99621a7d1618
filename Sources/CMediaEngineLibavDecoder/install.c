// Installs the libav decoders in the core when this target is linked: a constructor, since a Swift
// app has no static initializers to do it from; it runs before main (or when the loadable plugin
// is opened), before the engine registers its elements.
#include "CMediaEngineLibavDecoder.h"

__attribute__((constructor)) static void install_libav_decoders(void) {
    me_decoders_install(me_register_libav_decoders);
}
