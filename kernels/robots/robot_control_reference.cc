// Scalar references for swarm/kernels/robots/robot_control.h; the order of operations is the
// contract with kernels/robots/robot_control-inl.h (see
// swarm/kernels/robots/robot_control_reference.h).
#include "swarm/kernels/robots/robot_control_reference.h"

namespace swarm::reference {

namespace {

// x limited to [low, high] by compare and select, low first: NaN passes through unchanged.
float Clamp(float x, float low, float high) {
  x = x < low ? low : x;
  return x > high ? high : x;
}

}  // namespace

float PdTorque(const JointControl& joint, float q, float qd, float target) {
  const float torque = joint.kp * (target - q) - joint.kd * qd;
  return Clamp(torque, -joint.effort_limit, joint.effort_limit);
}

void IntegrateJoint(const JointControl& joint, float torque, float dt, float& q, float& qd) {
  const float velocity_gain = joint.inverse_inertia * dt;
  float velocity = Clamp(qd + torque * velocity_gain, -joint.velocity_limit, joint.velocity_limit);
  float position = q + velocity * dt;
  if (position < joint.lower) {
    position = joint.lower;
    velocity = velocity < 0.0f ? 0.0f : velocity;
  }
  if (position > joint.upper) {
    position = joint.upper;
    velocity = velocity > 0.0f ? 0.0f : velocity;
  }
  q = position;
  qd = velocity;
}

void PdTorques(const JointControl* joints, size_t joint_count, const ConstLanesView& q,
               const ConstLanesView& qd, const ConstLanesView& target, const LanesView& torque) {
  for (size_t j = 0; j < joint_count; ++j) {
    for (size_t r = 0; r < torque.count; ++r) {
      torque.Array(j)[r] = PdTorque(joints[j], q.Array(j)[r], qd.Array(j)[r], target.Array(j)[r]);
    }
  }
}

void IntegrateJoints(const JointControl* joints, size_t joint_count, const ConstLanesView& torque,
                     const LanesView& q, const LanesView& qd, float dt) {
  for (size_t j = 0; j < joint_count; ++j) {
    for (size_t r = 0; r < q.count; ++r) {
      IntegrateJoint(joints[j], torque.Array(j)[r], dt, q.Array(j)[r], qd.Array(j)[r]);
    }
  }
}

}  // namespace swarm::reference
