#include "engine/robots/urdf_xml_gate.h"

#include <climits>
#include <string>

#include "engine/robots/expat_parser.h"

namespace swarm {
namespace {

struct GateState {
  XML_Parser parser = nullptr;
  const XmlLimits* limits = nullptr;
  size_t depth = 0;
  size_t elements = 0;
  size_t attributes = 0;
  std::string refusal;  // set by a handler that stops the parse
};

// Stops the parse with `problem`, located where expat is.
void Refuse(GateState& state, const std::string& problem) {
  if (!state.refusal.empty()) return;
  state.refusal = "line " + std::to_string(XML_GetCurrentLineNumber(state.parser)) + ", column " +
                  std::to_string(XML_GetCurrentColumnNumber(state.parser) + 1) + ": " + problem;
  XML_StopParser(state.parser, XML_FALSE);
}

void OnStartElement(void* data, const XML_Char* name, const XML_Char** attributes) {
  GateState& state = *static_cast<GateState*>(data);
  const XmlLimits& limits = *state.limits;
  size_t count = 0;
  while (attributes[2 * count] != nullptr) ++count;
  state.depth += 1;
  state.elements += 1;
  state.attributes += count;
  const std::string element = std::string("<") + name + ">";
  if (state.depth > limits.max_depth) {
    Refuse(state, element + " is nested " + std::to_string(state.depth) +
                      " elements deep, more than the limit of " + std::to_string(limits.max_depth) +
                      " (" + limits.typical_depth + ")");
  } else if (state.elements > limits.max_elements) {
    Refuse(state, "more than " + std::to_string(limits.max_elements) +
                      " elements, the limit of a URDF text");
  } else if (count > limits.max_attributes_per_element) {
    Refuse(state, element + " has " + std::to_string(count) +
                      " attributes, more than the limit of " +
                      std::to_string(limits.max_attributes_per_element) + " per element");
  } else if (state.attributes > limits.max_attributes) {
    Refuse(state, "more than " + std::to_string(limits.max_attributes) +
                      " attributes, the limit of a URDF text");
  }
}

void OnEndElement(void* data, const XML_Char*) { static_cast<GateState*>(data)->depth -= 1; }

void OnDoctype(void* data, const XML_Char* name, const XML_Char*, const XML_Char*, int) {
  Refuse(*static_cast<GateState*>(data),
         std::string("a DOCTYPE declaration (<!DOCTYPE ") + name +
             ">), which a URDF does not use and swarm does not accept");
}

void OnProcessingInstruction(void* data, const XML_Char* target, const XML_Char*) {
  Refuse(*static_cast<GateState*>(data),
         std::string("a processing instruction (<?") + target +
             " ...?>), which a URDF does not use and swarm does not accept");
}

}  // namespace

Status CheckXmlGate(std::string_view text, const XmlLimits& limits) {
  // The encoding is fixed to UTF-8 whatever the declaration says: urdfdom reads bytes as UTF-8.
  ExpatParser parser = CreateUtf8Parser();
  if (parser == nullptr) return {ErrorCode::kOutOfMemory, "cannot create an XML parser"};
  GateState state;
  state.parser = parser.get();
  state.limits = &limits;
  XML_SetUserData(parser.get(), &state);
  XML_SetElementHandler(parser.get(), OnStartElement, OnEndElement);
  XML_SetStartDoctypeDeclHandler(parser.get(), OnDoctype);
  XML_SetProcessingInstructionHandler(parser.get(), OnProcessingInstruction);
  // Fed in pieces: XML_Parse takes an int length.
  constexpr size_t kPiece = size_t{1} << 20;
  for (size_t offset = 0;;) {
    const size_t piece = std::min(kPiece, text.size() - offset);
    const bool last = offset + piece == text.size();
    if (XML_Parse(parser.get(), text.data() + offset, static_cast<int>(piece), last) !=
        XML_STATUS_OK) {
      if (!state.refusal.empty()) return InvalidArgument(state.refusal);
      return InvalidArgument(
          "line " + std::to_string(XML_GetCurrentLineNumber(parser.get())) + ", column " +
          std::to_string(XML_GetCurrentColumnNumber(parser.get()) + 1) + ": malformed XML (" +
          XML_ErrorString(XML_GetErrorCode(parser.get())) + ")");
    }
    offset += piece;
    if (last) break;
  }
  return {};
}

}  // namespace swarm
