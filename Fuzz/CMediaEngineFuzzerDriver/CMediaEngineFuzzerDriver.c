// Empty: SwiftPM needs a source file for a C target; the header is the whole shim.
#include "CMediaEngineFuzzerDriver.h"
