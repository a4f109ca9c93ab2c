// Per-target code of the joint-control kernels (swarm/kernels/robots/robot_control.h). Each element
// is the fixed sequence of operations that kernels/robots/robot_control_reference.cc spells out in
// scalar code.
//
// Loops run joint by joint and, within a joint, over whole vectors of robots: the joint's gains
// and limits are broadcast once, and every array is read and written sequentially.
//
// Limits are compare-and-select (never Min/Max): a comparison with NaN is false, so a NaN torque,
// velocity or position passes through its clamp unchanged and stays NaN in that robot's lanes,
// while the other robots of the vector are unaffected. Infinite limits compare like any number,
// so +-infinity means "unlimited" with no special case.

#if defined(SWARM_KERNELS_ROBOT_CONTROL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_ROBOT_CONTROL_INL_H_
#undef SWARM_KERNELS_ROBOT_CONTROL_INL_H_
#else
#define SWARM_KERNELS_ROBOT_CONTROL_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_control.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// x limited to [low, high], low compared first (the order the references use).
template <class V>
HWY_INLINE V ClampBySelect(V x, V low, V high) {
  x = hn::IfThenElse(hn::Lt(x, low), low, x);
  return hn::IfThenElse(hn::Gt(x, high), high, x);
}

inline void PdTorquesImpl(const JointControl* joints, size_t joint_count, const ConstLanesView& q,
                          const ConstLanesView& qd, const ConstLanesView& target,
                          const LanesView& torque) {
  const hn::ScalableTag<float> d;
  for (size_t j = 0; j < joint_count; ++j) {
    const JointControl& joint = joints[j];
    const auto kp = hn::Set(d, joint.kp);
    const auto kd = hn::Set(d, joint.kd);
    const auto high = hn::Set(d, joint.effort_limit);
    const auto low = hn::Neg(high);
    const float* HWY_RESTRICT q_in = q.Array(j);
    const float* HWY_RESTRICT qd_in = qd.Array(j);
    const float* HWY_RESTRICT target_in = target.Array(j);
    float* HWY_RESTRICT torque_out = torque.Array(j);
    ForEachVector(d, torque.count, [&](size_t i, auto store) HWY_ATTR {
      const auto error = hn::Sub(hn::LoadU(d, target_in + i), hn::LoadU(d, q_in + i));
      const auto raw = hn::Sub(hn::Mul(kp, error), hn::Mul(kd, hn::LoadU(d, qd_in + i)));
      store(ClampBySelect(raw, low, high), d, torque_out + i);
    });
  }
}

// Semi-implicit (symplectic) Euler: the velocity is updated first and the position moves with the
// new velocity, which keeps a PD-driven joint stable for kp dt^2 < 4 where explicit Euler diverges
// for any kp. A position limit acts as an inelastic stop: the position is held at the limit and an
// outward velocity is removed, so the joint leaves the limit as soon as the controller pulls it
// back, with no stored momentum to push through first.
inline void IntegrateJointsImpl(const JointControl* joints, size_t joint_count,
                                const ConstLanesView& torque, const LanesView& q,
                                const LanesView& qd, float dt) {
  const hn::ScalableTag<float> d;
  const auto step = hn::Set(d, dt);
  const auto zero = hn::Zero(d);
  for (size_t j = 0; j < joint_count; ++j) {
    const JointControl& joint = joints[j];
    const auto velocity_gain = hn::Set(d, joint.inverse_inertia * dt);
    const auto velocity_high = hn::Set(d, joint.velocity_limit);
    const auto velocity_low = hn::Neg(velocity_high);
    const auto lower = hn::Set(d, joint.lower);
    const auto upper = hn::Set(d, joint.upper);
    const float* HWY_RESTRICT torque_in = torque.Array(j);
    float* HWY_RESTRICT q_io = q.Array(j);
    float* HWY_RESTRICT qd_io = qd.Array(j);
    ForEachVector(d, q.count, [&](size_t i, auto store) HWY_ATTR {
      auto velocity =
          hn::Add(hn::LoadU(d, qd_io + i), hn::Mul(hn::LoadU(d, torque_in + i), velocity_gain));
      velocity = ClampBySelect(velocity, velocity_low, velocity_high);
      auto position = hn::Add(hn::LoadU(d, q_io + i), hn::Mul(velocity, step));
      const auto below = hn::Lt(position, lower);
      position = hn::IfThenElse(below, lower, position);
      velocity = hn::IfThenElse(hn::And(below, hn::Lt(velocity, zero)), zero, velocity);
      const auto above = hn::Gt(position, upper);
      position = hn::IfThenElse(above, upper, position);
      velocity = hn::IfThenElse(hn::And(above, hn::Gt(velocity, zero)), zero, velocity);
      store(position, d, q_io + i);
      store(velocity, d, qd_io + i);
    });
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOT_CONTROL_INL_H_
