// SIMD target control. swarm is one portable build in which Highway compiles every kernel for
// several targets and dispatches at run time; this API lists them, forces one (for testing,
// benchmarking or working around a slow target) and reports which one the kernels run.
//
// Names, as accepted by --simd: "auto" (the best this CPU supports) and "scalar" everywhere; on
// x86 "ssse3", "sse4", "avx2", "avx512"; on aarch64 "neon", "sve", "sve2", and "sve_256" and
// "sve2_128" (SVE compiled for a fixed vector length of 256 or 128 bits, which Highway picks
// when the CPU's vector length matches).
//
// Forcing is process-wide because Highway's dispatch table is the one process-wide thing in swarm
// (docs/design.md); set it at start-up, not while kernels run on other threads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "swarm/core/status.h"

namespace swarm {

struct SimdTarget {
  int64_t bits = 0;      // Highway target bit (HWY_AVX3, ...)
  std::string name;      // swarm's name: "avx512", "neon", "sve2", "scalar", ...
  std::string hwy_name;  // Highway's name: "AVX3", "NEON", "SVE2", ...
};

// Targets compiled into this build, best first.
std::vector<SimdTarget> CompiledTargets();
// Compiled targets this CPU can run, best first (ignores any forcing).
std::vector<SimdTarget> SupportedTargets();

// Parses a --simd value: "auto" gives bits = 0; an unknown name or a target this build or CPU
// cannot run is an error that lists what is available.
Result<SimdTarget> ParseSimdTarget(std::string_view name);

// Makes the kernels run `target` (bits = 0 restores automatic choice).
Status ForceSimdTarget(const SimdTarget& target);
Status ForceSimdTarget(std::string_view name);

// The target that kernel calls made now run on.
SimdTarget ActiveSimdTarget();

// The --simd values of this build, for flag help: "auto|avx512|avx2|sse4|ssse3|scalar" on x86.
std::string SimdChoices();

// "avx2, sse4, ..." for messages.
std::string TargetNames(const std::vector<SimdTarget>& targets);

}  // namespace swarm
