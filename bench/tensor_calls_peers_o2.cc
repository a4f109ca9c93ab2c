// The plain loops of bench/tensor_calls_peers.h, built with -O2 (bench/CMakeLists.txt).
#include "bench/tensor_calls_peers.h"

namespace swarm::bench {

float PlainSumO2(const float* values, size_t count) {
  float sum = 0.0f;
  for (size_t i = 0; i < count; ++i) sum += values[i];
  return sum;
}

void PlainAddO2(const float* a, const float* b, float* out, size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = a[i] + b[i];
}

void PlainChainO2(const float* a, const float* b, const float* c, const float* d, float* out,
                  size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = (a[i] - b[i]) * c[i] + d[i];
}

}  // namespace swarm::bench
