// An MJCF (MuJoCo XML) model as read, before any physics: the element tree with every <include>
// spliced in, the <default> classes, and for each element the chain of defaults its attributes
// come from, with MuJoCo's rules (XML reference and modeling guide, "Default settings"):
// - The top-level <default> is class "main"; a nested <default class="c"> starts from its
//   parent's values. An element takes the defaults of its own `class`, else of the nearest
//   enclosing body's `childclass`, else main; elements outside <worldbody> (actuators, contact
//   pairs, ...) use their `class` or main. <freejoint> takes no defaults at all.
// - Every actuator tag (general, motor, position, ...) shares one default per class, written in
//   document order; the other elements have one per tag.
// - A numeric attribute with fewer values than its length overwrites only the leading ones (a
//   geom's friction="0.6" keeps the torsional and rolling coefficients it had).
// - <include file="..."> is replaced by the children of the named file's root element, its path
//   relative to the main file's folder; a file may be included once.
// Untrusted input: every file passes the strict XML gate (engine/robots/urdf_xml_gate.h) with the
// limits below; the files' bytes together are capped; errors name the file and line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "swarm/core/status.h"

namespace swarm {

inline constexpr size_t kMjcfMaxBytes = size_t{16} << 20;  // all files of a model together
inline constexpr size_t kMjcfMaxFiles = 64;                // the main file and its includes
inline constexpr size_t kMjcfMaxDepth = 64;                // elements open at once, in a file
inline constexpr size_t kMjcfMaxElements = 200'000;        // per file
inline constexpr size_t kMjcfMaxAttributesPerElement = 64;
inline constexpr size_t kMjcfMaxAttributes = 1'000'000;  // per file

struct MjcfReadOptions {
  size_t max_bytes = kMjcfMaxBytes;
  size_t max_files = kMjcfMaxFiles;
};

struct MjcfElement {
  std::string tag;
  std::vector<std::pair<std::string, std::string>> attributes;  // in document order
  std::vector<uint32_t> children;
  uint32_t parent = 0;  // the root is its own parent
  uint32_t file = 0;    // index into MjcfDocument::files
  int line = 0;
  const std::string* Find(std::string_view name) const;
};

struct MjcfClass {
  std::string name;
  int32_t parent = -1;  // -1 for main
  // The element defaults written directly inside this class's <default>: (kind, element), in
  // document order; the kind is the tag, or "actuator" for every actuator tag.
  std::vector<std::pair<std::string, uint32_t>> defaults;
};

class MjcfDocument {
 public:
  std::vector<std::string> files;     // [0] the main file
  std::vector<MjcfElement> elements;  // [0] the <mujoco> root, includes spliced in
  std::vector<MjcfClass> classes;     // [0] main

  // "file:line" of an element, for messages.
  std::string Where(uint32_t element) const;
  // InvalidArgument("file:line: <tag> problem") about `element`: every reader's error.
  Status Error(uint32_t element, const std::string& problem) const;
  // The class named `name`, or -1.
  int32_t FindClass(std::string_view name) const;
  // The elements an element's attributes come from, lowest priority first: the defaults of its
  // kind in its class and the class's ancestors (main first), then the element itself. Errors: a
  // `class` or `childclass` naming no class.
  Result<std::vector<uint32_t>> AttributeSources(uint32_t element) const;
  // The children of `element` with tag `tag`, in order.
  std::vector<uint32_t> Children(uint32_t element, std::string_view tag) const;
};

// The defaults kind of an element tag: "actuator" for the actuator tags, else the tag itself.
std::string_view MjcfDefaultsKind(std::string_view tag);

// Reads `path` and its includes. Errors name the file (and line): unreadable or too large files,
// XML the gate refuses, a root that is not <mujoco>, an <include> without a file, of a file
// already included or past max_files, a <default> without a class name inside another, a class
// defined twice.
Result<MjcfDocument> ReadMjcfFile(const std::string& path, const MjcfReadOptions& options = {});
// The same with the main file's text given: `path` names it in messages and its folder is where
// includes are found.
Result<MjcfDocument> ReadMjcfText(std::string_view text, const std::string& path,
                                  const MjcfReadOptions& options = {});

// The numbers of attribute `name` of `element`, starting from `builtin` (MuJoCo's value, whose
// size is the attribute's length): each source (AttributeSources) that has the attribute
// overwrites the leading values it gives. Errors name the attribute, element, file and line: a
// value that is not a list of finite decimal numbers, or longer than builtin.
Result<std::vector<double>> MjcfNumbers(const MjcfDocument& document, uint32_t element,
                                        std::string_view name, std::vector<double> builtin);
// The numbers of attribute `name` of `source` alone (no defaults) overwrite the leading entries of
// `values`; nothing changes when `source` lacks the attribute. Errors as MjcfNumbers.
Status OverwriteMjcfNumbers(const MjcfDocument& document, uint32_t source, std::string_view name,
                            std::vector<double>& values);

// The text of attribute `name` of `element` from its last source that has it, else `builtin`.
Result<std::string> MjcfText(const MjcfDocument& document, uint32_t element, std::string_view name,
                             std::string builtin);

}  // namespace swarm
