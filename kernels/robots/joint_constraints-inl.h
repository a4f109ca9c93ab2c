// Per-target code of the joint constraint kernels (swarm/kernels/robots/joint_constraints.h). Each
// element is the fixed sequence of operations kernels/robots/joint_constraints_reference.cc spells
// out in scalar code. Loops run joint by joint and, within a joint, over whole vectors of robots.

#if defined(SWARM_KERNELS_ROBOTS_JOINT_CONSTRAINTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_ROBOTS_JOINT_CONSTRAINTS_INL_H_
#undef SWARM_KERNELS_ROBOTS_JOINT_CONSTRAINTS_INL_H_
#else
#define SWARM_KERNELS_ROBOTS_JOINT_CONSTRAINTS_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/robots/soft_constraint-inl.h"
#include "swarm/kernels/robots/joint_constraints.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One joint's limit row at (q, v) with the previous step's row force: the side (lower: s = +1),
// whether it is active, its coefficients and its explicit force f_e.
template <class D, class M = hn::Mask<D>, class V = hn::Vec<D>>
struct LimitRow {
  M lower_side, active;
  SoftRow<V> row;
  V explicit_force;
};

// Whether a row would end the step violated and deeper than it started,
// r + dt (v + dt a) < min(r, 0), with a the acceleration of a first solve without it: a joint that
// reaches its limit within the step, or one released while leaving (below) that turns back in.
template <class D, class V = hn::Vec<D>>
HWY_INLINE hn::Mask<D> CrossesInStep(D d, const SoftConstraintStep& limits, V r, V row_velocity,
                                     V row_acceleration) {
  const V dt = hn::Set(d, limits.dt);
  const V end = hn::Add(r, hn::Mul(dt, hn::Add(row_velocity, hn::Mul(dt, row_acceleration))));
  return hn::Lt(end, hn::Min(r, hn::Zero(d)));
}

// The activity rule: violated, unless leaving after a step whose force was not positive.
template <class D, class V = hn::Vec<D>>
HWY_INLINE hn::Mask<D> LimitActive(D d, V r, V row_velocity, V previous) {
  const V zero = hn::Zero(d);
  return hn::And(hn::Lt(r, zero), hn::Or(hn::Le(row_velocity, zero), hn::Gt(previous, zero)));
}

// `caught` (when `speculative`) is 1 for a row a solve of the step found crossing (CatchLimits).
template <class D, class V = hn::Vec<D>>
HWY_INLINE LimitRow<D> LimitRowAt(D d, const JointConstraint& joint,
                                  const SoftConstraintStep& limits, V q, V v, V previous,
                                  bool speculative, V caught) {
  const V zero = hn::Zero(d);
  const V below = hn::Sub(q, hn::Set(d, joint.lower));
  const V above = hn::Sub(hn::Set(d, joint.upper), q);
  LimitRow<D> out;
  out.lower_side = hn::Le(below, above);
  const V r = hn::IfThenElse(out.lower_side, below, above);
  const V row_velocity = hn::IfThenElse(out.lower_side, v, hn::Neg(v));
  out.active = LimitActive(d, r, row_velocity, previous);
  out.row = SoftRowAt(d, limits, r, hn::Set(d, joint.inverse_inertia0));
  // A joint moving deeper into its limit stops within the step (an inelastic stop): the row's
  // damping is m / dt there, which the virtual mass turns into v' = 0; at rest and while leaving it
  // is MuJoCo's, and the spring is MuJoCo's throughout (the steady state is MuJoCo's).
  const V inverse_dt = hn::Set(d, 1.0f / limits.dt);
  const SoftRow<V> impact{out.row.stiffness, hn::Mul(out.row.mass, inverse_dt), out.row.mass};
  out.explicit_force = hn::IfThenElse(hn::Lt(row_velocity, zero),
                                      SoftRowForce(impact, row_velocity, r),
                                      SoftRowForce(out.row, row_velocity, r));
  if (speculative) {
    // A caught row is hard, as Box2D's speculative contacts: its virtual mass steers the joint to
    // end the step at the limit (r >= 0) or no deeper (r < 0), v' = -max(r, 0) / dt, with
    // f_e = m (v' - v) / dt.
    const auto is_caught = hn::AndNot(out.active, hn::Gt(caught, zero));
    const V target = hn::Neg(hn::Mul(hn::Max(r, zero), inverse_dt));
    const V hard = hn::Mul(out.row.mass, hn::Mul(hn::Sub(target, row_velocity), inverse_dt));
    out.explicit_force = hn::IfThenElse(is_caught, hard, out.explicit_force);
    out.active = hn::Or(out.active, is_caught);
  }
  return out;
}

// friction eps^2 / (v^2 + eps^2)^(3/2): the slope of the smoothed Coulomb friction at v.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V FrictionSlope(D d, float friction, float eps, V v) {
  const V eps_squared = hn::Set(d, eps * eps);
  const V sum = hn::Add(hn::Mul(v, v), eps_squared);
  return hn::Div(hn::Mul(hn::Set(d, friction), eps_squared), hn::Mul(sum, hn::Sqrt(sum)));
}

