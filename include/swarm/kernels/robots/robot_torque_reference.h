// Scalar references for the torque-control kernels (swarm/kernels/robots/robot_torque.h): one
// element at a time with the same correctly rounded operations in the same order as
// kernels/robots/robot_torque-inl.h, so with -ffp-contract=off they agree with the kernels to the
// bit on every SIMD target. The batch versions have the kernels' signatures.
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_torque.h"

namespace swarm::reference {

// One joint: clamp(tau + (kp (target_q - q) + kd (target_qd - qd)), -effort, effort).
float AddPdTorque(const JointControl& joint, float q, float qd, float target_q, float target_qd,
                  float tau);
// One floating base: q = x y z qw qx qy qz, qd = vx vy vz wx wy wz (updated in place).
void IntegrateFloatingBase(const float qdd[6], float q[7], float qd[6], float dt);

void AddPdTorques(const JointControl* joints, size_t joint_count, const ConstLanesView& q,
                  const ConstLanesView& qd, const JointTargets& target, const LanesView& tau);
void PdAccelerations(const JointControl* joints, size_t joint_count, const ConstLanesView& q,
                     const ConstLanesView& qd, const JointTargets& target, const LanesView& a);
void ClampTorques(const JointControl* joints, size_t joint_count, const LanesView& tau);
// One actuator's force (before the gear takes it to the joint).
float ActuatorForce(const JointActuator& actuator, float q, float qd, float ctrl);
void ActuatorTorques(const JointActuator* actuators, size_t actuator_count,
                     const ConstLanesView& q_joints, const ConstLanesView& qd,
                     const ConstLanesView& ctrl, const LanesView& tau);
void IntegrateAccelerations(const ConstLanesView& qdd, const LanesView& q, const LanesView& qd,
                            float dt);
// The clamps as compare and select: end = v + a dt limited to [-max, max] (lower bound first),
// then a = (clamped - v) (1 / dt) where the clamp changed end (a NaN end stays NaN); the base's
// angular velocity scaled by max / |w + alpha dt| when faster.
void LimitSpeeds(const ConstLanesView& velocities, const LanesView& accelerations, float dt,
                 size_t base, float max_joint_speed, float max_base_angular_speed);
void IntegrateFloatingBase(const ConstLanesView& base_qdd, const LanesView& base_q,
                           const LanesView& base_qd, float dt);

void AdvanceFloatingBase(const ConstLanesView& base_q, const ConstLanesView& base_velocity,
                         float seconds, const LanesView& out);
void AddScaled(const ConstLanesView& a, const ConstLanesView& b, float scale, const LanesView& out);

}  // namespace swarm::reference
