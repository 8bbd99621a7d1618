// libyuv's conversion tables by matrix (me_yuv.h).
#include "me_yuv.h"
#include <libyuv.h>

const struct YuvConstants *me_yuv_constants(int matrix, gboolean swapped) {
    switch (matrix) {
    case 1: return swapped ? &kYvuJPEGConstants : &kYuvJPEGConstants;
    case 2: return swapped ? &kYvuH709Constants : &kYuvH709Constants;
    case 3: return swapped ? &kYvuF709Constants : &kYuvF709Constants;
    case 4: return swapped ? &kYvu2020Constants : &kYuv2020Constants;
    default: return swapped ? &kYvuI601Constants : &kYuvI601Constants;
    }
}
