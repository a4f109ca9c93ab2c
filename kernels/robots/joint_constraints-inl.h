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

// One joint's limit row at (q, v) with the step's flag (soft_constraint.h): the side (lower: s =
// +1), whether it is active, its coefficients and its explicit force f_e.
template <class D, class M = hn::Mask<D>, class V = hn::Vec<D>>
struct LimitRow {
  M lower_side, active;
  V r, row_velocity;
  SoftRow<V> row;
  V explicit_force;
};

// Whether a row would end the step violated and deeper than it started,
// r + dt (v + dt a) < min(r, 0), with a the acceleration of a solve without it.
template <class D, class V = hn::Vec<D>>
HWY_INLINE hn::Mask<D> CrossesInStep(D d, const SoftConstraintStep& limits, V r, V row_velocity,
                                     V row_acceleration) {
  const V dt = hn::Set(d, limits.dt);
  const V end = hn::Add(r, hn::Mul(dt, hn::Add(row_velocity, hn::Mul(dt, row_acceleration))));
  return hn::Lt(end, hn::Min(r, hn::Zero(d)));
}

template <class D, class V = hn::Vec<D>>
HWY_INLINE LimitRow<D> LimitRowAt(D d, const JointConstraint& joint,
                                  const SoftConstraintStep& limits, V q, V v, V flag) {
  const V zero = hn::Zero(d);
  const V below = hn::Sub(q, hn::Set(d, joint.lower));
  const V above = hn::Sub(hn::Set(d, joint.upper), q);
  LimitRow<D> out;
  out.lower_side = hn::Le(below, above);
  out.r = hn::IfThenElse(out.lower_side, below, above);
  out.row_velocity = hn::IfThenElse(out.lower_side, v, hn::Neg(v));
  out.active = RowActive(d, flag, hn::Lt(out.r, zero));
  out.row = SoftRowAt(d, limits, out.r, hn::Set(d, joint.inverse_inertia0));
  const V inverse_dt = hn::Set(d, 1.0f / limits.dt);
  // A joint that arrives in its limit (outside it one step ago: r - dt v >= 0) while moving deeper
  // stops within the step, an inelastic stop: the row's damping is m / dt, which the virtual mass
  // turns into v' = 0. Afterwards the row is MuJoCo's, spring and damper.
  const V dt = hn::Set(d, limits.dt);
  const auto arrives = hn::And(hn::Lt(out.row_velocity, zero),
                               hn::Ge(hn::Sub(out.r, hn::Mul(dt, out.row_velocity)), zero));
  const SoftRow<V> impact{out.row.stiffness, hn::Mul(out.row.mass, inverse_dt), out.row.mass,
                          out.row.reach};
  out.explicit_force = hn::IfThenElse(arrives, SoftRowForce(impact, out.row_velocity, out.r),
                                      SoftRowForce(out.row, out.row_velocity, out.r));
  // Caught and stopped rows are hard (soft_constraint.h).
  out.explicit_force = hn::IfThenElse(
      hn::Gt(flag, zero), HardRowForce(d, limits, flag, out.row.mass, out.r, out.row_velocity),
      out.explicit_force);
  return out;
}

// The row's position r and velocity s v alone, and whether no lane of the vector has a row that is
// violated or flagged: then the row is inactive in every lane, and the kernels below skip its
// coefficients (the same bits: inactive rows add exactly nothing).
template <class D, class V = hn::Vec<D>>
HWY_INLINE bool QuietLimit(D d, const JointConstraint& joint, V q, V v, V flag, V& r,
                           V& row_velocity, hn::Mask<D>& lower_side) {
  const V zero = hn::Zero(d);
  const V below = hn::Sub(q, hn::Set(d, joint.lower));
  const V above = hn::Sub(hn::Set(d, joint.upper), q);
  lower_side = hn::Le(below, above);
  r = hn::IfThenElse(lower_side, below, above);
  row_velocity = hn::IfThenElse(lower_side, v, hn::Neg(v));
  return hn::AllTrue(d, hn::And(hn::Eq(flag, zero), hn::Ge(r, zero)));
}

