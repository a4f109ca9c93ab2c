// Per-target code of the torque-control kernels (swarm/kernels/robots/robot_torque.h). Each element
// is the fixed sequence of operations that kernels/robots/robot_torque_reference.cc spells out in
// scalar code. Loops run joint by joint and, within a joint, over whole vectors of robots.

#if defined(SWARM_KERNELS_ROBOT_TORQUE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_ROBOT_TORQUE_INL_H_
#undef SWARM_KERNELS_ROBOT_TORQUE_INL_H_
#else
#define SWARM_KERNELS_ROBOT_TORQUE_INL_H_
#endif

#include <algorithm>
#include <cstddef>

#include "hwy/highway.h"
#include "kernels/base/deterministic_math-inl.h"
#include "kernels/base/loop-inl.h"
#include "kernels/geometry/quaternion_math-inl.h"
#include "kernels/robots/robot_control-inl.h"
#include "swarm/kernels/robots/robot_torque.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// kp (target_q - q) + kd (target_qd - qd).
template <class V>
HWY_INLINE V PdTerm(V kp, V kd, V q, V qd, V target_q, V target_qd) {
  return hn::Add(hn::Mul(kp, hn::Sub(target_q, q)), hn::Mul(kd, hn::Sub(target_qd, qd)));
}

inline void AddPdTorquesImpl(const JointControl* joints, size_t joint_count,
                             const ConstLanesView& q, const ConstLanesView& qd,
                             const JointTargets& target, const LanesView& tau) {
  const hn::ScalableTag<float> d;
  for (size_t j = 0; j < joint_count; ++j) {
    const auto kp = hn::Set(d, joints[j].kp), kd = hn::Set(d, joints[j].kd);
    const auto high = hn::Set(d, joints[j].effort_limit);
    const auto low = hn::Neg(high);
    const float* HWY_RESTRICT q_in = q.Array(j);
    const float* HWY_RESTRICT qd_in = qd.Array(j);
    const float* HWY_RESTRICT target_q = target.q.Array(j);
    const float* HWY_RESTRICT target_qd = target.qd.Array(j);
    float* HWY_RESTRICT tau_io = tau.Array(j);
    ForEachVector(d, tau.count, [&](size_t i, auto store) HWY_ATTR {
      const auto pd = PdTerm(kp, kd, hn::LoadU(d, q_in + i), hn::LoadU(d, qd_in + i),
                             hn::LoadU(d, target_q + i), hn::LoadU(d, target_qd + i));
      store(ClampBySelect(hn::Add(hn::LoadU(d, tau_io + i), pd), low, high), d, tau_io + i);
    });
  }
}

inline void PdAccelerationsImpl(const JointControl* joints, size_t joint_count,
                                const ConstLanesView& q, const ConstLanesView& qd,
                                const JointTargets& target, const LanesView& a) {
  const hn::ScalableTag<float> d;
  for (size_t j = 0; j < joint_count; ++j) {
    const auto kp = hn::Set(d, joints[j].kp), kd = hn::Set(d, joints[j].kd);
    const float* HWY_RESTRICT q_in = q.Array(j);
    const float* HWY_RESTRICT qd_in = qd.Array(j);
    const float* HWY_RESTRICT target_q = target.q.Array(j);
    const float* HWY_RESTRICT target_qd = target.qd.Array(j);
    const float* HWY_RESTRICT target_qdd = target.qdd.Array(j);
    float* HWY_RESTRICT a_out = a.Array(j);
    ForEachVector(d, a.count, [&](size_t i, auto store) HWY_ATTR {
      const auto pd = PdTerm(kp, kd, hn::LoadU(d, q_in + i), hn::LoadU(d, qd_in + i),
                             hn::LoadU(d, target_q + i), hn::LoadU(d, target_qd + i));
      store(hn::Add(hn::LoadU(d, target_qdd + i), pd), d, a_out + i);
    });
  }
}

