// The gate every URDF text passes before urdfdom sees it: a strict, streaming XML parse (expat,
// Debian libexpat1-dev: no recursion, linear time) that refuses what would make urdfdom's
// TinyXML misbehave and what no robot description needs.
//
// TinyXML parses nested elements by recursion (about 50,000 levels overflow an 8 MiB stack) and
// looks attributes up by a linear search per attribute (200,000 on one element take minutes).
// Its grammar also differs from XML's in corners (an unknown "<?name ...>" ends at the first '>',
// a DOCTYPE's internal subset is read as text), so a limit counted by a looser scan could be
// walked around. The gate therefore accepts only well-formed XML 1.0 in UTF-8 without a DOCTYPE
// and without processing instructions (the "<?xml ...?>" declaration is allowed): on such text
// TinyXML and expat see the same elements, so the limits expat counts are the ones TinyXML meets.
// Invalid UTF-8 anywhere is refused here too, so names reach the model (and JSON) as valid UTF-8.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "swarm/core/status.h"

namespace swarm {

struct XmlLimits {
  size_t max_depth;                   // elements open at once
  size_t max_elements;                // in the whole text
  size_t max_attributes_per_element;  // on one element
  size_t max_attributes;              // in the whole text
  // What a real document nests, for the depth message.
  const char* typical_depth = "a URDF nests about 5 deep";
};

// Ok, or an error "line L, column C: <problem>" (no file name: the caller adds it).
Status CheckXmlGate(std::string_view text, const XmlLimits& limits);

}  // namespace swarm
