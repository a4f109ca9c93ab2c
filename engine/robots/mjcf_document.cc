#include "engine/robots/mjcf_document.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <memory>

#include "engine/robots/mjcf_xml_tree.h"
#include "swarm/core/input_file.h"

namespace swarm {
namespace {

constexpr std::string_view kActuatorTags[] = {"general",  "motor",       "position",
                                              "velocity", "intvelocity", "damper",
                                              "cylinder", "muscle",      "adhesion"};

constexpr XmlLimits kMjcfXmlLimits{kMjcfMaxDepth, kMjcfMaxElements, kMjcfMaxAttributesPerElement,
                                   kMjcfMaxAttributes,
                                   "the MuJoCo Menagerie's G1 humanoid nests 14 deep"};

// One element of a parsed file still to be copied into the document, under `parent`.
struct Pending {
  const XmlTree* tree;
  uint32_t node;
  uint32_t parent;
  uint32_t file;
};

class DocumentBuilder {
 public:
  DocumentBuilder(const std::string& path, const MjcfReadOptions& options)
      : options_(options), folder_(std::filesystem::path(path).parent_path()) {
    document_.files.push_back(path);
  }

  // `main_text`: the main file's text, or nullptr to read it from its path.
  Status Build(const std::string_view* main_text) {
    Result<const XmlTree*> main = main_text != nullptr ? Parse(0, *main_text) : ReadFile(0);
    if (!main.ok()) return main.status();
    const XmlTree& tree = *main.value();
    if (tree.nodes[0].tag != "mujoco") {
      return InvalidArgument(At(0, tree.nodes[0].line) + ": the root element is <" +
                             tree.nodes[0].tag + ">, expected <mujoco>");
    }
    MjcfElement root{tree.nodes[0].tag, tree.nodes[0].attributes, {}, 0, 0, tree.nodes[0].line};
    document_.elements.push_back(std::move(root));
    PushChildren(tree, 0, 0, 0);
    while (!stack_.empty()) {
      const Pending next = stack_.back();
      stack_.pop_back();
      const XmlNode& node = next.tree->nodes[next.node];
      if (node.tag == "include") {
        if (Status s = Include(node, next); !s.ok()) return s;
        continue;
      }
      const auto index = static_cast<uint32_t>(document_.elements.size());
      document_.elements.push_back(
          MjcfElement{node.tag, node.attributes, {}, next.parent, next.file, node.line});
      document_.elements[next.parent].children.push_back(index);
      PushChildren(*next.tree, next.node, index, next.file);
    }
    return ReadClasses();
  }

  MjcfDocument Take() { return std::move(document_); }

 private:
  std::string At(uint32_t file, int line) const {
    return document_.files[file] + ":" + std::to_string(line);
  }

  void PushChildren(const XmlTree& tree, uint32_t node, uint32_t parent, uint32_t file) {
    const std::vector<uint32_t>& children = tree.nodes[node].children;
    for (size_t k = children.size(); k-- > 0;) stack_.push_back({&tree, children[k], parent, file});
  }

  Result<const XmlTree*> ReadFile(uint32_t file) {
    const std::string& path = document_.files[file];
    const size_t remaining = options_.max_bytes - std::min(options_.max_bytes, bytes_);
    Result<std::string> text =
        ReadInputFile(path, "MJCF file", remaining,
                      "the model's files together may hold " + std::to_string(options_.max_bytes) +
                          " bytes; raise it with --max-mjcf-bytes or MjcfOptions::max_bytes");
    if (!text.ok()) return text.status();
    return Parse(file, *text);
  }

  Result<const XmlTree*> Parse(uint32_t file, std::string_view text) {
    const std::string& path = document_.files[file];
    if (text.size() > options_.max_bytes - std::min(options_.max_bytes, bytes_)) {
      return InvalidArgument(path + ": the model's files together are larger than " +
                             std::to_string(options_.max_bytes) +
                             " bytes; raise it with --max-mjcf-bytes or MjcfOptions::max_bytes");
    }
    bytes_ += text.size();
    Result<XmlTree> tree = ParseXmlTree(text, kMjcfXmlLimits);
    if (!tree.ok()) return InvalidArgument(path + ": " + tree.status().message());
    trees_.push_back(std::make_unique<XmlTree>(std::move(tree).value()));
    return trees_.back().get();
  }

