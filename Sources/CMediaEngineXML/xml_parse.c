// me_xml_parse: libxml2's tree parser with the engine's bounds (me_xml_parse.h says what is
// accepted). Written against libxml2 2.9.14 (Debian 12): no XML_PARSE_NO_XXE there, so the
// document type declaration is refused from the SAX handler that libxml2 calls as soon as it has
// read `<!DOCTYPE name ExternalID`, before any declaration in it; the parser is then stopped.

#include "me_xml_parse.h"

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/// What one parse has seen, reached from libxml2's callbacks through the context's `_private`.
typedef struct {
    const me_xml_limits *limits;
    unsigned max_depth;
    /// A refusal of the engine's own (a bound, a DOCTYPE); ME_XML_OK when none.
    me_xml_status refused;
    unsigned depth;
    size_t nodes;
    /// The most attributes one element has (the walk's buffer).
    size_t most_attributes;
    me_xml_error error;
    /// Whether `error` holds libxml2's error, and whether it was fatal.
    int has_error;
    int error_is_fatal;
} ParseState;

static pthread_once_t initialized = PTHREAD_ONCE_INIT;

static void initialize(void) {
    xmlInitParser();
}

static void copy_message(me_xml_error *error, const char *message) {
    size_t length = 0;
    if (message != NULL) {
        // One line: libxml2's messages end with a newline, and some have one inside.
        for (; message[length] != '\0' && length + 1 < sizeof error->message; length++) {
            char c = message[length];
            error->message[length] = (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
        }
    }
    while (length > 0 && error->message[length - 1] == ' ') length--;
    error->message[length] = '\0';
}

/// libxml2's errors, from the parser (the context's handler) or from another of its modules
/// while this thread parses (this thread's handler): the first error kept, replaced once by the
/// first fatal one; warnings dropped. Nothing is printed.
static void keep_error(ParseState *state, xmlErrorPtr error) {
    if (state == NULL || error == NULL || error->level < XML_ERR_ERROR) return;
    int fatal = error->level == XML_ERR_FATAL;
    if (state->has_error && (state->error_is_fatal || !fatal)) return;
    state->has_error = 1;
    state->error_is_fatal = fatal;
    state->error.line = error->line;
    state->error.column = error->int2;
    state->error.code = error->code;
    copy_message(&state->error, error->message);
}

static void on_parser_error(void *user_data, xmlErrorPtr error) {
    // The SAX handler's user data is the parser context itself (libxml2's default).
    xmlParserCtxtPtr context = user_data;
    keep_error(context != NULL ? context->_private : NULL, error);
}

static void on_other_error(void *user_data, xmlErrorPtr error) {
    keep_error(user_data, error);
}

static void refuse(xmlParserCtxtPtr context, me_xml_status status) {
    ParseState *state = context->_private;
    if (state->refused == ME_XML_OK) {
        state->refused = status;
        // Where it was refused, kept: an error libxml2 reports after this does not replace it.
        state->has_error = 1;
        state->error_is_fatal = 1;
        state->error.line = xmlSAX2GetLineNumber(context);
        state->error.column = xmlSAX2GetColumnNumber(context);
        state->error.code = 0;
        state->error.message[0] = '\0';
    }
    xmlStopParser(context);
}

// MARK: The SAX handler: libxml2's tree builder (xmlSAX2*) with the engine's checks in front.

static void on_document_type(void *user_data, const xmlChar *name, const xmlChar *external_id,
                             const xmlChar *system_id) {
    (void)name;
    (void)external_id;
    (void)system_id;
    refuse(user_data, ME_XML_DOCUMENT_TYPE);
}

static void on_entity_declaration(void *user_data, const xmlChar *name, int type, const xmlChar *public_id,
                                  const xmlChar *system_id, xmlChar *content) {
    // Unreachable with the DOCTYPE refused; kept so that no entity is ever declared.
    (void)name;
    (void)type;
    (void)public_id;
    (void)system_id;
    (void)content;
    refuse(user_data, ME_XML_DOCUMENT_TYPE);
}

static xmlEntityPtr no_entity(void *user_data, const xmlChar *name) {
    // XML's five (&lt; &gt; &amp; &apos; &quot;) are libxml2's own, looked up before this: any
    // other reference is to an undeclared entity, a well-formedness error without a DTD.
    (void)user_data;
    (void)name;
    return NULL;
}

static xmlParserInputPtr no_external_entity(void *user_data, const xmlChar *public_id, const xmlChar *system_id) {
    (void)public_id;
    (void)system_id;
    refuse(user_data, ME_XML_DOCUMENT_TYPE);
    return NULL;
}

static void on_start_element(void *user_data, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri,
                             int namespace_count, const xmlChar **namespaces, int attribute_count,
                             int defaulted_count, const xmlChar **attributes) {
    xmlParserCtxtPtr context = user_data;
    ParseState *state = context->_private;
    if (state->refused != ME_XML_OK) return;
    if (state->depth >= state->max_depth) {
        refuse(context, ME_XML_TOO_DEEP);
        return;
    }
    size_t nodes = 1 + (size_t)(attribute_count > 0 ? attribute_count : 0);
    if (nodes > state->limits->max_nodes - state->nodes) {
        refuse(context, ME_XML_TOO_MANY_NODES);
        return;
    }
    state->depth++;
    state->nodes += nodes;
    if (nodes - 1 > state->most_attributes) state->most_attributes = nodes - 1;
    xmlSAX2StartElementNs(user_data, name, prefix, uri, namespace_count, namespaces, attribute_count,
                          defaulted_count, attributes);
}

static void on_end_element(void *user_data, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri) {
    xmlParserCtxtPtr context = user_data;
    ParseState *state = context->_private;
    if (state->refused != ME_XML_OK) return;
    if (state->depth > 0) state->depth--;
    xmlSAX2EndElementNs(user_data, name, prefix, uri);
}

static void configure(xmlSAXHandlerPtr sax) {
    // From libxml2's own SAX2 tree builder, whatever a default another library in the process set.
    xmlSAXVersion(sax, 2);
    sax->internalSubset = on_document_type;
    sax->externalSubset = on_document_type;
    sax->entityDecl = on_entity_declaration;
    sax->getEntity = no_entity;
    sax->getParameterEntity = no_entity;
    sax->resolveEntity = no_external_entity;
    sax->startElementNs = on_start_element;
    sax->endElementNs = on_end_element;
    // Neither VAST nor DASH has a use for them: no nodes for processing instructions and comments.
    sax->processingInstruction = NULL;
    sax->comment = NULL;
    sax->serror = on_parser_error;
}

// MARK: The walk.

static const char *attribute_value(xmlAttrPtr attribute, char **allocated) {
    *allocated = NULL;
    xmlNodePtr value = attribute->children;
    if (value == NULL) return "";
    // Always one text node with no entities (the DOCTYPE is refused); the general case anyway.
    if (value->type == XML_TEXT_NODE && value->next == NULL && value->content != NULL) {
        return (const char *)value->content;
    }
    *allocated = (char *)xmlNodeListGetString(attribute->doc, value, 1);
    return *allocated != NULL ? *allocated : "";
}

static void start(xmlNodePtr element, me_xml_attribute *buffer, const me_xml_handler *handler, void *context) {
    size_t count = 0;
    char *allocated[8] = {NULL};
    size_t allocated_count = 0;
    for (xmlAttrPtr attribute = element->properties; attribute != NULL; attribute = attribute->next) {
        char *copy = NULL;
        buffer[count].prefix = attribute->ns != NULL ? (const char *)attribute->ns->prefix : NULL;
        buffer[count].name = (const char *)attribute->name;
        buffer[count].value = attribute_value(attribute, &copy);
        if (copy != NULL) {
            if (allocated_count == sizeof allocated / sizeof allocated[0]) {
                // Not reached (see attribute_value); bounded all the same.
                xmlFree(copy);
                buffer[count].value = "";
            } else {
                allocated[allocated_count++] = copy;
            }
        }
        count++;
    }
    handler->start_element(context, (const char *)element->name, buffer, count);
    for (size_t index = 0; index < allocated_count; index++) xmlFree(allocated[index]);
}

/// The document element and everything in it, in document order, without recursion.
static void walk(xmlNodePtr root, me_xml_attribute *buffer, const me_xml_handler *handler, void *context) {
    xmlNodePtr node = root;
    for (;;) {
        if (node->type == XML_ELEMENT_NODE) {
            start(node, buffer, handler, context);
            if (node->children != NULL) {
                node = node->children;
                continue;
            }
            handler->end_element(context);
        } else if ((node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) && node->content != NULL) {
            handler->characters(context, (const char *)node->content, strlen((const char *)node->content));
        }
        while (node != root && node->next == NULL) {
            node = node->parent;
            handler->end_element(context);
        }
        if (node == root) return;
        node = node->next;
    }
}

// MARK: The parse.

static me_xml_status finish(me_xml_status status, const ParseState *state, me_xml_error *error) {
    if (error != NULL) {
        *error = state->error;
        if (status == ME_XML_OK) memset(error, 0, sizeof *error);
    }
    return status;
}

/// Whether the bytes are XML's white space alone (none at all included). libxml2 says "Document is
/// empty" for those, and for any document that does not start with `<` too (the same code).
static int only_white_space(const unsigned char *bytes, size_t length) {
    for (size_t index = 0; index < length; index++) {
        unsigned char byte = bytes[index];
        if (byte != ' ' && byte != '\t' && byte != '\n' && byte != '\r') return 0;
    }
    return 1;
}

me_xml_status me_xml_parse(const void *bytes, size_t length, const me_xml_limits *limits,
                           const me_xml_handler *handler, void *context, me_xml_error *error) {
    ParseState state;
    memset(&state, 0, sizeof state);
    state.limits = limits;
    state.max_depth = limits->max_depth < ME_XML_LARGEST_DEPTH ? limits->max_depth : ME_XML_LARGEST_DEPTH;
    if (length > limits->max_bytes || length > INT_MAX) return finish(ME_XML_TOO_LARGE, &state, error);
    if (bytes == NULL || only_white_space(bytes, length)) return finish(ME_XML_EMPTY, &state, error);
    pthread_once(&initialized, initialize);

    xmlParserCtxtPtr parser = xmlNewParserCtxt();
    if (parser == NULL) return finish(ME_XML_NO_MEMORY, &state, error);
    configure(parser->sax);
    parser->_private = &state;
    // Errors of libxml2's other modules (encodings) go to this thread's handler, not to standard
    // error, while this thread parses; the one before is put back.
    xmlStructuredErrorFunc previous_handler = xmlStructuredError;
    void *previous_context = xmlStructuredErrorContext;
    xmlSetStructuredErrorFunc(&state, on_other_error);

    int options = XML_PARSE_NONET | XML_PARSE_NOBLANKS | XML_PARSE_COMPACT | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
    if (limits->utf8_only) options |= XML_PARSE_IGNORE_ENC;
    xmlDocPtr document =
        xmlCtxtReadMemory(parser, bytes, (int)length, NULL, limits->utf8_only ? "UTF-8" : NULL, options);

    xmlSetStructuredErrorFunc(previous_context, previous_handler);
    xmlFreeParserCtxt(parser);
    // libxml2 keeps a copy of the last error in this thread's state: freed now, not at the next error.
    xmlResetLastError();

    me_xml_status status = ME_XML_OK;
    xmlNodePtr root = document != NULL ? xmlDocGetRootElement(document) : NULL;
    if (state.refused != ME_XML_OK) {
        status = state.refused;
    } else if (state.error.code == XML_ERR_NO_MEMORY) {
        status = ME_XML_NO_MEMORY;
    } else if (root == NULL) {
        status = ME_XML_MALFORMED;
    }
    if (status == ME_XML_OK) {
        me_xml_attribute *buffer = calloc(state.most_attributes > 0 ? state.most_attributes : 1, sizeof *buffer);
        if (buffer == NULL) {
            status = ME_XML_NO_MEMORY;
        } else {
            walk(root, buffer, handler, context);
            free(buffer);
        }
    }
    if (document != NULL) xmlFreeDoc(document);
    return finish(status, &state, error);
}