// The row force f = f_e - m s qdd of an active row (0 when inactive).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V LimitRowForce(D d, const LimitRow<D>& limit, V qdd) {
  const V row_acceleration = hn::IfThenElse(limit.lower_side, qdd, hn::Neg(qdd));
  const V force = hn::Sub(limit.explicit_force, hn::Mul(limit.row.mass, row_acceleration));
  (void)d;
  return hn::IfThenElseZero(limit.active, force);
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
                                     const ConstLanesView& flags, const LanesView& tau,
                                     const LanesView& added) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  for (size_t j = 0; j < count; ++j) {
    const JointConstraint& joint = joints[j];
    const V dt_damping = hn::Set(d, limits.dt * joint.damping);
    const V dt = hn::Set(d, limits.dt);
    ForEachVector(d, tau.count, [&](size_t i, auto store) HWY_ATTR {
      const V v = hn::LoadU(d, qd.Array(j) + i);
      const V value = hn::LoadU(d, q.Array(j) + i), flag = hn::LoadU(d, flags.Array(j) + i);
      V inertia = dt_damping;
      if (joint.friction != 0.0f) {
        inertia =
            hn::Add(inertia, hn::Mul(dt, FrictionSlope(d, joint.friction, friction_velocity, v)));
      }
      V r, row_velocity;
      hn::Mask<decltype(d)> lower_side;
      if (QuietLimit(d, joint, value, v, flag, r, row_velocity, lower_side)) {
        store(hn::Add(inertia, hn::Zero(d)), d, added.Array(j) + i);  // tau unchanged
        return;
      }
      const auto limit = LimitRowAt(d, joint, limits, value, v, flag);
      inertia = hn::Add(inertia, hn::IfThenElseZero(limit.active, limit.row.mass));
      store(inertia, d, added.Array(j) + i);
      const V torque = hn::LoadU(d, tau.Array(j) + i);
      const V push =
          hn::IfThenElse(limit.lower_side, limit.explicit_force, hn::Neg(limit.explicit_force));
      store(hn::IfThenElse(limit.active, hn::Add(torque, push), torque), d, tau.Array(j) + i);
    });
  }
}

inline void JointLimitForcesImpl(const JointConstraint* joints, size_t count,
                                 const SoftConstraintStep& limits, const ConstLanesView& q,
                                 const ConstLanesView& qd, const ConstLanesView& qdd,
                                 const ConstLanesView& flags, const LanesView& forces) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  for (size_t j = 0; j < count; ++j) {
    const JointConstraint& joint = joints[j];
    ForEachVector(d, forces.count, [&](size_t i, auto store) HWY_ATTR {
      const V value = hn::LoadU(d, q.Array(j) + i), v = hn::LoadU(d, qd.Array(j) + i);
      const V flag = hn::LoadU(d, flags.Array(j) + i);
      V r, row_velocity;
      hn::Mask<decltype(d)> lower_side;
      if (QuietLimit(d, joint, value, v, flag, r, row_velocity, lower_side)) {
        store(hn::Zero(d), d, forces.Array(j) + i);
        return;
      }
      const auto limit = LimitRowAt(d, joint, limits, value, v, flag);
      store(LimitRowForce(d, limit, hn::LoadU(d, qdd.Array(j) + i)), d, forces.Array(j) + i);
    });
  }
}

inline bool UpdateLimitFlagsImpl(const JointConstraint* joints, size_t count,
                                 const SoftConstraintStep& limits, const ConstLanesView& q,
                                 const ConstLanesView& qd, const ConstLanesView& qdd,
                                 bool may_release, const LanesView& flags,
                                 const LanesView& changed) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const V zero = hn::Zero(d);
  bool any = false;
  for (size_t j = 0; j < count; ++j) {
    const JointConstraint& joint = joints[j];
    ForEachVector(d, q.count, [&](size_t i, auto store) HWY_ATTR {
      const V flag = hn::LoadU(d, flags.Array(j) + i);
      const V a = hn::LoadU(d, qdd.Array(j) + i);
      const V value = hn::LoadU(d, q.Array(j) + i), v = hn::LoadU(d, qd.Array(j) + i);
      V r, row_velocity;
      hn::Mask<decltype(d)> lower_side;
      V updated;
      if (QuietLimit(d, joint, value, v, flag, r, row_velocity, lower_side)) {
        // Inactive and unflagged everywhere: only a crossing changes the flag.
        const V row_acceleration = hn::IfThenElse(lower_side, a, hn::Neg(a));
        updated = hn::IfThenElse(CrossesInStep(d, limits, r, row_velocity, row_acceleration),
                                 hn::Set(d, kRowCaught), flag);
      } else {
        const auto limit = LimitRowAt(d, joint, limits, value, v, flag);
        const auto pulls = hn::Lt(LimitRowForce(d, limit, a), zero);
        const V row_acceleration = hn::IfThenElse(limit.lower_side, a, hn::Neg(a));
        const auto crosses =
            CrossesInStep(d, limits, limit.r, limit.row_velocity, row_acceleration);
        updated = NextRowFlag(d, flag, limit.active, pulls, crosses, may_release);
      }
      const size_t valid = q.count - i < hn::Lanes(d) ? q.count - i : hn::Lanes(d);
      const auto moved = hn::And(hn::Ne(updated, flag), hn::FirstN(d, valid));
      any = any || !hn::AllFalse(d, moved);
      float* mark = changed.Array(0) + i;
      store(hn::IfThenElse(moved, hn::Set(d, 1.0f), hn::LoadU(d, mark)), d, mark);
      store(updated, d, flags.Array(j) + i);
    });
  }
  return any;
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOTS_JOINT_CONSTRAINTS_INL_H_