  Status Include(const XmlNode& node, const Pending& at) {
    const std::string* file = node.Find("file");
    if (file == nullptr || file->empty()) {
      return InvalidArgument(At(at.file, node.line) + ": <include> needs a file attribute");
    }
    const std::filesystem::path relative(*file);
    const std::string path =
        (relative.is_absolute() ? relative : folder_ / relative).lexically_normal().string();
    for (const std::string& seen : document_.files) {
      if (std::filesystem::path(seen).lexically_normal().string() == path) {
        return InvalidArgument(At(at.file, node.line) + ": <include file=\"" + *file +
                               "\">: the file is already part of the model (each file may be "
                               "included once)");
      }
    }
    if (document_.files.size() >= options_.max_files) {
      return InvalidArgument(At(at.file, node.line) + ": <include file=\"" + *file +
                             "\">: more than " + std::to_string(options_.max_files) +
                             " files (MjcfReadOptions::max_files)");
    }
    const auto index = static_cast<uint32_t>(document_.files.size());
    document_.files.push_back(path);
    Result<const XmlTree*> tree = ReadFile(index);
    if (!tree.ok()) {
      return InvalidArgument(At(at.file, node.line) + ": <include>: " + tree.status().message());
    }
    PushChildren(*tree.value(), 0, at.parent, index);
    return {};
  }

  // The classes of every top-level <default> (class main) and the defaults inside them, in
  // document order (a class defined twice is reported where it is defined the second time).
  Status ReadClasses() {
    document_.classes.push_back(MjcfClass{"main", -1, {}});
    std::vector<std::pair<uint32_t, int32_t>> stack;  // (element, the class it belongs to)
    const std::vector<uint32_t>& top = document_.elements[0].children;
    for (size_t k = top.size(); k-- > 0;) {
      const MjcfElement& element = document_.elements[top[k]];
      if (element.tag != "default") continue;
      const std::string* name = element.Find("class");
      if (name != nullptr && *name != "main") {
        return InvalidArgument(At(element.file, element.line) +
                               ": the top-level <default> is class main, not \"" + *name + "\"");
      }
      PushDefaults(top[k], 0, stack);
    }
    while (!stack.empty()) {
      const auto [index, class_index] = stack.back();
      stack.pop_back();
      const MjcfElement& element = document_.elements[index];
      if (element.tag != "default") {
        document_.classes[class_index].defaults.emplace_back(
            std::string(MjcfDefaultsKind(element.tag)), index);
        continue;
      }
      const std::string* name = element.Find("class");
      if (name == nullptr || name->empty()) {
        return InvalidArgument(At(element.file, element.line) +
                               ": a nested <default> needs a class name");
      }
      if (document_.FindClass(*name) >= 0) {
        return InvalidArgument(At(element.file, element.line) + ": class \"" + *name +
                               "\" is defined twice");
      }
      document_.classes.push_back(MjcfClass{*name, class_index, {}});
      PushDefaults(index, static_cast<int32_t>(document_.classes.size() - 1), stack);
    }
    return {};
  }

  // The children of <default> element `index` onto `stack`, to be taken in document order: the
  // element defaults of `class_index` and its nested classes.
  void PushDefaults(uint32_t index, int32_t class_index,
                    std::vector<std::pair<uint32_t, int32_t>>& stack) const {
    const std::vector<uint32_t>& children = document_.elements[index].children;
    for (size_t k = children.size(); k-- > 0;) stack.emplace_back(children[k], class_index);
  }

