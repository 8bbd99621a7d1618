// libyuv's conversion tables, which are C globals Swift must not copy (yuv.c).
#pragma once
#include <glib.h>

struct YuvConstants;
/// libyuv's YUV-to-RGB tables by matrix (0: BT.601, 1: BT.601 full range, 2: BT.709,
/// 3: BT.709 full range, 4: BT.2020), with U and V swapped (`swapped`) for RGBA output.
/// They are 32-byte aligned for AVX2 loads, so Swift must use these pointers, never copies.
const struct YuvConstants *me_yuv_constants(int matrix, gboolean swapped);
