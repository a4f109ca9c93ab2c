// Dispatch for the joint-control kernels (swarm/kernels/robots/robot_control.h): compiled once per
// SIMD target; each exported entry checks its preconditions and picks the best supported target
// once per call.
#include "swarm/kernels/robots/robot_control.h"

#include <cmath>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/robots/robot_control-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/robots/robot_control-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(PdTorquesImpl);
HWY_EXPORT(IntegrateJointsImpl);

namespace {

// The parameter ranges documented on JointControl; written so that NaN fails every test.
bool ValidJoint(const JointControl& joint) {
  return std::isfinite(joint.kp) && joint.kp >= 0.0f && std::isfinite(joint.kd) &&
         joint.kd >= 0.0f && joint.effort_limit > 0.0f && joint.velocity_limit > 0.0f &&
         joint.lower <= joint.upper && std::isfinite(joint.inverse_inertia) &&
         joint.inverse_inertia > 0.0f;
}

bool ValidJoints(const JointControl* joints, size_t joint_count) {
  if (joint_count != 0 && joints == nullptr) return false;
  for (size_t j = 0; j < joint_count; ++j) {
    if (!ValidJoint(joints[j])) return false;
  }
  return true;
}

}  // namespace

void PdTorques(const JointControl* joints, size_t joint_count, const ConstLanesView& q,
               const ConstLanesView& qd, const ConstLanesView& target, const LanesView& torque) {
  SWARM_ASSERT(SameCount(torque, q, qd, target));
  SWARM_ASSERT(q.arrays == joint_count && qd.arrays == joint_count &&
               target.arrays == joint_count && torque.arrays == joint_count);
  SWARM_ASSERT(ValidJoints(joints, joint_count));
  HWY_DYNAMIC_DISPATCH(PdTorquesImpl)(joints, joint_count, q, qd, target, torque);
}

void IntegrateJoints(const JointControl* joints, size_t joint_count, const ConstLanesView& torque,
                     const LanesView& q, const LanesView& qd, float dt) {
  SWARM_ASSERT(SameCount(q, qd, torque));
  SWARM_ASSERT(q.arrays == joint_count && qd.arrays == joint_count && torque.arrays == joint_count);
  SWARM_ASSERT(std::isfinite(dt) && dt > 0.0f);
  SWARM_ASSERT(ValidJoints(joints, joint_count));
  HWY_DYNAMIC_DISPATCH(IntegrateJointsImpl)(joints, joint_count, torque, q, qd, dt);
}

}  // namespace swarm
#endif  // HWY_ONCE
