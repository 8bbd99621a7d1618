// Registers HTTPStreamSource in the core's source registry when the HTTPStreamSource product is
// linked: a constructor, since a Swift library has no static initializers to do it from, and it
// runs before main, before any thread. The function is HTTPStreamSource's
// (HTTPStreamSource+Registration.swift).
#include "CMediaEngineHTTPStreamSourceInstall.h"

extern void me_http_stream_source_register(void);

__attribute__((constructor)) static void install_http_stream_source(void) { me_http_stream_source_register(); }
