// A playback group's clock over the network: the time source's provider and the members' client
// clocks (GStreamer's libgstnet), and a watch of a client clock's observations that tells when
// the source stops answering (the client clock itself only stops updating: it runs on its last
// calibration and says nothing).
#include "me_net_clock.h"
#include <arpa/inet.h>
#include <errno.h>
#include <gio/gio.h>
#include <gst/net/net.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void *me_group_clock_new(void) {
    GstClock *clock = g_object_new(GST_TYPE_SYSTEM_CLOCK, "name", "me-group-clock", "clock-type",
                                   GST_CLOCK_TYPE_MONOTONIC, NULL);
    gst_object_ref_sink(clock);
    return clock;
}

// Binds a UDP socket to the port without SO_REUSEADDR or SO_REUSEPORT: fails when anything holds
// it. errno on failure.
static int udp_port_free(const char *address, int port) {
    if (port == 0) return 0;
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) return errno;
    struct sockaddr_in in = {0};
    in.sin_family = AF_INET;
    in.sin_port = htons((guint16)port);
    in.sin_addr.s_addr = htonl(INADDR_ANY);
    if (address != NULL && inet_pton(AF_INET, address, &in.sin_addr) != 1) {
        close(fd);
        return EINVAL;
    }
    int result = bind(fd, (struct sockaddr *)&in, sizeof in) == 0 ? 0 : errno;
    close(fd);
    return result;
}

void *me_time_provider_new(void *clock, const char *address, int port, int *bound_port, int *error_code,
                           char **message) {
    *bound_port = 0;
    *error_code = 0;
    *message = NULL;
    int taken = udp_port_free(address, port);
    if (taken != 0) {
        *error_code = taken == EADDRINUSE ? G_IO_ERROR_ADDRESS_IN_USE : -1;
        *message = g_strdup_printf("UDP port %d: %s", port, g_strerror(taken));
        return NULL;
    }
    GError *error = NULL;
    // gst_net_time_provider_new drops the bind's error: the initable is made here to keep it.
    GstNetTimeProvider *provider = g_initable_new(GST_TYPE_NET_TIME_PROVIDER, NULL, &error, "clock",
                                                  GST_CLOCK(clock), "address", address, "port", port, NULL);
    if (provider == NULL) {
        *error_code = error != NULL && error->domain == G_IO_ERROR ? error->code : -1;
        *message = g_strdup(error != NULL ? error->message : "the time provider could not start");
        g_clear_error(&error);
        return NULL;
    }
    g_object_ref_sink(provider);
    gint bound = 0;
    g_object_get(provider, "port", &bound, NULL);
    *bound_port = bound;
    return provider;
}

void me_time_provider_set_active(void *provider, int active) {
    g_object_set(provider, "active", (gboolean)(active != 0), NULL);
}

void me_time_provider_free(void *provider) {
    gst_object_unref(provider);
}

void *me_net_client_clock_new(const char *host, int port, uint64_t poll_interval) {
    GstClock *clock = gst_net_client_clock_new("me-group-clock", host, port, 0);
    if (clock != NULL && poll_interval > 0) {
        GstClock *internal = NULL;
        g_object_get(clock, "internal-clock", &internal, NULL);
        if (internal != NULL) {
            gst_clock_set_timeout(internal, poll_interval);
            gst_object_unref(internal);
        }
    }
    return clock;
}

struct MeClockWatch {
    GstClock *client;
    GstBus *bus;
    gint stopped; // atomic
};

MeClockWatch *me_clock_watch_new(void *client) {
    MeClockWatch *watch = g_new0(MeClockWatch, 1);
    watch->client = gst_object_ref(GST_CLOCK(client));
    watch->bus = gst_bus_new();
    g_object_set(client, "bus", watch->bus, NULL);
    return watch;
}

int me_clock_watch_next(MeClockWatch *watch, uint64_t timeout, MeClockObservation *observation) {
    if (g_atomic_int_get(&watch->stopped)) return -1;
    GstMessage *message = gst_bus_timed_pop_filtered(watch->bus, timeout, GST_MESSAGE_ELEMENT | GST_MESSAGE_APPLICATION);
    if (message == NULL) return 0;
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_APPLICATION) {
        gst_message_unref(message);
        return -1;
    }
    const GstStructure *stats = gst_message_get_structure(message);
    memset(observation, 0, sizeof *observation);
    if (stats != NULL && gst_structure_has_name(stats, "gst-netclock-statistics")) {
        gboolean synchronised = FALSE;
        guint64 round_trip = 0;
        gint64 discontinuity = 0;
        gst_structure_get_boolean(stats, "synchronised", &synchronised);
        gst_structure_get_uint64(stats, "rtt", &round_trip);
        gst_structure_get_int64(stats, "discontinuity", &discontinuity);
        observation->synchronised = synchronised;
        observation->round_trip = round_trip;
        observation->discontinuity = discontinuity;
    }
    gst_message_unref(message);
    return 1;
}

void me_clock_watch_stop(MeClockWatch *watch) {
    g_atomic_int_set(&watch->stopped, 1);
    gst_bus_post(watch->bus, gst_message_new_application(NULL, gst_structure_new_empty("me-clock-watch-stop")));
}

void me_clock_watch_free(MeClockWatch *watch) {
    g_object_set(watch->client, "bus", NULL, NULL);
    gst_object_unref(watch->client);
    gst_object_unref(watch->bus);
    g_free(watch);
}
