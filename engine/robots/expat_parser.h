// An expat parser (Debian libexpat1-dev) for UTF-8 text, freed when it goes out of scope: the XML
// gate (urdf_xml_gate.h) and the MJCF element tree (mjcf_xml_tree.h) each run one.
#pragma once

#include <expat.h>

#include <memory>

namespace swarm {

struct ExpatParserDeleter {
  void operator()(XML_Parser parser) const { XML_ParserFree(parser); }
};
using ExpatParser = std::unique_ptr<XML_ParserStruct, ExpatParserDeleter>;

// nullptr when expat cannot allocate it.
inline ExpatParser CreateUtf8Parser() { return ExpatParser(XML_ParserCreate("UTF-8")); }

}  // namespace swarm
