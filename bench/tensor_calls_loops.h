// The plain loops of bench/tensor_calls_peers.h, shared by tensor_calls_peers_o2.cc and
// tensor_calls_peers_native.cc so that both peers compile the very same source with different
// flags. Internal linkage on purpose, as in bench/soa_euler_loop.h: with external linkage the
// linker would keep one translation unit's copy for both peers.
#pragma once

#include <cstddef>

namespace swarm::bench {
namespace {

inline float PlainSum(const float* values, size_t count) {
  float sum = 0.0f;
  for (size_t i = 0; i < count; ++i) sum += values[i];
  return sum;
}

inline void PlainAdd(const float* a, const float* b, float* out, size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = a[i] + b[i];
}

inline void PlainChain(const float* a, const float* b, const float* c, const float* d, float* out,
                       size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = (a[i] - b[i]) * c[i] + d[i];
}

}  // namespace
}  // namespace swarm::bench
