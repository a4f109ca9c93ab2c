// The plain loops a user would write instead of a tensor call, compiled twice: at -O2
// (tensor_calls_peers_o2.cc) and at -O3 -march=native (tensor_calls_peers_native.cc), each in its
// own translation unit so that neither the call nor the loop is folded into the benchmark.
#pragma once

#include <cstddef>

namespace swarm::bench {

// float s = 0; for (x : values) s += x;
float PlainSumO2(const float* values, size_t count);
float PlainSumNative(const float* values, size_t count);
// out[i] = a[i] + b[i]
void PlainAddO2(const float* a, const float* b, float* out, size_t count);
void PlainAddNative(const float* a, const float* b, float* out, size_t count);
// out[i] = (a[i] - b[i]) * c[i] + d[i]
void PlainChainO2(const float* a, const float* b, const float* c, const float* d, float* out,
                  size_t count);
void PlainChainNative(const float* a, const float* b, const float* c, const float* d, float* out,
                      size_t count);

// Eigen 3.4 ArrayXf expressions over the same memory (tensor_calls_peers_eigen.cc), when Debian's
// libeigen3-dev is installed (SWARM_BENCH_EIGEN).
float EigenSum(const float* values, size_t count);
void EigenAdd(const float* a, const float* b, float* out, size_t count);
void EigenChain(const float* a, const float* b, const float* c, const float* d, float* out,
                size_t count);

}  // namespace swarm::bench