  MjcfReadOptions options_;
  std::filesystem::path folder_;
  MjcfDocument document_;
  std::vector<std::unique_ptr<XmlTree>> trees_;
  std::vector<Pending> stack_;
  size_t bytes_ = 0;
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

const std::string* MjcfElement::Find(std::string_view name) const {
  return FindAttribute(attributes, name);
}

std::string_view MjcfDefaultsKind(std::string_view tag) {
  for (std::string_view actuator : kActuatorTags) {
    if (tag == actuator) return "actuator";
  }
  return tag;
}

std::string MjcfDocument::Where(uint32_t element) const {
  const MjcfElement& e = elements[element];
  return files[e.file] + ":" + std::to_string(e.line);
}

Status MjcfDocument::Error(uint32_t element, const std::string& problem) const {
  return InvalidArgument(Where(element) + ": <" + elements[element].tag + "> " + problem);
}

int32_t MjcfDocument::FindClass(std::string_view name) const {
  for (size_t c = 0; c < classes.size(); ++c) {
    if (classes[c].name == name) return static_cast<int32_t>(c);
  }
  return -1;
}

std::vector<uint32_t> MjcfDocument::Children(uint32_t element, std::string_view tag) const {
  std::vector<uint32_t> found;
  for (uint32_t child : elements[element].children) {
    if (elements[child].tag == tag) found.push_back(child);
  }
  return found;
}

Result<std::vector<uint32_t>> MjcfDocument::AttributeSources(uint32_t element) const {
  const MjcfElement& e = elements[element];
  if (e.tag == "freejoint" || e.tag == "body" || e.tag == "inertial") return std::vector{element};
  // Defaults apply to elements of the model, not to the defaults themselves.
  bool in_worldbody = false;
  for (uint32_t up = e.parent; up != 0; up = elements[up].parent) {
    if (elements[up].tag == "default") return std::vector{element};
    if (elements[up].tag == "worldbody") in_worldbody = true;
  }
  const std::string* name = e.Find("class");
  std::string_view attribute = "class";
  if (name == nullptr && in_worldbody) {
    for (uint32_t up = e.parent; up != 0 && name == nullptr; up = elements[up].parent) {
      if (elements[up].tag == "body") name = elements[up].Find("childclass");
      if (name != nullptr) attribute = "childclass";
    }
  }
  int32_t leaf = 0;
  if (name != nullptr) {
    leaf = FindClass(*name);
    if (leaf < 0) {
      return Error(element, std::string(attribute) + " \"" + *name + "\" names no <default> class");
    }
  }
  std::vector<int32_t> chain;
  for (int32_t c = leaf; c >= 0; c = classes[c].parent) chain.push_back(c);
  const std::string_view kind = MjcfDefaultsKind(e.tag);
  std::vector<uint32_t> sources;
  for (size_t k = chain.size(); k-- > 0;) {
    for (const auto& [default_kind, default_element] : classes[chain[k]].defaults) {
      if (default_kind == kind) sources.push_back(default_element);
    }
  }
  sources.push_back(element);
  return sources;
}

Result<MjcfDocument> ReadMjcfFile(const std::string& path, const MjcfReadOptions& options) {
  DocumentBuilder builder(path, options);
  if (Status s = builder.Build(nullptr); !s.ok()) return s;
  return builder.Take();
}

Result<MjcfDocument> ReadMjcfText(std::string_view text, const std::string& path,
                                  const MjcfReadOptions& options) {
  DocumentBuilder builder(path, options);
  if (Status s = builder.Build(&text); !s.ok()) return s;
  return builder.Take();
}

Status OverwriteMjcfNumbers(const MjcfDocument& document, uint32_t source, std::string_view name,
                            std::vector<double>& values) {
  const std::string* text = document.elements[source].Find(name);
  if (text == nullptr) return Status();
  const auto refuse = [&](const std::string& problem) {
    return document.Error(source,
                          "attribute '" + std::string(name) + "' (\"" + *text + "\"): " + problem);
  };
  size_t count = 0;
  for (size_t at = 0; at < text->size();) {
    if (IsSpace((*text)[at])) {
      ++at;
      continue;
    }
    size_t end = at;
    while (end < text->size() && !IsSpace((*text)[end])) ++end;
    double value = 0.0;
    // A leading '+' is a number to MuJoCo (strtod), not to from_chars.
    const size_t digits =
        (*text)[at] == '+' && end - at > 1 && (*text)[at + 1] != '-' ? at + 1 : at;
    const auto [stop, error] = std::from_chars(text->data() + digits, text->data() + end, value);
    if (error != std::errc() || stop != text->data() + end) {
      std::string problem(1, '"');
      problem.append(*text, at, end - at).append("\" is not a decimal number");
      return refuse(problem);
    }
    if (!std::isfinite(value)) return refuse("values must be finite");
    if (count == values.size()) {
      return refuse("expected at most " + std::to_string(values.size()) + " numbers");
    }
    values[count++] = value;
    at = end;
  }
  if (count == 0) return refuse("expected numbers, got none");
  return Status();
}

Result<std::vector<double>> MjcfNumbers(const MjcfDocument& document, uint32_t element,
                                        std::string_view name, std::vector<double> builtin) {
  Result<std::vector<uint32_t>> sources = document.AttributeSources(element);
  if (!sources.ok()) return sources.status();
  for (uint32_t source : *sources) {
    if (Status s = OverwriteMjcfNumbers(document, source, name, builtin); !s.ok()) return s;
  }
  return builtin;
}

Result<std::string> MjcfText(const MjcfDocument& document, uint32_t element, std::string_view name,
                             std::string builtin) {
  Result<std::vector<uint32_t>> sources = document.AttributeSources(element);
  if (!sources.ok()) return sources.status();
  for (uint32_t source : *sources) {
    if (const std::string* text = document.elements[source].Find(name)) builtin = *text;
  }
  return builtin;
}

}  // namespace swarm
