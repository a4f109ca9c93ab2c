// The plain-pointer peers of swarm's transform benchmark (bench/transform_bench.cc), each in a
// translation unit compiled with its own flags (bench/CMakeLists.txt):
//
//   transform_peers_soa_native.cc  the plain scalar SoA loops, -O3 -march=native (the best a
//                                  compiler does for a build that only has to run on this machine)
//   transform_peers_roofline.cc    copy passes over the same bytes as each workload, -O3
//                                  -march=native: the memory roofline
//   transform_peers_glm_o2.cc      the AoS glm loops, -O2 (declared in bench/transform_peers_glm.h)
//
// Like bench/peers.h, this header declares only plain-pointer functions and includes nothing that
// defines inline functions: an inline function emitted by a -march=native translation unit with
// AVX-512 instructions could be the copy the linker keeps for the whole program.
#pragma once

#include <cstddef>

namespace swarm::bench {

// The four lane arrays of one SoA f32x4 buffer (swarm/kernels/base/views.h layout, seen as plain
// pointers).
struct Vec4Lanes {
  float* x;
  float* y;
  float* z;
  float* w;
};
struct ConstVec4Lanes {
  const float* x;
  const float* y;
  const float* z;
  const float* w;
};

// Every function below covers elements [0, count); outputs do not overlap inputs.

// One matrix (column-major like glm: element (column c, row r) is matrix[4 * c + r]) applied to
// points: w is taken as 1 and never read, out.w = 1 (swarm's TransformMode::kPoints).
void SoaTransformPointsNative(const float* matrix, ConstVec4Lanes in, Vec4Lanes out, size_t count);
// out[i] = matrices[i] * in[i] on whole f32x4 (swarm's TransformMode::kHomogeneous): matrix lane
// 4 * c + r holds element (column c, row r) of every matrix.
void SoaTransformPerElementNative(const float* const* matrix_lanes, ConstVec4Lanes in,
                                  Vec4Lanes out, size_t count);
// out[i].xyz = rotate(q, in[i].xyz), out[i].w = in[i].w; q = (x, y, z, w) as glm's components.
void SoaRotateNative(const float* quaternion, ConstVec4Lanes in, Vec4Lanes out, size_t count);
// The same with one quaternion per element.
void SoaRotatePerElementNative(ConstVec4Lanes quaternions, ConstVec4Lanes in, Vec4Lanes out,
                               size_t count);

// Roofline copies (two loop shapes: bench/transform_peers_roofline.cc). Each reads every input
// lane once and writes every output lane once, nothing else. Output lane j gets the sum of the
// input lanes k with k % output_count == j (a plain copy when the counts are equal) or 1.0 where
// no input maps to it, so the pass moves exactly the bytes of the workload whose lanes it is
// given. At most 5 inputs per output lane. CopyLanes runs one loop per output lane.
void CopyLanes(const float* const* inputs, size_t input_count, float* const* outputs,
               size_t output_count, size_t count);
// The same result with every lane in one loop (4 outputs and 3, 4, 8 or 20 inputs; other shapes
// fall back to CopyLanes).
void CopyLanesFused(const float* const* inputs, size_t input_count, float* const* outputs,
                    size_t output_count, size_t count);

}  // namespace swarm::bench
