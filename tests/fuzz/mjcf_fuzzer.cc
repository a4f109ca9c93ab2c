// libFuzzer harness for the MJCF reader (engine/robots/mjcf_document.cc): any bytes go to
// ReadMjcfText as the main file of a folder that does not exist (so every <include> fails to
// open), with a 256 KiB limit. Besides the sanitizers, each accepted document must keep the
// reader's promises: elements after their parents with consistent child lists, classes after
// their parents, every element's attribute sources ending with itself and reading numbers
// without a crash (finite values only).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/robots/mjcf_document.h"
#include "tests/fuzz/require.h"

namespace {

using swarm::fuzz::Require;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swarm;
  MjcfReadOptions options;
  options.max_bytes = 256 << 10;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<MjcfDocument> document = ReadMjcfText(text, "/nonexistent-mjcf-fuzz/model.xml", options);
  if (!document.ok()) {
    Require(document.status().message().starts_with("/nonexistent-mjcf-fuzz/"));
    return 0;
  }
  Require(!document->elements.empty() && document->elements[0].tag == "mujoco");
  for (uint32_t e = 0; e < document->elements.size(); ++e) {
    const MjcfElement& element = document->elements[e];
    Require(e == 0 ? element.parent == 0 : element.parent < e);
    for (uint32_t child : element.children) Require(document->elements[child].parent == e);
    Require(element.file < document->files.size());
    Result<std::vector<uint32_t>> sources = document->AttributeSources(e);
    if (!sources.ok()) continue;
    Require(!sources->empty() && sources->back() == e);
    Result<std::vector<double>> values = MjcfNumbers(*document, e, "pos", {0, 0, 0});
    if (values.ok()) {
      for (double value : *values) Require(std::isfinite(value));
    }
  }
  for (size_t c = 0; c < document->classes.size(); ++c) {
    Require(c == 0 ? document->classes[c].parent == -1
                   : document->classes[c].parent >= 0 &&
                         static_cast<size_t>(document->classes[c].parent) < c);
  }
  return 0;
}
