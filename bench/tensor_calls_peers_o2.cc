// The plain loops of bench/tensor_calls_loops.h, built with -O2 (bench/CMakeLists.txt).
#include "bench/tensor_calls_loops.h"
#include "bench/tensor_calls_peers.h"

namespace swarm::bench {

float PlainSumO2(const float* values, size_t count) { return PlainSum(values, count); }

void PlainAddO2(const float* a, const float* b, float* out, size_t count) {
  PlainAdd(a, b, out, count);
}

void PlainChainO2(const float* a, const float* b, const float* c, const float* d, float* out,
                  size_t count) {
  PlainChain(a, b, c, d, out, count);
}

}  // namespace swarm::bench
