// Dispatch for the torque-control kernels (swarm/kernels/robots/robot_torque.h): compiled once per
// SIMD target; each exported entry checks its preconditions and picks the best supported target
// once per call.
#include "swarm/kernels/robots/robot_torque.h"

#include <cmath>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/robots/robot_torque-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/robots/robot_torque-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(AddPdTorquesImpl);
HWY_EXPORT(PdAccelerationsImpl);
HWY_EXPORT(ClampTorquesImpl);
HWY_EXPORT(ActuatorTorquesImpl);
HWY_EXPORT(IntegrateAccelerationsImpl);
HWY_EXPORT(IntegrateFloatingBaseImpl);
HWY_EXPORT(AdvanceFloatingBaseImpl);
HWY_EXPORT(AddScaledImpl);
HWY_EXPORT(LimitSpeedsImpl);

namespace {

bool ValidJoints(const JointControl* joints, size_t joint_count) {
  if (joint_count != 0 && joints == nullptr) return false;
  for (size_t j = 0; j < joint_count; ++j) {
    const JointControl& joint = joints[j];
    const bool valid = std::isfinite(joint.kp) && joint.kp >= 0.0f && std::isfinite(joint.kd) &&
                       joint.kd >= 0.0f && joint.effort_limit > 0.0f && joint.lower <= joint.upper;
    if (!valid) return false;
  }
  return true;
}

bool ValidDt(float dt) { return std::isfinite(dt) && dt > 0.0f; }

}  // namespace

void AddPdTorques(const JointControl* joints, size_t joint_count, const ConstLanesView& q,
                  const ConstLanesView& qd, const JointTargets& target, const LanesView& tau) {
  SWARM_ASSERT(SameCount(tau, q, qd, target.q, target.qd) && ValidJoints(joints, joint_count));
  SWARM_ASSERT(q.arrays == joint_count && qd.arrays == joint_count &&
               target.q.arrays == joint_count && target.qd.arrays == joint_count &&
               tau.arrays == joint_count);
  HWY_DYNAMIC_DISPATCH(AddPdTorquesImpl)(joints, joint_count, q, qd, target, tau);
}

void PdAccelerations(const JointControl* joints, size_t joint_count, const ConstLanesView& q,
                     const ConstLanesView& qd, const JointTargets& target, const LanesView& a) {
  SWARM_ASSERT(SameCount(a, q, qd, target.q, target.qd, target.qdd) &&
               ValidJoints(joints, joint_count));
  SWARM_ASSERT(q.arrays == joint_count && qd.arrays == joint_count &&
               target.q.arrays == joint_count && target.qd.arrays == joint_count &&
               target.qdd.arrays == joint_count && a.arrays == joint_count);
  HWY_DYNAMIC_DISPATCH(PdAccelerationsImpl)(joints, joint_count, q, qd, target, a);
}

bool ValidJointActuator(const JointActuator& actuator) {
  return std::isfinite(actuator.gear) && std::isfinite(actuator.gain) &&
         std::isfinite(actuator.bias_constant) && std::isfinite(actuator.bias_position) &&
         std::isfinite(actuator.bias_velocity) && actuator.bias_velocity <= 0.0f &&
         actuator.ctrl_lower <= actuator.ctrl_upper && actuator.force_lower <= actuator.force_upper;
}

void ActuatorTorques(const JointActuator* actuators, size_t actuator_count,
                     const ConstLanesView& q_joints, const ConstLanesView& qd,
                     const ConstLanesView& ctrl, const LanesView& tau) {
  SWARM_ASSERT(SameCount(tau, q_joints, qd, ctrl) && q_joints.arrays == tau.arrays &&
               qd.arrays == tau.arrays && ctrl.arrays == actuator_count &&
               (actuator_count == 0 || actuators != nullptr));
  for (size_t a = 0; a < actuator_count; ++a) {
    SWARM_ASSERT(ValidJointActuator(actuators[a]) && actuators[a].dof < tau.arrays);
  }
  HWY_DYNAMIC_DISPATCH(ActuatorTorquesImpl)(actuators, actuator_count, q_joints, qd, ctrl, tau);
}

void ClampTorques(const JointControl* joints, size_t joint_count, const LanesView& tau) {
  SWARM_ASSERT(ValidJoints(joints, joint_count) && tau.arrays == joint_count);
  HWY_DYNAMIC_DISPATCH(ClampTorquesImpl)(joints, joint_count, tau);
}

void IntegrateAccelerations(const ConstLanesView& qdd, const LanesView& q, const LanesView& qd,
                            float dt) {
  SWARM_ASSERT(SameCount(q, qd, qdd) && q.arrays == qd.arrays && q.arrays == qdd.arrays);
  SWARM_ASSERT(ValidDt(dt));
  HWY_DYNAMIC_DISPATCH(IntegrateAccelerationsImpl)(qdd, q, qd, dt);
}

void IntegrateFloatingBase(const ConstLanesView& base_qdd, const LanesView& base_q,
                           const LanesView& base_qd, float dt) {
  SWARM_ASSERT(SameCount(base_q, base_qd, base_qdd) && base_q.arrays == 7 && base_qd.arrays == 6 &&
               base_qdd.arrays == 6);
  SWARM_ASSERT(ValidDt(dt));
  HWY_DYNAMIC_DISPATCH(IntegrateFloatingBaseImpl)(base_qdd, base_q, base_qd, dt);
}

void AdvanceFloatingBase(const ConstLanesView& base_q, const ConstLanesView& base_velocity,
                         float seconds, const LanesView& out) {
  SWARM_ASSERT(SameCount(out, base_q, base_velocity) && base_q.arrays == 7 &&
               base_velocity.arrays == 6 && out.arrays == 7);
  SWARM_ASSERT(std::isfinite(seconds));
  HWY_DYNAMIC_DISPATCH(AdvanceFloatingBaseImpl)(base_q, base_velocity, seconds, out);
}

void LimitSpeeds(const ConstLanesView& velocities, const LanesView& accelerations, float dt,
                 size_t base, float max_joint_speed, float max_base_angular_speed) {
  SWARM_ASSERT(SameCount(velocities, accelerations) && velocities.arrays == accelerations.arrays);
  SWARM_ASSERT(ValidDt(dt) && (base == 0 || (base == 6 && accelerations.arrays >= 6)));
  SWARM_ASSERT(max_joint_speed > 0.0f && max_base_angular_speed > 0.0f);
  HWY_DYNAMIC_DISPATCH(LimitSpeedsImpl)
  (velocities, accelerations, dt, base, max_joint_speed, max_base_angular_speed);
}

void AddScaled(const ConstLanesView& a, const ConstLanesView& b, float scale,
               const LanesView& out) {
  SWARM_ASSERT(SameCount(out, a, b) && a.arrays == out.arrays && b.arrays == out.arrays);
  SWARM_ASSERT(std::isfinite(scale));
  HWY_DYNAMIC_DISPATCH(AddScaledImpl)(a, b, scale, out);
}

}  // namespace swarm
#endif  // HWY_ONCE
