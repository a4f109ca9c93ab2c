// Tests for swarm/core/simd.h: listing, parsing and forcing SIMD targets. Forcing is process-wide,
// so every test restores automatic dispatch on exit (AutoTargetOnExit), even when a REQUIRE fails.
#include "swarm/core/simd.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "hwy/targets.h"
#include "swarm/kernels/base/targets.h"

namespace swarm {
namespace {

class AutoTargetOnExit {
 public:
  AutoTargetOnExit() = default;
  ~AutoTargetOnExit() { (void)ForceSimdTarget("auto"); }
  AutoTargetOnExit(const AutoTargetOnExit&) = delete;
  AutoTargetOnExit& operator=(const AutoTargetOnExit&) = delete;
};

// swarm's --simd name for a Highway target bit, written out here rather than taken from simd.cc.
std::string ExpectedName(int64_t bit) {
  if (bit == HWY_AVX3) return "avx512";
  if (bit == HWY_AVX2) return "avx2";
  if (bit == HWY_SSE4) return "sse4";
  if (bit == HWY_SSSE3) return "ssse3";
  if (bit == HWY_NEON) return "neon";
  if (bit == HWY_SVE) return "sve";
  if (bit == HWY_SVE2) return "sve2";
  if (bit == HWY_SVE_256) return "sve_256";
  if (bit == HWY_SVE2_128) return "sve2_128";
  if (bit == HWY_SCALAR || bit == HWY_EMU128) return "scalar";
  return "unexpected " + std::string(hwy::TargetName(bit));
}

// The bits of `mask`, best (lowest bit) first, as Highway orders targets.
std::vector<int64_t> BitsOf(int64_t mask) {
  std::vector<int64_t> bits;
  for (int64_t rest = mask; rest != 0; rest &= rest - 1) bits.push_back(rest & -rest);
  return bits;
}

bool Contains(const std::vector<SimdTarget>& targets, const std::string& name) {
  for (const SimdTarget& target : targets) {
    if (target.name == name) return true;
  }
  return false;
}

TEST_CASE("CompiledTargets lists exactly what Highway compiled, best first") {
  AutoTargetOnExit restore;
  // Highway's own statement of the kernels' targets (HWY_TARGETS of kernels/*.cc).
  const std::vector<int64_t> compiled = BitsOf(CompiledKernelTargets());
  const std::vector<SimdTarget> targets = CompiledTargets();
  REQUIRE(targets.size() == compiled.size());
  for (size_t i = 0; i < compiled.size(); ++i) {
    INFO("Highway target " << hwy::TargetName(compiled[i]));
    CHECK(targets[i].bits == compiled[i]);
    CHECK(targets[i].name == ExpectedName(compiled[i]));
    CHECK(targets[i].hwy_name == hwy::TargetName(compiled[i]));
  }
  // The portable fallback is always there.
  CHECK(Contains(targets, "scalar"));
  CHECK(TargetNames(targets).find("scalar") != std::string::npos);
}

TEST_CASE("SupportedTargets is what this CPU runs of the compiled set and ignores forcing") {
  AutoTargetOnExit restore;
  const std::vector<int64_t> expected = BitsOf(hwy::SupportedTargets() & CompiledKernelTargets());
  const std::vector<SimdTarget> supported = SupportedTargets();
  REQUIRE(supported.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) CHECK(supported[i].bits == expected[i]);

  REQUIRE(ForceSimdTarget("scalar").ok());
  const std::vector<SimdTarget> while_forced = SupportedTargets();
  REQUIRE(while_forced.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) CHECK(while_forced[i].bits == expected[i]);
  CHECK(ActiveSimdTarget().name == "scalar");  // asking did not undo the forcing
}

TEST_CASE("ForceSimdTarget makes the kernels dispatch to each supported target and auto restores") {
  AutoTargetOnExit restore;
  const std::vector<SimdTarget> supported = SupportedTargets();
  REQUIRE_FALSE(supported.empty());
  const SimdTarget best = supported.front();
  CHECK(ActiveSimdTarget().bits == best.bits);

  for (const SimdTarget& target : supported) {
    INFO("forcing " << target.name);
    REQUIRE(ForceSimdTarget(target.name).ok());
    CHECK(ActiveSimdTarget().name == target.name);
    CHECK(ActiveKernelTarget() == target.bits);
  }

  if (Contains(supported, "sse4")) {
    REQUIRE(ForceSimdTarget("sse4").ok());
    CHECK(ActiveSimdTarget().name == "sse4");
    CHECK(ActiveSimdTarget().hwy_name == "SSE4");
  }

  REQUIRE(ForceSimdTarget("auto").ok());
  CHECK(ActiveSimdTarget().bits == best.bits);
  CHECK(ActiveKernelTarget() == best.bits);

  // Forcing through the struct overload and restoring with bits = 0.
  REQUIRE(ForceSimdTarget(supported.back()).ok());
  CHECK(ActiveKernelTarget() == supported.back().bits);
  REQUIRE(ForceSimdTarget(SimdTarget{}).ok());
  CHECK(ActiveKernelTarget() == best.bits);
}

TEST_CASE("Switching from one forced target to another works without going through auto") {
  AutoTargetOnExit restore;
  const std::vector<SimdTarget> supported = SupportedTargets();
  for (auto it = supported.rbegin(); it != supported.rend(); ++it) {
    REQUIRE(ForceSimdTarget(it->name).ok());
    CHECK(ActiveKernelTarget() == it->bits);
  }
}

TEST_CASE("ParseSimdTarget accepts auto and every supported name, rejects others clearly") {
  AutoTargetOnExit restore;
  Result<SimdTarget> automatic = ParseSimdTarget("auto");
  REQUIRE(automatic.ok());
  CHECK(automatic->bits == 0);
  for (const SimdTarget& target : SupportedTargets()) {
    Result<SimdTarget> parsed = ParseSimdTarget(target.name);
    REQUIRE(parsed.ok());
    CHECK(parsed->bits == target.bits);
  }

  // The other architecture's names are unknown here.
#if HWY_ARCH_X86
  const char* foreign = "neon";
#else
  const char* foreign = "avx2";
#endif
  for (const char* bad : {"bogus", "", "AVX2", "NEON", "sve ", foreign}) {
    INFO("name '" << bad << "'");
    Result<SimdTarget> parsed = ParseSimdTarget(bad);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().code() == ErrorCode::kInvalidArgument);
    const std::string& message = parsed.status().message();
    CHECK_THAT(message, Catch::Contains("--simd=" + std::string(bad)));
    CHECK_THAT(message, Catch::Contains("auto"));
    for (const SimdTarget& target : SupportedTargets()) {
      CHECK_THAT(message, Catch::Contains(target.name));
    }
  }

