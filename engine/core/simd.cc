#include "swarm/core/simd.h"

#include "hwy/targets.h"
#include "swarm/kernels/base/targets.h"

namespace swarm {
namespace {

struct KnownTarget {
  int64_t bits;
  const char* name;
};

// Best first, as Highway orders its bits (lower bit = better). Only the targets compiled into
// this build are ever listed: x86's on x86, aarch64's on aarch64. On aarch64, sve2_128 and sve_256
// are Highway's SVE code specialised for a vector length known at compile time (128-bit SVE2 as
// on Neoverse N2, 256-bit SVE as on Neoverse V1); the CPU's vector length picks them.
constexpr KnownTarget kKnownTargets[] = {
    {HWY_AVX3, "avx512"},   {HWY_AVX2, "avx2"},         {HWY_SSE4, "sse4"},
    {HWY_SSSE3, "ssse3"},   {HWY_SVE2_128, "sve2_128"}, {HWY_SVE_256, "sve_256"},
    {HWY_SVE2, "sve2"},     {HWY_SVE, "sve"},           {HWY_NEON, "neon"},
    {HWY_EMU128, "scalar"}, {HWY_SCALAR, "scalar"},
};

SimdTarget Describe(int64_t bits) {
  for (const KnownTarget& known : kKnownTargets) {
    if (known.bits == bits) return {bits, known.name, hwy::TargetName(bits)};
  }
  return {bits, hwy::TargetName(bits), hwy::TargetName(bits)};
}

std::vector<SimdTarget> TargetsIn(int64_t mask) {
  std::vector<SimdTarget> targets;
  for (const KnownTarget& known : kKnownTargets) {
    if ((mask & known.bits) != 0) targets.push_back(Describe(known.bits));
  }
  return targets;
}

// The target ForceSimdTarget last chose (0 = automatic). It mirrors the state Highway keeps in
// its dispatch table, which is process-wide by design (docs/design.md), so it is process-wide too.
int64_t& ForcedTargetBits() {
  static int64_t forced_bits = 0;
  return forced_bits;
}

// What this CPU can run, ignoring any target forcing.
int64_t CpuTargets() {
  const int64_t forced_bits = ForcedTargetBits();
  if (forced_bits == 0) return hwy::SupportedTargets();
  hwy::DisableTargets(0);
  const int64_t cpu = hwy::SupportedTargets();
  hwy::DisableTargets(~forced_bits);
  return cpu;
}

}  // namespace

std::vector<SimdTarget> CompiledTargets() { return TargetsIn(CompiledKernelTargets()); }

std::vector<SimdTarget> SupportedTargets() {
  return TargetsIn(CpuTargets() & CompiledKernelTargets());
}

std::string TargetNames(const std::vector<SimdTarget>& targets) {
  std::string names;
  for (const SimdTarget& target : targets) {
    if (!names.empty()) names += ", ";
    names += target.name;
  }
  return names;
}

std::string SimdChoices() {
  std::string choices = "auto";
  for (const SimdTarget& target : CompiledTargets()) choices += "|" + target.name;
  return choices;
}

Result<SimdTarget> ParseSimdTarget(std::string_view name) {
  if (name == "auto") return SimdTarget{0, "auto", "auto"};
  const std::vector<SimdTarget> supported = SupportedTargets();
  for (const SimdTarget& target : supported) {
    if (target.name == name) return target;
  }
  for (const SimdTarget& target : CompiledTargets()) {
    if (target.name == name) {
      return Status(ErrorCode::kUnavailable, "--simd=" + std::string(name) +
                                                 ": this CPU cannot run it (supported: auto, " +
                                                 TargetNames(supported) + ")");
    }
  }
  return Status(ErrorCode::kInvalidArgument, "--simd=" + std::string(name) +
                                                 ": unknown SIMD target (expected one of auto, " +
                                                 TargetNames(supported) + ")");
}

Status ForceSimdTarget(const SimdTarget& target) {
  if (target.bits == 0) {
    hwy::DisableTargets(0);
    ForcedTargetBits() = 0;
    return {};
  }
  const int64_t available = CpuTargets() & CompiledKernelTargets();
  if ((available & target.bits) == 0) {
    return Status(ErrorCode::kUnavailable,
                  "SIMD target " + target.name +
                      " is not available (supported: " + TargetNames(TargetsIn(available)) + ")");
  }
  // Highway re-initialises its dispatch table after DisableTargets, so the next kernel call
  // dispatches to the best target left: exactly this one.
  hwy::DisableTargets(~target.bits);
  ForcedTargetBits() = target.bits;
  return {};
}

Status ForceSimdTarget(std::string_view name) {
  Result<SimdTarget> target = ParseSimdTarget(name);
  if (!target.ok()) return target.status();
  return ForceSimdTarget(target.value());
}

SimdTarget ActiveSimdTarget() { return Describe(ActiveKernelTarget()); }

}  // namespace swarm
