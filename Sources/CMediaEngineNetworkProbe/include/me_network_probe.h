#ifndef ME_NETWORK_PROBE_H
#define ME_NETWORK_PROBE_H

// Why a connection to an HTTP server fails. souphttpsrc (GStreamer 1.22) reports a failed
// connection as a bare "Internal data stream error": libsoup's reason (an unknown host, a
// refused port, a certificate from an unknown authority) only reaches GStreamer's debug log.
// This probe makes the same connection with the same stack (GIO's resolver, sockets and TLS
// through glib-networking, which libsoup uses) and says what went wrong.

typedef enum {
    ME_PROBE_CONNECTED = 0,
    ME_PROBE_HOST_NOT_FOUND,
    ME_PROBE_REFUSED,
    ME_PROBE_TIMED_OUT,
    ME_PROBE_TLS_FAILED,
    ME_PROBE_FAILED,
} MeProbeResult;

/// Connects to host:port (with a TLS handshake when `tls`), within `timeout_seconds`; with a
/// `path`, asks for it (HEAD) and waits `answer_seconds` for the first byte of an answer (none:
/// ME_PROBE_TIMED_OUT); then disconnects. `ca_file` (may be NULL) replaces the system's trusted
/// authorities; `strict` = 0 accepts any certificate. On failure `*detail` gets a newly allocated
/// sentence (g_free it). Blocks the calling thread: call it from a thread of your own.
MeProbeResult me_probe_connection(
    const char *host, int port, int tls, const char *ca_file, int strict, unsigned timeout_seconds,
    unsigned answer_seconds, const char *path, char **detail);

/// Sets an HTTP source element's `tls-database` to the authorities in `ca_file` (PEM), when the
/// element has that property (souphttpsrc with libsoup 3 ignores `ssl-ca-file`). Returns 0 with
/// `*error` set (g_free it) when the file cannot be read, 1 otherwise.
int me_set_tls_authorities(void *element, const char *ca_file, char **error);

/// Frees a detail sentence of me_probe_connection.
void me_probe_free_detail(char *detail);

#endif
