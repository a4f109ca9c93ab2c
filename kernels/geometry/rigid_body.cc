// Dispatch for the rigid-body kernels: compiled once per SIMD target; each exported entry checks
// its preconditions and picks the best supported target once per call.
#include "swarm/kernels/geometry/rigid_body.h"

#include <cmath>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/geometry/rigid_body-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/geometry/rigid_body-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(IntegrateRigidBodiesImpl);
HWY_EXPORT(WorldInverseInertiaImpl);

void IntegrateRigidBodies(const PoseView& poses, const ConstVec4View& linear_velocities,
                          const ConstVec4View& angular_velocities, float dt_seconds) {
  SWARM_ASSERT(poses.consistent() && linear_velocities.count == poses.count() &&
               angular_velocities.count == poses.count() && std::isfinite(dt_seconds) &&
               dt_seconds > 0.0f);
  HWY_DYNAMIC_DISPATCH(IntegrateRigidBodiesImpl)
  (poses, linear_velocities, angular_velocities, dt_seconds);
}

void WorldInverseInertia(const ConstVec4View& rotations, const ConstVec4View& inverse_body_inertia,
                         const Mat4View& out) {
  SWARM_ASSERT(rotations.count == out.count && inverse_body_inertia.count == out.count);
  HWY_DYNAMIC_DISPATCH(WorldInverseInertiaImpl)(rotations, inverse_body_inertia, out);
}

}  // namespace swarm
#endif  // HWY_ONCE
