// The plain scalar SoA Euler loop, shared by bench/peers_soa_o2.cc and bench/peers_soa_native.cc
// so that both peers compile the very same source with different flags.
//
// Internal linkage on purpose: an inline function with external linkage would be emitted by both
// translation units (one with -march=native) and the linker would keep one copy for both peers.
#pragma once

#include <cstddef>

#include "bench/peers.h"

namespace swarm::bench {
namespace {

// One pass over the particles doing all three axes, the way the loop is usually written.
// __restrict on the parameters is what such code adds so the compiler may vectorise without
// alias checks (GCC ignores it on local copies of the pointers and then does not vectorise).
inline void SoaEulerArrays(float* __restrict px, float* __restrict py, float* __restrict pz,
                           float* __restrict vx, float* __restrict vy, float* __restrict vz,
                           size_t count, float gx, float gy, float gz, float k, float dt) {
  for (size_t i = 0; i < count; ++i) {
    vx[i] += (gx - k * vx[i]) * dt;
    vy[i] += (gy - k * vy[i]) * dt;
    vz[i] += (gz - k * vz[i]) * dt;
    px[i] += vx[i] * dt;
    py[i] += vy[i] * dt;
    pz[i] += vz[i] * dt;
  }
}

void SoaEulerLoop(SoaLanes positions, SoaLanes velocities, size_t count,
                  const EulerConstants& constants) {
  SoaEulerArrays(positions.x, positions.y, positions.z, velocities.x, velocities.y, velocities.z,
                 count, constants.gravity[0], constants.gravity[1], constants.gravity[2],
                 constants.drag_per_second, constants.dt_seconds);
}

}  // namespace
}  // namespace swarm::bench
