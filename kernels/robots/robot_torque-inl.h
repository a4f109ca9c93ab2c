// Per-target code of the torque-control kernels (swarm/kernels/robots/robot_torque.h). Each element
// is the fixed sequence of operations that kernels/robots/robot_torque_reference.cc spells out in
// scalar code. Loops run joint by joint and, within a joint, over whole vectors of robots.

#if defined(SWARM_KERNELS_ROBOT_TORQUE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_ROBOT_TORQUE_INL_H_
#undef SWARM_KERNELS_ROBOT_TORQUE_INL_H_
#else
#define SWARM_KERNELS_ROBOT_TORQUE_INL_H_
#endif

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

// Below the lower limit: k (lower - q) - c min(qd, 0); above the upper: k (upper - q) - c max(qd,
// 0); the min and max as selects. Infinite limits never trigger (q is finite).
inline void AddJointLimitForcesImpl(const JointControl* joints, size_t joint_count,
                                    const JointLimitSpring& spring, const ConstLanesView& q,
                                    const ConstLanesView& qd, const ConstLanesView& tau,
                                    const LanesView& out) {
  const hn::ScalableTag<float> d;
  const auto k = hn::Set(d, spring.stiffness), c = hn::Set(d, spring.damping);
  const auto zero = hn::Zero(d);
  for (size_t j = 0; j < joint_count; ++j) {
    const auto lower = hn::Set(d, joints[j].lower), upper = hn::Set(d, joints[j].upper);
    const float* HWY_RESTRICT q_in = q.Array(j);
    const float* HWY_RESTRICT qd_in = qd.Array(j);
    const float* tau_in = tau.Array(j);
    float* out_j = out.Array(j);
    ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
      const auto position = hn::LoadU(d, q_in + i), velocity = hn::LoadU(d, qd_in + i);
      const auto below = hn::Lt(position, lower), above = hn::Gt(position, upper);
      const auto limit = hn::IfThenElse(below, lower, upper);
      const auto inward =
          hn::IfThenElse(below, hn::IfThenElse(hn::Lt(velocity, zero), velocity, zero),
                         hn::IfThenElse(hn::Gt(velocity, zero), velocity, zero));
      const auto force = hn::Sub(hn::Mul(k, hn::Sub(limit, position)), hn::Mul(c, inward));
      const auto total = hn::Add(hn::LoadU(d, tau_in + i), force);
      store(hn::IfThenElse(hn::Or(below, above), total, hn::LoadU(d, tau_in + i)), d, out_j + i);
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
  const V hx = hn::Mul(wx, half_step), hy = hn::Mul(wy, half_step), hz = hn::Mul(wz, half_step);
  const V half_angle =
      hn::Sqrt(hn::Add(hn::Add(hn::Mul(hx, hx), hn::Mul(hy, hy)), hn::Mul(hz, hz)));
  const V scale = Sinc(d, half_angle);
  V nx, ny, nz, nw;
  Multiply(qx, qy, qz, qw, hn::Mul(hx, scale), hn::Mul(hy, scale), hn::Mul(hz, scale),
           Cos(d, half_angle), nx, ny, nz, nw);
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
    const auto load_qd = [&](size_t k) HWY_ATTR {
      return hn::Add(hn::LoadU(d, base_qd.Array(k) + i),
                     hn::Mul(hn::LoadU(d, base_qdd.Array(k) + i), step));
    };
    const V vx = load_qd(0), vy = load_qd(1), vz = load_qd(2);
    const V wx = load_qd(3), wy = load_qd(4), wz = load_qd(5);
    AdvanceBase(d, base_q, i, vx, vy, vz, wx, wy, wz, step, half_step, base_q, store);
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
