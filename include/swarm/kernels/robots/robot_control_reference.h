// Scalar references for the joint-control kernels (swarm/kernels/robots/robot_control.h): one joint
// of one robot at a time, with the same correctly rounded operations in the same order as
// kernels/robots/robot_control-inl.h, so with -ffp-contract=off they agree with the kernels to the
// bit on every SIMD target. The batch versions have the kernels' signatures, for tests, benchmarks
// and a scalar backend.
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_control.h"

namespace swarm::reference {

// clamp(kp * (target - q) - kd * qd, -effort_limit, effort_limit), the products rounded
// separately. A NaN input gives a NaN torque (the clamp compares are false for NaN).
float PdTorque(const JointControl& joint, float q, float qd, float target);

// One semi-implicit Euler step of one joint with its velocity and position limits:
//   qd += torque * (inverse_inertia * dt)     (the parenthesised product is rounded once per call)
//   qd  = clamp(qd, -velocity_limit, velocity_limit)
//   q  += qd * dt
//   q < lower: q = lower and qd = 0 if qd < 0;  q > upper: q = upper and qd = 0 if qd > 0.
void IntegrateJoint(const JointControl& joint, float torque, float dt, float& q, float& qd);

// The batch kernels, element by element.
void PdTorques(const JointControl* joints, size_t joint_count, const ConstLanesView& q,
               const ConstLanesView& qd, const ConstLanesView& target, const LanesView& torque);
void IntegrateJoints(const JointControl* joints, size_t joint_count, const ConstLanesView& torque,
                     const LanesView& q, const LanesView& qd, float dt);

}  // namespace swarm::reference
