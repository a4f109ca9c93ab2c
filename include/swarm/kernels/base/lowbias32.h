// C. Wellons' "lowbias32" integer finaliser (2018): a cheap 32-bit hash with good avalanche. The
// scalar form shared by the random generator's key setup (kernels/base/random-inl.h), its reference
// (kernels/particles/integrate_reference.cc) and tests that need reproducible bit patterns; the
// per-target vector form in random-inl.h uses the same constants.
#pragma once

#include <cstdint>

namespace swarm {

inline constexpr uint32_t kLowBiasMul1 = 0x7feb352du;
inline constexpr uint32_t kLowBiasMul2 = 0x846ca68bu;

constexpr uint32_t LowBias32(uint32_t x) {
  x ^= x >> 16;
  x *= kLowBiasMul1;
  x ^= x >> 15;
  x *= kLowBiasMul2;
  x ^= x >> 16;
  return x;
}

}  // namespace swarm
