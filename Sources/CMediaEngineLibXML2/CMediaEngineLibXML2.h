// libxml2 (Debian's libxml2-dev, 2.9.14 on Debian 12), which FoundationXML and GStreamer's
// dashdemux use too: its parser and tree. Only CMediaEngineXML includes it; Swift sees the
// engine's own `me_xml_` functions, not libxml2's.
#include <libxml/parser.h>
#include <libxml/tree.h>
