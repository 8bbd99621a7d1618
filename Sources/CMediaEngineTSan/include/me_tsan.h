// CMediaEngineTSan declares nothing: tsan.c defines GLib's lock functions over GLib's own, for
// ThreadSanitizer's view of them, and only in a build instrumented for TSan (`make tsan`); in any
// other build the target is empty. It exists so that it links into everything that links the
// core (MediaEngineCore depends on it), where the dynamic linker prefers an executable's symbols.
#pragma once
