// Why this shim exists: libFuzzer's driver entry point has no Swift declaration. SwiftPM links
// an executable's `main` to its Swift entry point (`--defsym main=<Target>_main`), so libFuzzer's
// own `main` cannot be used; the fuzz targets keep a Swift `@main` and call this driver from it
// when built for fuzzing (`make fuzz`: `-sanitize=fuzzer,address -DFUZZING`). Only declared here:
// nothing references it in a normal build, which does not link libFuzzer.
#ifndef C_FUZZER_DRIVER_H
#define C_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt FuzzerDriver.cpp): parses libFuzzer's flags from argv and
/// runs `callback` on each input; returns the process's exit status.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