inline void ActuatorTorquesImpl(const JointActuator* actuators, size_t actuator_count,
                                const ConstLanesView& q_joints, const ConstLanesView& qd,
                                const ConstLanesView& ctrl, const LanesView& tau) {
  const hn::ScalableTag<float> d;
  for (size_t j = 0; j < tau.arrays; ++j) std::fill_n(tau.Array(j), tau.count, 0.0f);
  for (size_t a = 0; a < actuator_count; ++a) {
    const JointActuator& actuator = actuators[a];
    const auto gear = hn::Set(d, actuator.gear), gain = hn::Set(d, actuator.gain);
    const auto constant = hn::Set(d, actuator.bias_constant);
    const auto position = hn::Set(d, actuator.bias_position);
    const auto velocity = hn::Set(d, actuator.bias_velocity);
    const auto ctrl_low = hn::Set(d, actuator.ctrl_lower);
    const auto ctrl_high = hn::Set(d, actuator.ctrl_upper);
    const auto force_low = hn::Set(d, actuator.force_lower);
    const auto force_high = hn::Set(d, actuator.force_upper);
    const float* HWY_RESTRICT q_in = q_joints.Array(actuator.dof);
    const float* HWY_RESTRICT qd_in = qd.Array(actuator.dof);
    const float* HWY_RESTRICT ctrl_in = ctrl.Array(a);
    float* HWY_RESTRICT tau_io = tau.Array(actuator.dof);
    ForEachVector(d, tau.count, [&](size_t i, auto store) HWY_ATTR {
      const auto input = ClampBySelect(hn::LoadU(d, ctrl_in + i), ctrl_low, ctrl_high);
      const auto length = hn::Mul(gear, hn::LoadU(d, q_in + i));
      const auto rate = hn::Mul(gear, hn::LoadU(d, qd_in + i));
      const auto force =
          hn::Add(hn::Add(hn::Add(hn::Mul(gain, input), constant), hn::Mul(position, length)),
                  hn::Mul(velocity, rate));
      const auto clamped = ClampBySelect(force, force_low, force_high);
      store(hn::Add(hn::LoadU(d, tau_io + i), hn::Mul(gear, clamped)), d, tau_io + i);
    });
  }
}

inline void ClampTorquesImpl(const JointControl* joints, size_t joint_count, const LanesView& tau) {
  const hn::ScalableTag<float> d;
  for (size_t j = 0; j < joint_count; ++j) {
    const auto high = hn::Set(d, joints[j].effort_limit);
    const auto low = hn::Neg(high);
    float* HWY_RESTRICT tau_io = tau.Array(j);
    ForEachVector(d, tau.count, [&](size_t i, auto store) HWY_ATTR {
      store(ClampBySelect(hn::LoadU(d, tau_io + i), low, high), d, tau_io + i);
    });
  }
}

inline void IntegrateAccelerationsImpl(const ConstLanesView& qdd, const LanesView& q,
                                       const LanesView& qd, float dt) {
  const hn::ScalableTag<float> d;
  const auto step = hn::Set(d, dt);
  for (size_t j = 0; j < q.arrays; ++j) {
    const float* HWY_RESTRICT qdd_in = qdd.Array(j);
    float* HWY_RESTRICT q_io = q.Array(j);
    float* HWY_RESTRICT qd_io = qd.Array(j);
    ForEachVector(d, q.count, [&](size_t i, auto store) HWY_ATTR {
      const auto velocity =
          hn::Add(hn::LoadU(d, qd_io + i), hn::Mul(hn::LoadU(d, qdd_in + i), step));
      store(hn::Add(hn::LoadU(d, q_io + i), hn::Mul(velocity, step)), d, q_io + i);
      store(velocity, d, qd_io + i);
    });
  }
}

