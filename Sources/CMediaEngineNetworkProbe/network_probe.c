#include "me_network_probe.h"

#include <gio/gio.h>
#include <string.h>

typedef struct {
    GTlsDatabase *database;
    int strict;
    GTlsCertificateFlags refused;
} ProbeTLS;

static gboolean accept_certificate(GTlsConnection *connection, GTlsCertificate *certificate,
                                   GTlsCertificateFlags errors, gpointer data) {
    (void)connection;
    (void)certificate;
    ProbeTLS *tls = data;
    if (!tls->strict) return TRUE;
    tls->refused = errors;
    return FALSE;
}

static void on_event(GSocketClient *client, GSocketClientEvent event, GSocketConnectable *connectable,
                     GIOStream *connection, gpointer data) {
    (void)client;
    (void)connectable;
    ProbeTLS *tls = data;
    if (event != G_SOCKET_CLIENT_TLS_HANDSHAKING || !G_IS_TLS_CLIENT_CONNECTION(connection)) return;
    if (tls->database) g_tls_connection_set_database(G_TLS_CONNECTION(connection), tls->database);
    g_signal_connect(connection, "accept-certificate", G_CALLBACK(accept_certificate), tls);
}

static char *describe_certificate(GTlsCertificateFlags flags) {
    GString *text = g_string_new("the server's certificate ");
    const char *separator = "";
    struct { GTlsCertificateFlags flag; const char *words; } reasons[] = {
        {G_TLS_CERTIFICATE_UNKNOWN_CA, "comes from an authority that is not trusted"},
        {G_TLS_CERTIFICATE_BAD_IDENTITY, "is for another host name"},
        {G_TLS_CERTIFICATE_NOT_ACTIVATED, "is not valid yet"},
        {G_TLS_CERTIFICATE_EXPIRED, "has expired"},
        {G_TLS_CERTIFICATE_REVOKED, "was revoked"},
        {G_TLS_CERTIFICATE_INSECURE, "uses an insecure algorithm"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(reasons); i++) {
        if (!(flags & reasons[i].flag)) continue;
        g_string_append_printf(text, "%s%s", separator, reasons[i].words);
        separator = " and ";
    }
    if (*separator == '\0') g_string_append(text, "was refused");
    return g_string_free(text, FALSE);
}

/// Sends a HEAD request for `path` and waits up to `seconds` for the first byte of an answer.
/// FALSE when none comes in time.
static gboolean answers(GSocketConnection *connection, const char *host, const char *path, unsigned seconds) {
    g_socket_set_timeout(g_socket_connection_get_socket(connection), seconds);
    gchar *request = g_strdup_printf("HEAD %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, host);
    GOutputStream *output = g_io_stream_get_output_stream(G_IO_STREAM(connection));
    gboolean sent = g_output_stream_write_all(output, request, strlen(request), NULL, NULL, NULL);
    g_free(request);
    if (!sent) return TRUE;  // a write error is not a silence
    char byte;
    GError *error = NULL;
    GInputStream *input = g_io_stream_get_input_stream(G_IO_STREAM(connection));
    gssize got = g_input_stream_read(input, &byte, 1, NULL, &error);
    gboolean timed_out = got < 0 && g_error_matches(error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
    if (error) g_error_free(error);
    return !timed_out;
}

MeProbeResult me_probe_connection(const char *host, int port, int tls, const char *ca_file, int strict,
                                  unsigned timeout_seconds, unsigned answer_seconds, const char *path, char **detail) {
    *detail = NULL;
    ProbeTLS state = {NULL, strict, 0};
    GError *error = NULL;
    if (tls && ca_file) {
        state.database = g_tls_file_database_new(ca_file, &error);
        if (!state.database) {
            *detail = g_strdup_printf("the trusted authorities file cannot be read: %s", error->message);
            g_error_free(error);
            return ME_PROBE_TLS_FAILED;
        }
    }
    GSocketClient *client = g_socket_client_new();
    g_socket_client_set_timeout(client, timeout_seconds);
    g_socket_client_set_tls(client, tls ? TRUE : FALSE);
    g_signal_connect(client, "event", G_CALLBACK(on_event), &state);
    GSocketConnection *connection = g_socket_client_connect_to_host(client, host, (guint16)port, NULL, &error);
    MeProbeResult result = ME_PROBE_CONNECTED;
    if (connection) {
        if (path && !answers(connection, host, path, answer_seconds)) {
            result = ME_PROBE_TIMED_OUT;
            *detail = g_strdup_printf("the server accepted the connection but sent nothing (a HEAD request asked again "
                                      "and waited %u s)", answer_seconds);
        }
        g_io_stream_close(G_IO_STREAM(connection), NULL, NULL);
        g_object_unref(connection);
    } else if (state.refused) {
        result = ME_PROBE_TLS_FAILED;
        *detail = describe_certificate(state.refused);
    } else if (error && error->domain == G_RESOLVER_ERROR) {
        result = ME_PROBE_HOST_NOT_FOUND;
    } else if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED)) {
        result = ME_PROBE_REFUSED;
    } else if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT)) {
        result = ME_PROBE_TIMED_OUT;
    } else if (error && error->domain == G_TLS_ERROR) {
        result = ME_PROBE_TLS_FAILED;
    } else {
        result = ME_PROBE_FAILED;
    }
    if (error) {
        if (!*detail) *detail = g_strdup(error->message);
        g_error_free(error);
    }
    g_signal_handlers_disconnect_by_data(client, &state);
    g_object_unref(client);
    if (state.database) g_object_unref(state.database);
    return result;
}

void me_probe_free_detail(char *detail) { g_free(detail); }

int me_set_tls_authorities(void *element, const char *ca_file, char **error) {
    *error = NULL;
    if (!g_object_class_find_property(G_OBJECT_GET_CLASS(element), "tls-database")) return 1;
    GError *failure = NULL;
    GTlsDatabase *database = g_tls_file_database_new(ca_file, &failure);
    if (!database) {
        *error = g_strdup(failure->message);
        g_error_free(failure);
        return 0;
    }
    g_object_set(element, "tls-database", database, NULL);
    g_object_unref(database);
    return 1;
}
