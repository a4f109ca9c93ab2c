// The plain loops of bench/tensor_calls_loops.h, built with -O3 -march=native
// (bench/CMakeLists.txt).
#include "bench/tensor_calls_loops.h"
#include "bench/tensor_calls_peers.h"

namespace swarm::bench {

float PlainSumNative(const float* values, size_t count) { return PlainSum(values, count); }

void PlainAddNative(const float* a, const float* b, float* out, size_t count) {
  PlainAdd(a, b, out, count);
}

void PlainChainNative(const float* a, const float* b, const float* c, const float* d, float* out,
                      size_t count) {
  PlainChain(a, b, c, d, out, count);
}

}  // namespace swarm::bench
