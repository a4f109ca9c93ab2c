// A tolerant outline of URDF text: where the robot's elements are and on which lines, from a
// light scan of the characters. It never decides whether a document is accepted (urdfdom does
// that, engine/robots/urdf_loader.cc); it gives the loader document order for joints, line numbers
// for messages, and where truncated or malformed text stops making sense.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace swarm {

struct XmlElementMark {
  std::string tag;
  std::string name;  // the name attribute, entities decoded; empty when absent
  std::string link;  // the link attribute (of <parent> and <child>)
  // For a <joint> directly inside the root: the links its <parent> and <child> name.
  std::string parent_link, child_link;
  int line = 0;
};

struct XmlOutline {
  std::vector<XmlElementMark> robot_children;  // elements directly inside the root element
  std::vector<XmlElementMark> open_at_end;     // elements the text leaves unclosed, outermost first
  std::string unterminated;  // a comment, tag, ... the text ends inside of, if any
  bool has_element = false;  // false for text without a single start tag
  int last_line = 1;
};

// The outline of `text` (never fails; malformed text gives a partial outline).
XmlOutline ScanXml(std::string_view text);

// Where the text stops making sense, for a malformed-XML message: "" if the scan saw nothing odd.
std::string DescribeXmlEnd(const XmlOutline& outline);

}  // namespace swarm
