#include "engine/robots/mjcf_xml_tree.h"

#include <climits>

#include "engine/robots/expat_parser.h"

namespace swarm {
namespace {

struct TreeState {
  XML_Parser parser = nullptr;
  XmlTree tree;
  std::vector<uint32_t> open;  // the elements open at the current position, outermost first
};

void OnStart(void* data, const XML_Char* name, const XML_Char** attributes) {
  TreeState& state = *static_cast<TreeState*>(data);
  XmlNode node;
  node.tag = name;
  node.line = static_cast<int>(XML_GetCurrentLineNumber(state.parser));
  for (size_t a = 0; attributes[a] != nullptr; a += 2) {
    node.attributes.emplace_back(attributes[a], attributes[a + 1]);
  }
  const auto index = static_cast<uint32_t>(state.tree.nodes.size());
  if (!state.open.empty()) {
    node.parent = state.open.back();
    state.tree.nodes[node.parent].children.push_back(index);
  }
  state.tree.nodes.push_back(std::move(node));
  state.open.push_back(index);
}

void OnEnd(void* data, const XML_Char*) { static_cast<TreeState*>(data)->open.pop_back(); }

}  // namespace

Result<XmlTree> ParseXmlTree(std::string_view text, const XmlLimits& limits) {
  if (Status gate = CheckXmlGate(text, limits); !gate.ok()) return gate;
  // The gate accepted the text, so expat reads the same elements here; its errors are still
  // reported rather than assumed away.
  ExpatParser parser = CreateUtf8Parser();
  if (parser == nullptr) return Status(ErrorCode::kOutOfMemory, "the XML parser");
  TreeState state;
  state.parser = parser.get();
  XML_SetUserData(parser.get(), &state);
  XML_SetElementHandler(parser.get(), OnStart, OnEnd);
  if (text.size() > static_cast<size_t>(INT_MAX)) return InvalidArgument("the text is too long");
  if (XML_Parse(parser.get(), text.data(), static_cast<int>(text.size()), XML_TRUE) !=
      XML_STATUS_OK) {
    return InvalidArgument("line " + std::to_string(XML_GetCurrentLineNumber(parser.get())) + ": " +
                           XML_ErrorString(XML_GetErrorCode(parser.get())));
  }
  if (state.tree.nodes.empty()) return InvalidArgument("line 1: no element");
  return std::move(state.tree);
}

}  // namespace swarm
