#ifndef ME_XML_PARSE_H
#define ME_XML_PARSE_H

// A hostile XML document (a VAST answer from an ad server, a DASH manifest) read with libxml2,
// strictly: from memory only, never the network or a file (XML_PARSE_NONET); a document with a
// document type declaration (`<!DOCTYPE`: a DTD, internal or external, so entity declarations,
// external entities and entity expansions such as billion laughs) is refused before any of it is
// read; an entity reference other than XML's five and character references is an error; no
// XInclude. Size, depth and the number of elements and attributes are bounded while parsing.
// Processing instructions and comments are skipped. libxml2's messages go to the error given,
// never to standard error. Names and text are handed over as UTF-8, from a document in UTF-8,
// UTF-16 with a byte order mark, or an encoding its XML declaration names (ISO-8859-1, ...).
// Thread-safe: each call has a parser of its own; libxml2 is initialized once (pthread_once).

#include <stddef.h>

typedef enum {
    ME_XML_OK = 0,
    /// No bytes, or nothing but white space.
    ME_XML_EMPTY,
    /// More bytes than `max_bytes`.
    ME_XML_TOO_LARGE,
    /// An element deeper than `max_depth` (the document element is at depth 1).
    ME_XML_TOO_DEEP,
    /// More elements and attributes together than `max_nodes`.
    ME_XML_TOO_MANY_NODES,
    /// A document type declaration (`<!DOCTYPE ...>`), with or without an internal subset.
    ME_XML_DOCUMENT_TYPE,
    /// Not well-formed XML (libxml2's error in the error's message), or in no encoding libxml2 reads.
    ME_XML_MALFORMED,
    /// Memory ran out.
    ME_XML_NO_MEMORY,
} me_xml_status;

/// The bounds of one parse. `max_depth` is at most ME_XML_LARGEST_DEPTH (libxml2's own bound
/// without XML_PARSE_HUGE is 256, reported as a generic error); `max_bytes` at most INT_MAX.
typedef struct {
    size_t max_bytes;
    unsigned max_depth;
    size_t max_nodes;
    /// Non-zero: the bytes are UTF-8 whatever the XML declaration says (text that was a string).
    int utf8_only;
} me_xml_limits;

#define ME_XML_LARGEST_DEPTH 255u

/// Where and why a parse failed: libxml2's first error (line and column from 1; 0 when
/// unknown), its code (xmlParserErrors) and its message, one line, cut to fit.
typedef struct {
    int line;
    int column;
    int code;
    char message[160];
} me_xml_error;

/// One attribute: its local name, its namespace prefix (NULL without one) and its value, UTF-8.
typedef struct {
    const char *prefix;
    const char *name;
    const char *value;
} me_xml_attribute;

/// The document, element by element in document order, after it has been parsed in full (so
/// nothing is handed over from a document that is then refused). Pointers are valid during the
/// call only.
typedef struct {
    /// An element starts: its name (local name; `prefix:local` when the prefix is undeclared)
    /// and its attributes.
    void (*start_element)(void *context, const char *name, const me_xml_attribute *attributes, size_t count);
    /// Character data or a CDATA section directly inside the element that started last, not
    /// NUL-terminated.
    void (*characters)(void *context, const char *bytes, size_t length);
    /// The element that started last ends.
    void (*end_element)(void *context);
} me_xml_handler;

/// Parses `length` bytes within `limits` and, when the document is accepted, hands it to
/// `handler` with `context`. On failure `error` (may be NULL) says where and why. Frees all it
/// allocated before it returns.
me_xml_status me_xml_parse(const void *bytes, size_t length, const me_xml_limits *limits,
                           const me_xml_handler *handler, void *context, me_xml_error *error);

#endif
