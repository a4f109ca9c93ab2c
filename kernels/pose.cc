// Dispatch for the pose and rigid-body kernels: compiled once per SIMD target; each exported entry
// checks its preconditions and picks the best supported target once per call.
#include "kernels/pose.h"

#include <cmath>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/pose-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/pose-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(ComposePosesImpl);
HWY_EXPORT(InvertPosesImpl);
HWY_EXPORT(RelativePosesImpl);
HWY_EXPORT(TransformPointsByPosesImpl);
HWY_EXPORT(IntegrateRigidBodiesImpl);
HWY_EXPORT(WorldInverseInertiaImpl);

namespace {

// A pose view's two halves must describe the same elements.
bool Consistent(const ConstPoseView& pose) { return pose.rotation.count == pose.translation.count; }

}  // namespace

void ComposePoses(const ConstPoseView& a, const ConstPoseView& b, const PoseView& out) {
  SWARM_ASSERT(Consistent(a) && Consistent(b) && Consistent(out) && a.count() == out.count() &&
               b.count() == out.count());
  HWY_DYNAMIC_DISPATCH(ComposePosesImpl)(a, b, out);
}

void InvertPoses(const ConstPoseView& poses, const PoseView& out) {
  SWARM_ASSERT(Consistent(poses) && Consistent(out) && poses.count() == out.count());
  HWY_DYNAMIC_DISPATCH(InvertPosesImpl)(poses, out);
}

void RelativePoses(const ConstPoseView& a, const ConstPoseView& b, const PoseView& relative) {
  SWARM_ASSERT(Consistent(a) && Consistent(b) && Consistent(relative) &&
               a.count() == relative.count() && b.count() == relative.count());
  HWY_DYNAMIC_DISPATCH(RelativePosesImpl)(a, b, relative);
}

void TransformPointsByPoses(const ConstPoseView& poses, const ConstVec4View& points,
                            const Vec4View& out) {
  SWARM_ASSERT(Consistent(poses) && poses.count() == out.count && points.count == out.count);
  HWY_DYNAMIC_DISPATCH(TransformPointsByPosesImpl)(poses, points, out);
}

void IntegrateRigidBodies(const PoseView& poses, const ConstVec4View& linear_velocities,
                          const ConstVec4View& angular_velocities, float dt_seconds) {
  SWARM_ASSERT(Consistent(poses) && linear_velocities.count == poses.count() &&
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
