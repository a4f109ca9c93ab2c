// The Eigen 3.4 peers of bench/tensor_calls_peers.h: Map'd ArrayXf expressions (fused, SIMD),
// built with -O3 -march=native (bench/CMakeLists.txt) so Eigen uses the widest vectors it can.
#include <Eigen/Core>

#include "bench/tensor_calls_peers.h"

namespace swarm::bench {

using ConstArray = Eigen::Map<const Eigen::ArrayXf>;
using Array = Eigen::Map<Eigen::ArrayXf>;

float EigenSum(const float* values, size_t count) {
  return ConstArray(values, static_cast<Eigen::Index>(count)).sum();
}

void EigenAdd(const float* a, const float* b, float* out, size_t count) {
  const auto n = static_cast<Eigen::Index>(count);
  Array(out, n) = ConstArray(a, n) + ConstArray(b, n);
}

void EigenChain(const float* a, const float* b, const float* c, const float* d, float* out,
                size_t count) {
  const auto n = static_cast<Eigen::Index>(count);
  Array(out, n) = (ConstArray(a, n) - ConstArray(b, n)) * ConstArray(c, n) + ConstArray(d, n);
}

}  // namespace swarm::bench
