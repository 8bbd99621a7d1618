// A movie withdrawn from a player's queue after playbin took it (groupwithdrawal.c): its pictures
// and sound are dropped at playsink, by its stream group's number.
#pragma once
#include <gst/gst.h>

/// The withdrawal on one playbin's playsink; lives as long as the playbin. Every function takes
/// NULL (nothing is dropped).
typedef struct MeGroupWithdrawal MeGroupWithdrawal;
/// Installs it; NULL when the playbin has no playsink.
MeGroupWithdrawal *me_group_withdrawal_install(GstElement *playbin);
/// A movie handed to playbin was withdrawn: the buffers of stream group number `from_group`
/// (counted from 1 since the install or the last restart) and of every later group are dropped at
/// playsink, at once if that group has started; 0 withdraws nothing.
void me_group_withdrawal_withdraw(MeGroupWithdrawal *withdrawal, guint from_group);
/// The pipeline's streams were stopped for another movie: nothing is withdrawn, and groups are
/// counted again from the next one.
void me_group_withdrawal_restart(MeGroupWithdrawal *withdrawal);
