// Workaround "gapless-eos" (gaplesseos.c): lets playbin's gapless hand-over work for movies with
// several streams by dropping a stream's EOS at playsink while another stream runs and a next
// movie may follow, where playbin's stream synchronizer would hold it and deadlock the switch.
#pragma once
#include <gst/gst.h>

/// The gate on one playbin's playsink; lives as long as the playbin. Every function takes NULL
/// (no gate: hand-overs are never refused).
typedef struct MeGaplessGate MeGaplessGate;
/// Installs the gate; NULL when the playbin has no playsink.
MeGaplessGate *me_gapless_gate_install(GstElement *playbin);
/// Whether a next movie is queued (the gate may then drop an EOS).
void me_gapless_gate_set_next_queued(MeGaplessGate *gate, gboolean queued);
/// At about-to-finish: whether a hand-over may start (FALSE when an EOS already went through to
/// the stream synchronizer in this movie); if so, EOS keep being dropped until it is done.
gboolean me_gapless_gate_begin_hand_over(MeGaplessGate *gate);
/// At about-to-finish, when nothing is handed over after all: the dropped EOS are sent again.
void me_gapless_gate_cancel_hand_over(MeGaplessGate *gate);
