// Checked entry points: the integration kernels over owning buffers. Each validates sizes and
// parameters first and returns an error naming the problem without touching any buffer; then it
// runs the kernel on the whole buffer. Use the kernels (swarm/kernels/particles/integrate.h)
// directly on views inside a tile pipeline once inputs are known to be valid.
#pragma once

#include "swarm/core/buffer.h"
#include "swarm/core/status.h"
#include "swarm/kernels/particles/integrate.h"

namespace swarm {

Status IntegrateEuler(Vec4Buffer& positions, Vec4Buffer& velocities, const EulerParams& params);
Status VerletKickDrift(Vec4Buffer& positions, Vec4Buffer& velocities,
                       const Vec4Buffer& accelerations, float dt_seconds);
Status VerletKick(Vec4Buffer& velocities, const Vec4Buffer& accelerations, float dt_seconds);
Status CollideBox(Vec4Buffer& positions, Vec4Buffer& velocities, const BoxParams& params);
Status ApplyAttractor(const Vec4Buffer& positions, Vec4Buffer& velocities,
                      const AttractorParams& params);
Status AdvanceAge(FloatArray& ages, const FloatArray& lifetimes, ByteArray& dead, float dt_seconds);

}  // namespace swarm
