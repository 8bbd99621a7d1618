// A playback group's clock over the network, with GStreamer's network library (libgstnet): the
// time source publishes its clock (GstNetTimeProvider, UDP), the other members follow it
// (GstNetClientClock). This target is the only one that links libgstnet; the core takes the
// clocks it makes as plain GstClocks (PlaybackClock) and gives them to pipelines.
//
// Clocks and providers are passed as `void *` (a GstClock *, a GstObject *), so that Swift needs
// none of GStreamer's types to hold them; each function says which it takes.
#pragma once
#include <stdint.h>

/// A clock of its own for a group's time source: a new GstSystemClock (monotonic), not the
/// process's shared system clock, so that what the group does to it is the group's alone.
void *me_group_clock_new(void);

/// Publishes `clock` with a GstNetTimeProvider on UDP `address`:`port` (`port` 0 picks a free
/// one; `address` NULL: every IPv4 address). Returns the provider (transfer full), with the port
/// it listens on in `*bound_port`; NULL on failure, with GIO's error code in `*error_code` (-1 for
/// another failure) and its message in `*message` (g_free it).
///
/// GstNetTimeProvider binds with SO_REUSEADDR and SO_REUSEPORT (g_socket_bind's allow_reuse), so
/// a second provider on a port another one uses would bind too and share its packets: the port
/// is first bound here without either, which fails with G_IO_ERROR_ADDRESS_IN_USE when anything
/// holds it.
void *me_time_provider_new(void *clock, const char *address, int port, int *bound_port, int *error_code,
                           char **message);

/// Answers clients (1, as made) or not (0): the provider's `active` property.
void me_time_provider_set_active(void *provider, int active);

/// Stops the provider and drops the reference me_time_provider_new returned.
void me_time_provider_free(void *provider);

/// A network client clock following the time provider at `host`:`port` (transfer full, a
/// GstClock *; NULL when it could not be made), its
/// GstClock polled at least every `poll_interval` (the internal clock's `timeout`; 0 keeps
/// GStreamer's 1 s). It starts unsynced, at time 0.
void *me_net_client_clock_new(const char *host, int port, uint64_t poll_interval);

/// One answer of the time source, as the client clock observed it (its statistics message).
typedef struct {
    /// The observation fell within the clock's own estimate: the clock is in step.
    int synchronised;
    /// The round trip of the request, in nanoseconds.
    uint64_t round_trip;
    /// The clock's correction at that observation (remote minus local estimate), nanoseconds.
    int64_t discontinuity;
} MeClockObservation;

/// Watches a client clock's observations (its `bus`).
typedef struct MeClockWatch MeClockWatch;

/// Starts watching `client`, a clock made by me_net_client_clock_new.
MeClockWatch *me_clock_watch_new(void *client);

/// Waits up to `timeout` for the client clock's next observation: 1 with it in `*observation`,
/// 0 when none came in time (the time source did not answer, or its answers were dropped as
/// unusable), -1 once me_clock_watch_stop was called.
int me_clock_watch_next(MeClockWatch *watch, uint64_t timeout, MeClockObservation *observation);

/// Makes a waiting (and any later) me_clock_watch_next return -1 at once. Any thread.
void me_clock_watch_stop(MeClockWatch *watch);

/// Stops watching and frees the watch (after its waiter has returned).
void me_clock_watch_free(MeClockWatch *watch);
