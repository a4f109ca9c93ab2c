// The loops swarm's integration benchmark compares against, each in its own translation unit so
// that CMake can compile it with its own flags (bench/CMakeLists.txt):
//
//   peers_soa_o2.cc      the plain scalar SoA loop, -O2 (a portable build's default)
//   peers_soa_native.cc  the same loop, -O3 -march=native (the best a compiler does for a build
//                        that only has to run on this machine)
//   roofline.cc          in-place read + write passes and STREAM triad, -O3 -march=native
//   peers_glm_o2.cc      the AoS glm::vec4 loop, -O2 (declared in bench/peers_glm.h)
//
// This header declares only plain-pointer functions and includes nothing that defines inline
// functions: the -march=native translation units include it, and an inline function they
// emitted with AVX-512 instructions could be the copy the linker keeps for the whole program.
#pragma once

#include <cstddef>

namespace swarm::bench {

// Three lane arrays (x, y, z) of one SoA f32x4 buffer; lane w is never touched.
struct SoaLanes {
  float* x;
  float* y;
  float* z;
};

// The Euler workload's constants: v += (g - k v) dt;  p += v dt.
struct EulerConstants {
  float gravity[3];
  float drag_per_second;
  float dt_seconds;
};

// Elements [0, count) of every lane. The arrays must not overlap.
void SoaEulerO2(SoaLanes positions, SoaLanes velocities, size_t count,
                const EulerConstants& constants);
void SoaEulerNative(SoaLanes positions, SoaLanes velocities, size_t count,
                    const EulerConstants& constants);

// Roofline: lanes[a][i] = lanes[a][i] * scale for a in [0, lane_count), i in [0, count). With
// scale = 1.0 the data never changes, but the multiply by a run-time value keeps the pass a real
// read + write. Lanes go two at a time (lanes 0 and 1 together, then 2 and 3, ...): two
// read + write streams, the pattern of swarm's per-axis loop, which was the fastest in-place
// pattern on the development machine (one array at a time was ~8% slower, eight at once ~40%).
// lane_count is even.
void ScaleLanesInPlace(float* const* lanes, size_t lane_count, size_t count, float scale);

// STREAM triad a[i] = b[i] + scale * c[i] for i in [0, count); a does not overlap b or c.
void StreamTriad(float* a, const float* b, const float* c, size_t count, float scale);

}  // namespace swarm::bench