  // Forcing a bad name fails and leaves the dispatch as it was.
  REQUIRE(ForceSimdTarget("scalar").ok());
  const Status status = ForceSimdTarget("bogus");
  CHECK(status.code() == ErrorCode::kInvalidArgument);
  CHECK(ActiveSimdTarget().name == "scalar");
}

TEST_CASE("SimdChoices lists auto and every compiled name, for flag help") {
  std::string expected = "auto";
  for (const int64_t bit : BitsOf(CompiledKernelTargets())) {
    expected += '|';
    expected += ExpectedName(bit);
  }
  CHECK(SimdChoices() == expected);
}

TEST_CASE("A compiled target this CPU lacks is kUnavailable (when there is one)") {
  AutoTargetOnExit restore;
  const int64_t missing = CompiledKernelTargets() & ~hwy::SupportedTargets();
  if (missing == 0) {
    // Every compiled target runs here; the unavailable path is exercised through a struct.
    const Status status = ForceSimdTarget(SimdTarget{int64_t{1} << 40, "made-up", "made-up"});
    CHECK(status.code() == ErrorCode::kUnavailable);
    CHECK_THAT(status.message(), Catch::Contains("made-up"));
    return;
  }
  const std::string name = ExpectedName(BitsOf(missing).front());
  Result<SimdTarget> parsed = ParseSimdTarget(name);
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.status().code() == ErrorCode::kUnavailable);
  CHECK_THAT(parsed.status().message(), Catch::Contains(name));
}

}  // namespace
}  // namespace swarm
