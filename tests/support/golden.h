// Cross-architecture golden values: results computed on x86-64 and checked into
// tests/golden/cross_arch.golden, asserted by the same tests on every architecture and SIMD target
// (make test on x86, make test-arm64 under qemu-aarch64). The tests' own cross-target comparisons
// catch a target that disagrees with the others on one machine; a golden value catches a change
// that moves every target of one architecture at once, which such comparisons cannot see.
//
// The file holds one "key value" pair per line (value: lowercase hex), '#' starts a comment. A
// change that is meant to change results updates the file in the same commit; any other mismatch
// is a determinism bug.
#pragma once

#include <catch2/catch.hpp>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace swarm::test {

inline const std::map<std::string, std::string>& GoldenValues() {
  static const std::map<std::string, std::string> values = [] {
    std::map<std::string, std::string> loaded;
    std::ifstream file(SWARM_GOLDEN_FILE);
    std::string line;
    while (std::getline(file, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      std::string key, value;
      if (fields >> key >> value) loaded[key] = value;
    }
    return loaded;
  }();
  return values;
}

inline std::string HexDigest(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016" PRIx64, value);
  return text;
}

// Checks `actual` against the golden value stored under `key`.
inline void CheckGolden(const std::string& key, uint64_t actual) {
  const auto& values = GoldenValues();
  const auto golden = values.find(key);
  INFO("golden value '" << key << "' (" << SWARM_GOLDEN_FILE << "): computed "
                        << HexDigest(actual));
  REQUIRE(golden != values.end());
  CHECK(golden->second == HexDigest(actual));
}

}  // namespace swarm::test
