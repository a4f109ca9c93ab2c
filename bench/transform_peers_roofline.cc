// The memory roofline of the transform benchmark, compiled -O3 -march=native
// (bench/CMakeLists.txt) so the copy runs at the best speed this machine's compiler reaches. Like
// every -march=native translation unit here, it includes nothing with inline functions
// (bench/transform_peers.h).
//
// Two ways to move the bytes, since which one the memory system prefers depends on N and the
// machine, and the roofline should be the best copy, not a particular one:
//   CopyLanes       one loop per output lane, reading its (at most five) input lanes: few
//                   concurrent streams per loop
//   CopyLanesFused  one loop over all lanes at once: the streams of the kernels themselves
// In both every byte the workload moves is read or written exactly once, with ordinary vector
// stores like the kernels' (bench/CMakeLists.txt keeps GCC from calling memmove here, whose
// large copies use non-temporal stores).
#include "bench/transform_peers.h"

namespace swarm::bench {
namespace {

void Fill(float* __restrict out, size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = 1.0f;
}
void Copy1(float* __restrict out, const float* __restrict a, size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = a[i];
}
void Sum2(float* __restrict out, const float* __restrict a, const float* __restrict b,
          size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = a[i] + b[i];
}
void Sum3(float* __restrict out, const float* __restrict a, const float* __restrict b,
          const float* __restrict c, size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = (a[i] + b[i]) + c[i];
}
void Sum4(float* __restrict out, const float* __restrict a, const float* __restrict b,
          const float* __restrict c, const float* __restrict d, size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = (a[i] + b[i]) + (c[i] + d[i]);
}
void Sum5(float* __restrict out, const float* __restrict a, const float* __restrict b,
          const float* __restrict c, const float* __restrict d, const float* __restrict e,
          size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = ((a[i] + b[i]) + (c[i] + d[i])) + e[i];
}

// Fused: all streams of a workload in one loop (4 output lanes, 3, 4, 8 or 20 input lanes).
void Copy3To4(const float* __restrict x, const float* __restrict y, const float* __restrict z,
              float* __restrict o0, float* __restrict o1, float* __restrict o2,
              float* __restrict o3, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    o0[i] = x[i];
    o1[i] = y[i];
    o2[i] = z[i];
    o3[i] = 1.0f;
  }
}
void Copy4To4(const float* __restrict a0, const float* __restrict a1, const float* __restrict a2,
              const float* __restrict a3, float* __restrict o0, float* __restrict o1,
              float* __restrict o2, float* __restrict o3, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    o0[i] = a0[i];
    o1[i] = a1[i];
    o2[i] = a2[i];
    o3[i] = a3[i];
  }
}
void Sum8To4(const float* __restrict a0, const float* __restrict a1, const float* __restrict a2,
             const float* __restrict a3, const float* __restrict b0, const float* __restrict b1,
             const float* __restrict b2, const float* __restrict b3, float* __restrict o0,
             float* __restrict o1, float* __restrict o2, float* __restrict o3, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    o0[i] = a0[i] + b0[i];
    o1[i] = a1[i] + b1[i];
    o2[i] = a2[i] + b2[i];
    o3[i] = a3[i] + b3[i];
  }
}
// Input k goes to output k % 4, as in CopyLanes.
void Sum20To4(const float* __restrict a0, const float* __restrict a1, const float* __restrict a2,
              const float* __restrict a3, const float* __restrict b0, const float* __restrict b1,
              const float* __restrict b2, const float* __restrict b3, const float* __restrict c0,
              const float* __restrict c1, const float* __restrict c2, const float* __restrict c3,
              const float* __restrict d0, const float* __restrict d1, const float* __restrict d2,
              const float* __restrict d3, const float* __restrict e0, const float* __restrict e1,
              const float* __restrict e2, const float* __restrict e3, float* __restrict o0,
              float* __restrict o1, float* __restrict o2, float* __restrict o3, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    o0[i] = ((a0[i] + b0[i]) + (c0[i] + d0[i])) + e0[i];
    o1[i] = ((a1[i] + b1[i]) + (c1[i] + d1[i])) + e1[i];
    o2[i] = ((a2[i] + b2[i]) + (c2[i] + d2[i])) + e2[i];
    o3[i] = ((a3[i] + b3[i]) + (c3[i] + d3[i])) + e3[i];
  }
}

}  // namespace

void CopyLanesFused(const float* const* in, size_t input_count, float* const* out,
                    size_t output_count, size_t count) {
  if (output_count == 4) {
    switch (input_count) {
      case 3:
        Copy3To4(in[0], in[1], in[2], out[0], out[1], out[2], out[3], count);
        return;
      case 4:
        Copy4To4(in[0], in[1], in[2], in[3], out[0], out[1], out[2], out[3], count);
        return;
      case 8:
        Sum8To4(in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], out[0], out[1], out[2],
                out[3], count);
        return;
      case 20:
        Sum20To4(in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], in[8], in[9], in[10],
                 in[11], in[12], in[13], in[14], in[15], in[16], in[17], in[18], in[19], out[0],
                 out[1], out[2], out[3], count);
        return;
      default:
        break;
    }
  }
  CopyLanes(in, input_count, out, output_count, count);
}

void CopyLanes(const float* const* inputs, size_t input_count, float* const* outputs,
               size_t output_count, size_t count) {
  for (size_t j = 0; j < output_count; ++j) {
    const float* in[5] = {};
    size_t n = 0;
    for (size_t k = j; k < input_count && n < 5; k += output_count) in[n++] = inputs[k];
    switch (n) {
      case 0:
        Fill(outputs[j], count);
        break;
      case 1:
        Copy1(outputs[j], in[0], count);
        break;
      case 2:
        Sum2(outputs[j], in[0], in[1], count);
        break;
      case 3:
        Sum3(outputs[j], in[0], in[1], in[2], count);
        break;
      case 4:
        Sum4(outputs[j], in[0], in[1], in[2], in[3], count);
        break;
      default:
        Sum5(outputs[j], in[0], in[1], in[2], in[3], in[4], count);
        break;
    }
  }
}

}  // namespace swarm::bench
