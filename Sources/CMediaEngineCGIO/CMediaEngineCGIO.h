// GIO: sockets, the resolver and TLS, as libsoup (and so souphttpsrc) uses them. Only the
// HTTP-stream source's connection probe needs it.
#include <gio/gio.h>
