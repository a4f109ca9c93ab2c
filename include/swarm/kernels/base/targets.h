// Which SIMD target the kernels dispatch to. The engine's target control (swarm/core/simd.h) is
// the user-facing API; this is the one probe that asks the dispatch table itself.
#pragma once

#include <cstdint>

namespace swarm {

// The Highway target bit (HWY_AVX3, HWY_SCALAR, ...) that a kernel call made now would run.
int64_t ActiveKernelTarget();

// Bitmask of the targets compiled into the kernels (HWY_TARGETS of this build).
int64_t CompiledKernelTargets();

}  // namespace swarm
