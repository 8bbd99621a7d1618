// The engine's libavcodec decoders (meh264dec, meh265dec; libavdecoder.c), which hand libavcodec's
// pictures downstream without a copy. The only target that links libavcodec and libavutil; it
// installs its decoders in the core (me_decoders_install) from a constructor, so linking it is all
// it takes: they are then registered with the engine's other elements.
#pragma once
#include "me_decoders.h"
#include "me_elements.h"
#include "me_released_picture.h"
#include <gst/video/video.h>

/// What the engine's libav decoders skip decoding (libavcodec's `skip_frame`).
typedef enum {
    ME_SKIP_NOTHING = 0,
    ME_SKIP_UNREFERENCED = 1, // pictures no other picture refers to
    ME_SKIP_ALL_BUT_KEYFRAMES = 2,
} MeSkip;

/// The decoders' quality-of-service policy (libavdecoder.c), alone so that it is unit-tested: what
/// to skip from the next picture on, given what is skipped now (`current`), the segment's trick
/// mode (keyframes only, or any other), the time left to decode the picture before it is too
/// late to show (`left`, nanoseconds, negative when late; G_MAXINT64 when downstream has said
/// nothing), and whether the picture is a keyframe. `far_behind` counts the pictures in a row
/// found far behind; the policy keeps it (start it at 0, and at 0 again after a flush).
MeSkip me_libav_skip_policy(MeSkip current, gboolean key_units_trick_mode, gboolean trick_mode, gint64 left,
                            gboolean keyframe, guint *far_behind);

/// Registers the libav decoders in `plugin` (a me_decoder_registrar): at the rank `rank` gives
/// them when `ranked` (a loadable plugin), or at NONE with that rank kept as the engine's
/// preference (me_decoder_preference_record).
gboolean me_register_libav_decoders(GstPlugin *plugin, me_decoder_rank_callback rank, gboolean ranked);
