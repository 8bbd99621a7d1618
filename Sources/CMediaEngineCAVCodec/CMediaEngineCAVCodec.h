// libavcodec (Debian's libavcodec-dev): the engine's own H.264 decoder element (h264decoder.c)
// decodes with it and hands its frames downstream without copying them. Includes only.
#pragma once
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
#include <libavutil/pixfmt.h>
#include <libavutil/pixdesc.h>
