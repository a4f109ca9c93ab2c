// The elements of an XML text as a flat tree with line numbers, for the MJCF reader
// (engine/robots/mjcf_document.h). The text first passes the strict gate of
// engine/robots/urdf_xml_gate.h (well-formed XML 1.0 in UTF-8, no DOCTYPE, the limits counted),
// then expat reads it once more into nodes: no recursion, linear time, memory bounded by the
// limits.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/robots/urdf_xml_gate.h"
#include "swarm/core/status.h"

namespace swarm {

// The value of attribute `name` in `attributes`, or nullptr.
inline const std::string* FindAttribute(
    const std::vector<std::pair<std::string, std::string>>& attributes, std::string_view name) {
  for (const auto& [key, value] : attributes) {
    if (key == name) return &value;
  }
  return nullptr;
}

struct XmlNode {
  std::string tag;
  std::vector<std::pair<std::string, std::string>> attributes;  // in document order, decoded
  std::vector<uint32_t> children;                               // node indices, in order
  uint32_t parent = 0;                                          // the root is its own parent
  int line = 0;
  const std::string* Find(std::string_view name) const { return FindAttribute(attributes, name); }
};

struct XmlTree {
  std::vector<XmlNode> nodes;  // nodes[0] is the root element
};

// The tree of `text`, or the gate's or expat's error ("line L, column C: <problem>"; the caller
// adds the file name).
Result<XmlTree> ParseXmlTree(std::string_view text, const XmlLimits& limits);

}  // namespace swarm