inline void LimitSpeedsImpl(const ConstLanesView& velocities, const LanesView& accelerations,
                            float dt, size_t base, float max_joint_speed,
                            float max_base_angular_speed) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const V step = hn::Set(d, dt), inverse_step = hn::Div(hn::Set(d, 1.0f), step);
  const V limit = hn::Set(d, max_joint_speed);
  for (size_t k = base; k < accelerations.arrays; ++k) {
    ForEachVector(d, accelerations.count, [&](size_t i, auto store) HWY_ATTR {
      const V v = hn::LoadU(d, velocities.Array(k) + i);
      const V a = hn::LoadU(d, accelerations.Array(k) + i);
      const V end = hn::Add(v, hn::Mul(a, step));
      // Compare and select, not Min/Max (whose NaN rules differ by ISA): a NaN stays NaN.
      const V clamped = ClampBySelect(end, hn::Neg(limit), limit);
      const V fixed = hn::Mul(hn::Sub(clamped, v), inverse_step);
      store(hn::IfThenElse(hn::Eq(clamped, end), a, fixed), d, accelerations.Array(k) + i);
    });
  }
  if (base == 0) return;
  const V angular_limit = hn::Set(d, max_base_angular_speed);
  ForEachVector(d, accelerations.count, [&](size_t i, auto store) HWY_ATTR {
    const auto w = [&](size_t k) HWY_ATTR { return hn::LoadU(d, velocities.Array(k) + i); };
    const auto alpha = [&](size_t k) HWY_ATTR { return hn::LoadU(d, accelerations.Array(k) + i); };
    const V ex = hn::Add(w(3), hn::Mul(alpha(3), step));
    const V ey = hn::Add(w(4), hn::Mul(alpha(4), step));
    const V ez = hn::Add(w(5), hn::Mul(alpha(5), step));
    const V speed = hn::Sqrt(hn::Add(hn::Add(hn::Mul(ex, ex), hn::Mul(ey, ey)), hn::Mul(ez, ez)));
    const auto fast = hn::Gt(speed, angular_limit);
    const V scale = hn::Div(angular_limit, hn::IfThenElse(fast, speed, angular_limit));
    const auto put = [&](size_t k, V end) HWY_ATTR {
      const V fixed = hn::Mul(hn::Sub(hn::Mul(end, scale), w(k)), inverse_step);
      store(hn::IfThenElse(fast, fixed, alpha(k)), d, accelerations.Array(k) + i);
    };
    put(3, ex), put(4, ey), put(5, ez);
  });
}

// exp(w step) as a quaternion: (sinc(|h|) h, cos(|h|)), h = w half_step.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void StepRotation(D d, V wx, V wy, V wz, V half_step, V& sx, V& sy, V& sz, V& sw) {
  const V hx = hn::Mul(wx, half_step), hy = hn::Mul(wy, half_step), hz = hn::Mul(wz, half_step);
  const V half_angle =
      hn::Sqrt(hn::Add(hn::Add(hn::Mul(hx, hx), hn::Mul(hy, hy)), hn::Mul(hz, hz)));
  const V scale = Sinc(d, half_angle);
  sx = hn::Mul(hx, scale), sy = hn::Mul(hy, scale), sz = hn::Mul(hz, scale);
  sw = Cos(d, half_angle);
}

// The base pose at lane i of `from` (x y z qw qx qy qz) moved for `step` seconds at the body
// velocity (v, w): position p + R v step, orientation normalise(q exp(w step)) with
// exp(w step) = (sinc(|h|) h, cos(|h|)), h = w half_step (half_step = 0.5 step, rounded once).
// Stored into `to`, which may be `from` (each value is loaded before it is stored).
template <class D, class Store, class V = hn::Vec<D>>
HWY_INLINE void AdvanceBase(D d, const ConstLanesView& from, size_t i, V vx, V vy, V vz, V wx, V wy,
                            V wz, V step, V half_step, const LanesView& to, Store store) {
  V qx, qy, qz, qw;  // normalised first: a user may set any non-zero quaternion
  Normalize(hn::LoadU(d, from.Array(4) + i), hn::LoadU(d, from.Array(5) + i),
            hn::LoadU(d, from.Array(6) + i), hn::LoadU(d, from.Array(3) + i), qx, qy, qz, qw);
  V rx, ry, rz;
  Rotate(qx, qy, qz, qw, hn::Mul(vx, step), hn::Mul(vy, step), hn::Mul(vz, step), rx, ry, rz);
  store(hn::Add(hn::LoadU(d, from.Array(0) + i), rx), d, to.Array(0) + i);
  store(hn::Add(hn::LoadU(d, from.Array(1) + i), ry), d, to.Array(1) + i);
  store(hn::Add(hn::LoadU(d, from.Array(2) + i), rz), d, to.Array(2) + i);
  V sx, sy, sz, sw;
  StepRotation(d, wx, wy, wz, half_step, sx, sy, sz, sw);
  V nx, ny, nz, nw;
  Multiply(qx, qy, qz, qw, sx, sy, sz, sw, nx, ny, nz, nw);
  Normalize(nx, ny, nz, nw, nx, ny, nz, nw);
  store(nw, d, to.Array(3) + i);
  store(nx, d, to.Array(4) + i);
  store(ny, d, to.Array(5) + i);
  store(nz, d, to.Array(6) + i);
}

