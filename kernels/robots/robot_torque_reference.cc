// Scalar references for swarm/kernels/robots/robot_torque.h; the order of operations is the
// contract with kernels/robots/robot_torque-inl.h (see
// swarm/kernels/robots/robot_torque_reference.h).
#include "swarm/kernels/robots/robot_torque_reference.h"

#include <cmath>

#include "kernels/geometry/scalar_quaternion.h"
#include "swarm/kernels/base/deterministic_math_reference.h"

namespace swarm::reference {
namespace {

// x limited to [low, high] by compare and select, low first: NaN passes through unchanged.
float Clamp(float x, float low, float high) {
  x = x < low ? low : x;
  return x > high ? high : x;
}

float PdTerm(const JointControl& joint, float q, float qd, float target_q, float target_qd) {
  return joint.kp * (target_q - q) + joint.kd * (target_qd - qd);
}

}  // namespace

float AddPdTorque(const JointControl& joint, float q, float qd, float target_q, float target_qd,
                  float tau) {
  return Clamp(tau + PdTerm(joint, q, qd, target_q, target_qd), -joint.effort_limit,
               joint.effort_limit);
}

namespace {

// kernels/robots/robot_torque-inl.h StepRotation: exp(w step) with half_step = step / 2.
scalar_quaternion::Quat StepRotation(const float w[3], float half_step) {
  const float hx = w[0] * half_step, hy = w[1] * half_step, hz = w[2] * half_step;
  const float half_angle = std::sqrt((hx * hx + hy * hy) + hz * hz);
  const float scale = Sinc(half_angle);
  return {{hx * scale, hy * scale, hz * scale}, Cos(half_angle)};
}

// kernels/robots/robot_torque-inl.h AdvanceBase: q (7 values) moved for `step` at body velocity v.
void AdvanceBase(const float from[7], const float v[6], float step, float to[7]) {
  using scalar_quaternion::Multiply;
  using scalar_quaternion::Normalize;
  using scalar_quaternion::Quat;
  using scalar_quaternion::Rotate;
  using scalar_quaternion::Vec3;
  const Quat orientation = Normalize({{from[4], from[5], from[6]}, from[3]});
  const Vec3 shift = Rotate(orientation, {{v[0] * step, v[1] * step, v[2] * step}});
  float moved[7];
  for (int k = 0; k < 3; ++k) moved[k] = from[k] + shift.v[k];
  const Quat turned = Normalize(Multiply(orientation, StepRotation(v + 3, 0.5f * step)));
  moved[3] = turned.w, moved[4] = turned.v[0], moved[5] = turned.v[1], moved[6] = turned.v[2];
  for (int k = 0; k < 7; ++k) to[k] = moved[k];
}

}  // namespace

void IntegrateFloatingBase(const float qdd[6], float q[7], float qd[6], float dt) {
  // w x v with the kernel's Cross: (wy vz - wz vy, wz vx - wx vz, wx vy - wy vx).
  const float c[3] = {qd[4] * qd[2] - qd[5] * qd[1], qd[5] * qd[0] - qd[3] * qd[2],
                      qd[3] * qd[1] - qd[4] * qd[0]};
  float u[6];
  for (int k = 0; k < 3; ++k) u[k] = qd[k] + (qdd[k] + c[k]) * dt;
  for (int k = 3; k < 6; ++k) u[k] = qd[k] + qdd[k] * dt;
  AdvanceBase(q, u, dt, q);
  const scalar_quaternion::Quat s = StepRotation(u + 3, 0.5f * dt);
  const scalar_quaternion::Vec3 v =
      scalar_quaternion::Rotate({{-s.v[0], -s.v[1], -s.v[2]}, s.w}, {{u[0], u[1], u[2]}});
  for (int k = 0; k < 3; ++k) qd[k] = v.v[k];
  for (int k = 3; k < 6; ++k) qd[k] = u[k];
}

void AddPdTorques(const JointControl* joints, size_t joint_count, const ConstLanesView& q,
                  const ConstLanesView& qd, const JointTargets& target, const LanesView& tau) {
  for (size_t j = 0; j < joint_count; ++j) {
    for (size_t r = 0; r < tau.count; ++r) {
      tau.Array(j)[r] = AddPdTorque(joints[j], q.Array(j)[r], qd.Array(j)[r], target.q.Array(j)[r],
                                    target.qd.Array(j)[r], tau.Array(j)[r]);
    }
  }
}

void PdAccelerations(const JointControl* joints, size_t joint_count, const ConstLanesView& q,
                     const ConstLanesView& qd, const JointTargets& target, const LanesView& a) {
  for (size_t j = 0; j < joint_count; ++j) {
    for (size_t r = 0; r < a.count; ++r) {
      a.Array(j)[r] = target.qdd.Array(j)[r] + PdTerm(joints[j], q.Array(j)[r], qd.Array(j)[r],
                                                      target.q.Array(j)[r], target.qd.Array(j)[r]);
    }
  }
}

void ClampTorques(const JointControl* joints, size_t joint_count, const LanesView& tau) {
  for (size_t j = 0; j < joint_count; ++j) {
    for (size_t r = 0; r < tau.count; ++r) {
      tau.Array(j)[r] = Clamp(tau.Array(j)[r], -joints[j].effort_limit, joints[j].effort_limit);
    }
  }
}

float ActuatorForce(const JointActuator& actuator, float q, float qd, float ctrl) {
  const float input = Clamp(ctrl, actuator.ctrl_lower, actuator.ctrl_upper);
  const float length = actuator.gear * q;
  const float rate = actuator.gear * qd;
  const float force =
      ((actuator.gain * input + actuator.bias_constant) + actuator.bias_position * length) +
      actuator.bias_velocity * rate;
  return Clamp(force, actuator.force_lower, actuator.force_upper);
}

void ActuatorTorques(const JointActuator* actuators, size_t actuator_count,
                     const ConstLanesView& q_joints, const ConstLanesView& qd,
                     const ConstLanesView& ctrl, const LanesView& tau) {
  for (size_t j = 0; j < tau.arrays; ++j) {
    for (size_t r = 0; r < tau.count; ++r) tau.Array(j)[r] = 0.0f;
  }
  for (size_t a = 0; a < actuator_count; ++a) {
    const JointActuator& actuator = actuators[a];
    for (size_t r = 0; r < tau.count; ++r) {
      const float force = ActuatorForce(actuator, q_joints.Array(actuator.dof)[r],
                                        qd.Array(actuator.dof)[r], ctrl.Array(a)[r]);
      tau.Array(actuator.dof)[r] = tau.Array(actuator.dof)[r] + actuator.gear * force;
    }
  }
}

void IntegrateAccelerations(const ConstLanesView& qdd, const LanesView& q, const LanesView& qd,
                            float dt) {
  for (size_t j = 0; j < q.arrays; ++j) {
    for (size_t r = 0; r < q.count; ++r) {
      const float velocity = qd.Array(j)[r] + qdd.Array(j)[r] * dt;
      q.Array(j)[r] = q.Array(j)[r] + velocity * dt;
      qd.Array(j)[r] = velocity;
    }
  }
}

void LimitSpeeds(const ConstLanesView& velocities, const LanesView& accelerations, float dt,
                 size_t base, float max_joint_speed, float max_base_angular_speed) {
  const float inverse_step = 1.0f / dt;
  for (size_t k = base; k < accelerations.arrays; ++k) {
    for (size_t r = 0; r < accelerations.count; ++r) {
      const float v = velocities.Array(k)[r];
      float& a = accelerations.Array(k)[r];
      const float end = v + a * dt;
      const float clamped = Clamp(end, -max_joint_speed, max_joint_speed);
      if (!(clamped == end)) a = (clamped - v) * inverse_step;
    }
  }
  if (base == 0) return;
  for (size_t r = 0; r < accelerations.count; ++r) {
    float end[3];
    for (size_t k = 0; k < 3; ++k) {
      end[k] = velocities.Array(3 + k)[r] + accelerations.Array(3 + k)[r] * dt;
    }
    const float speed = std::sqrt((end[0] * end[0] + end[1] * end[1]) + end[2] * end[2]);
    if (!(speed > max_base_angular_speed)) continue;
    const float scale = max_base_angular_speed / speed;
    for (size_t k = 0; k < 3; ++k) {
      accelerations.Array(3 + k)[r] = (end[k] * scale - velocities.Array(3 + k)[r]) * inverse_step;
    }
  }
}

void IntegrateFloatingBase(const ConstLanesView& base_qdd, const LanesView& base_q,
                           const LanesView& base_qd, float dt) {
  for (size_t r = 0; r < base_q.count; ++r) {
    float qdd[6], q[7], qd[6];
    for (size_t k = 0; k < 6; ++k) qdd[k] = base_qdd.Array(k)[r], qd[k] = base_qd.Array(k)[r];
    for (size_t k = 0; k < 7; ++k) q[k] = base_q.Array(k)[r];
    IntegrateFloatingBase(qdd, q, qd, dt);
    for (size_t k = 0; k < 6; ++k) base_qd.Array(k)[r] = qd[k];
    for (size_t k = 0; k < 7; ++k) base_q.Array(k)[r] = q[k];
  }
}

void AdvanceFloatingBase(const ConstLanesView& base_q, const ConstLanesView& base_velocity,
                         float seconds, const LanesView& out) {
  for (size_t r = 0; r < out.count; ++r) {
    float from[7], v[6], to[7];
    for (size_t k = 0; k < 7; ++k) from[k] = base_q.Array(k)[r];
    for (size_t k = 0; k < 6; ++k) v[k] = base_velocity.Array(k)[r];
    AdvanceBase(from, v, seconds, to);
    for (size_t k = 0; k < 7; ++k) out.Array(k)[r] = to[k];
  }
}

void AddScaled(const ConstLanesView& a, const ConstLanesView& b, float scale,
               const LanesView& out) {
  for (size_t k = 0; k < out.arrays; ++k) {
    for (size_t r = 0; r < out.count; ++r) {
      out.Array(k)[r] = a.Array(k)[r] + b.Array(k)[r] * scale;
    }
  }
}

}  // namespace swarm::reference
