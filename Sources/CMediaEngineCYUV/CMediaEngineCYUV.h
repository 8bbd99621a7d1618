// libyuv (Debian's libyuv-dev): SIMD colour conversion and scaling, used for the frames sink's
// RGBA and BGRA output. Includes only.
#pragma once
#include <libyuv.h>