inline void IntegrateFloatingBaseImpl(const ConstLanesView& base_qdd, const LanesView& base_q,
                                      const LanesView& base_qd, float dt) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const V step = hn::Set(d, dt), half_step = hn::Set(d, 0.5f * dt);
  ForEachVector(d, base_q.count, [&](size_t i, auto store) HWY_ATTR {
    const auto qd = [&](size_t k) HWY_ATTR { return hn::LoadU(d, base_qd.Array(k) + i); };
    const auto qdd = [&](size_t k) HWY_ATTR { return hn::LoadU(d, base_qdd.Array(k) + i); };
    // u = v + dt (qdd + w x v): the new velocity of the base origin in the old base frame (qdd's
    // linear part holds -w x v, the turning of the frame, which is applied exactly below).
    V cx, cy, cz;
    Cross(qd(3), qd(4), qd(5), qd(0), qd(1), qd(2), cx, cy, cz);
    const V ux = hn::Add(qd(0), hn::Mul(hn::Add(qdd(0), cx), step));
    const V uy = hn::Add(qd(1), hn::Mul(hn::Add(qdd(1), cy), step));
    const V uz = hn::Add(qd(2), hn::Mul(hn::Add(qdd(2), cz), step));
    const V wx = hn::Add(qd(3), hn::Mul(qdd(3), step));
    const V wy = hn::Add(qd(4), hn::Mul(qdd(4), step));
    const V wz = hn::Add(qd(5), hn::Mul(qdd(5), step));
    AdvanceBase(d, base_q, i, ux, uy, uz, wx, wy, wz, step, half_step, base_q, store);
    // v = exp(w dt)^T u: u in the new base frame, a rotation (norm kept).
    V sx, sy, sz, sw;
    StepRotation(d, wx, wy, wz, half_step, sx, sy, sz, sw);
    V vx, vy, vz;
    Rotate(hn::Neg(sx), hn::Neg(sy), hn::Neg(sz), sw, ux, uy, uz, vx, vy, vz);
    store(vx, d, base_qd.Array(0) + i), store(vy, d, base_qd.Array(1) + i);
    store(vz, d, base_qd.Array(2) + i), store(wx, d, base_qd.Array(3) + i);
    store(wy, d, base_qd.Array(4) + i), store(wz, d, base_qd.Array(5) + i);
  });
}

inline void AdvanceFloatingBaseImpl(const ConstLanesView& base_q,
                                    const ConstLanesView& base_velocity, float seconds,
                                    const LanesView& out) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const V step = hn::Set(d, seconds), half_step = hn::Set(d, 0.5f * seconds);
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    const auto v = [&](size_t k) HWY_ATTR { return hn::LoadU(d, base_velocity.Array(k) + i); };
    AdvanceBase(d, base_q, i, v(0), v(1), v(2), v(3), v(4), v(5), step, half_step, out, store);
  });
}

inline void AddScaledImpl(const ConstLanesView& a, const ConstLanesView& b, float scale,
                          const LanesView& out) {
  const hn::ScalableTag<float> d;
  const auto factor = hn::Set(d, scale);
  for (size_t k = 0; k < out.arrays; ++k) {
    const float* a_in = a.Array(k);
    const float* b_in = b.Array(k);
    float* out_k = out.Array(k);
    ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
      store(hn::Add(hn::LoadU(d, a_in + i), hn::Mul(hn::LoadU(d, b_in + i), factor)), d, out_k + i);
    });
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOT_TORQUE_INL_H_