inline void JointConstraintTermsImpl(const JointConstraint* joints, size_t count,
                                     const SoftConstraintStep& limits, float friction_velocity,
                                     const ConstLanesView& q, const ConstLanesView& qd,
                                     const ConstLanesView& previous_forces,
                                     const ConstLanesView& caught, const LanesView& tau,
                                     const LanesView& added) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  for (size_t j = 0; j < count; ++j) {
    const JointConstraint& joint = joints[j];
    const V dt_damping = hn::Set(d, limits.dt * joint.damping);
    const V dt = hn::Set(d, limits.dt);
    ForEachVector(d, tau.count, [&](size_t i, auto store) HWY_ATTR {
      const V v = hn::LoadU(d, qd.Array(j) + i);
      const bool speculative = caught.arrays > 0;
      const V flag = speculative ? hn::LoadU(d, caught.Array(j) + i) : hn::Zero(d);
      const auto limit =
          LimitRowAt(d, joint, limits, hn::LoadU(d, q.Array(j) + i), v,
                     hn::LoadU(d, previous_forces.Array(j) + i), speculative, flag);
      V inertia = dt_damping;
      if (joint.friction != 0.0f) {
        inertia = hn::Add(inertia, hn::Mul(dt, FrictionSlope(d, joint.friction,
                                                             friction_velocity, v)));
      }
      inertia = hn::Add(inertia, hn::IfThenElseZero(limit.active, limit.row.mass));
      store(inertia, d, added.Array(j) + i);
      const V torque = hn::LoadU(d, tau.Array(j) + i);
      const V push = hn::IfThenElse(limit.lower_side, limit.explicit_force,
                                    hn::Neg(limit.explicit_force));
      store(hn::IfThenElse(limit.active, hn::Add(torque, push), torque), d, tau.Array(j) + i);
    });
  }
}

inline void JointLimitForcesImpl(const JointConstraint* joints, size_t count,
                                 const SoftConstraintStep& limits, const ConstLanesView& q,
                                 const ConstLanesView& qd, const ConstLanesView& qdd,
                                 const ConstLanesView& caught, const LanesView& forces) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  for (size_t j = 0; j < count; ++j) {
    const JointConstraint& joint = joints[j];
    ForEachVector(d, forces.count, [&](size_t i, auto store) HWY_ATTR {
      const bool speculative = caught.arrays > 0;
      const V flag = speculative ? hn::LoadU(d, caught.Array(j) + i) : hn::Zero(d);
      const auto limit =
          LimitRowAt(d, joint, limits, hn::LoadU(d, q.Array(j) + i), hn::LoadU(d, qd.Array(j) + i),
                     hn::LoadU(d, forces.Array(j) + i), speculative, flag);
      const V a = hn::LoadU(d, qdd.Array(j) + i);
      const V row_acceleration = hn::IfThenElse(limit.lower_side, a, hn::Neg(a));
      const V force = hn::Sub(limit.explicit_force, hn::Mul(limit.row.mass, row_acceleration));
      store(hn::IfThenElseZero(limit.active, force), d, forces.Array(j) + i);
    });
  }
}

// caught |= 1 for every limit row that is inactive at the step's start and that the
// accelerations qdd make end the step violated and deeper than it started; whether any of the
// first `count` robots got a new one.
inline bool CatchLimitsImpl(const JointConstraint* joints, size_t joint_count,
                            const SoftConstraintStep& limits, const ConstLanesView& q,
                            const ConstLanesView& qd, const ConstLanesView& qdd,
                            const ConstLanesView& previous_forces, const LanesView& caught) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  bool changed = false;
  for (size_t j = 0; j < joint_count; ++j) {
    const JointConstraint& joint = joints[j];
    const V lower = hn::Set(d, joint.lower), upper = hn::Set(d, joint.upper);
    ForEachVector(d, q.count, [&](size_t i, auto store) HWY_ATTR {
      const V value = hn::LoadU(d, q.Array(j) + i);
      const V v = hn::LoadU(d, qd.Array(j) + i), a = hn::LoadU(d, qdd.Array(j) + i);
      const V previous = hn::LoadU(d, previous_forces.Array(j) + i);
      const V flag = hn::LoadU(d, caught.Array(j) + i);
      const V below = hn::Sub(value, lower), above = hn::Sub(upper, value);
      const auto lower_side = hn::Le(below, above);
      const V r = hn::IfThenElse(lower_side, below, above);
      const V row_velocity = hn::IfThenElse(lower_side, v, hn::Neg(v));
      const auto fresh = hn::AndNot(
          hn::Or(LimitActive(d, r, row_velocity, previous), hn::Gt(flag, hn::Zero(d))),
          CrossesInStep(d, limits, r, row_velocity, hn::IfThenElse(lower_side, a, hn::Neg(a))));
      const size_t valid = q.count - i < hn::Lanes(d) ? q.count - i : hn::Lanes(d);
      changed = changed || !hn::AllFalse(d, hn::And(fresh, hn::FirstN(d, valid)));
      store(hn::IfThenElse(fresh, hn::Set(d, 1.0f), flag), d, caught.Array(j) + i);
    });
  }
  return changed;
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOTS_JOINT_CONSTRAINTS_INL_H_
