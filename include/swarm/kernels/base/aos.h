// Bulk conversion between interleaved f32x4 (AoS: x0 y0 z0 w0 x1 ..., e.g. glm::vec4[]) and
// swarm's lane-major SoA views, using Highway's LoadInterleaved4 / StoreInterleaved4.
// Pure data movement: bit-exact on every target.
#pragma once

#include "swarm/kernels/base/views.h"

namespace swarm {

// Reads 4 * to.count floats from `aos` into the lane arrays of `to`. `aos` needs no alignment and
// must not overlap `to`.
void AosToSoa(const float* aos, Vec4View to);

// Writes 4 * from.count floats to `aos`. `aos` needs no alignment and must not overlap `from`.
void SoaToAos(ConstVec4View from, float* aos);

}  // namespace swarm
