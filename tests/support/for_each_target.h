// Runs a test body once per SIMD target compiled into swarm and supported by this CPU, forcing
// Highway's dispatch to that target (hwy::SetSupportedTargetsForTest), and restores automatic
// dispatch afterwards. Each run is a Catch2 section-free loop with the target name in scope for
// messages: INFO("target " << name).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hwy/targets.h"
#include "swarm/kernels/base/targets.h"

namespace swarm::test {

struct TargetUnderTest {
  int64_t bits;
  std::string name;
};

inline std::vector<TargetUnderTest> TargetsUnderTest() {
  hwy::SetSupportedTargetsForTest(0);
  std::vector<TargetUnderTest> targets;
  const int64_t available = hwy::SupportedTargets() & CompiledKernelTargets();
  for (int64_t rest = available; rest != 0; rest &= rest - 1) {
    const int64_t bit = rest & -rest;
    targets.push_back({bit, hwy::TargetName(bit)});
  }
  return targets;
}

// Restores automatic dispatch even if the body throws (a failed REQUIRE).
class ScopedTarget {
 public:
  explicit ScopedTarget(int64_t bits) { hwy::SetSupportedTargetsForTest(bits); }
  ~ScopedTarget() { hwy::SetSupportedTargetsForTest(0); }
  ScopedTarget(const ScopedTarget&) = delete;
  ScopedTarget& operator=(const ScopedTarget&) = delete;
};

// body(const TargetUnderTest&) runs with dispatch forced to each target in turn.
template <class Body>
void ForEachTarget(const Body& body) {
  for (const TargetUnderTest& target : TargetsUnderTest()) {
    ScopedTarget scoped(target.bits);
    body(target);
  }
}

}  // namespace swarm::test
