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

// Whether a row would end the step violated and deeper than it started,
// r + dt (v + dt a) < min(r, 0), with a the acceleration of a solve without it (min by compare and
// select: hn::Min's NaN rule differs between ISAs).
template <class D, class V = hn::Vec<D>>
HWY_INLINE hn::Mask<D> CrossesInStep(D d, const SoftConstraintStep& limits, V r, V row_velocity,
                                     V row_acceleration) {
  const V dt = hn::Set(d, limits.dt);
  const V end = hn::Add(r, hn::Mul(dt, hn::Add(row_velocity, hn::Mul(dt, row_acceleration))));
  return hn::Lt(end, hn::IfThenElseZero(hn::Lt(r, hn::Zero(d)), r));
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

// One joint's limit row at (q, v) with the step's flag (soft_constraint.h), given its position r
// and row velocity s v (QuietLimit): whether it is active, its virtual mass and its explicit force
// f_e. Through output parameters: SVE vectors and masks cannot be members of a struct.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void LimitRowAt(D d, const JointConstraint& joint, const SoftConstraintStep& limits, V r,
                           V row_velocity, V flag, hn::Mask<D>& active, V& mass,
                           V& explicit_force) {
  const V zero = hn::Zero(d);
  active = RowActive(d, flag, hn::Lt(r, zero));
  V stiffness, damping, reach;
  const V w0 = hn::Set(d, joint.inverse_inertia0);
  SoftRowAt(d, limits, r, w0, w0, stiffness, damping, mass, reach);
  const V inverse_dt = hn::Set(d, 1.0f / limits.dt);
  // A joint that arrives in its limit (outside it one step ago: r - dt v >= 0) while moving deeper
  // stops within the step, an inelastic stop: the row's damping is m / dt, which the virtual mass
  // turns into v' = 0. Afterwards the row is MuJoCo's, spring and damper.
  const V dt = hn::Set(d, limits.dt);
  const auto arrives =
      hn::And(hn::Lt(row_velocity, zero), hn::Ge(hn::Sub(r, hn::Mul(dt, row_velocity)), zero));
  // It stops with the impedance of the depth it would reach within the step, if higher: a limit
  // whose impedance starts near zero (MJCF solimplimit "0 0.99 0.01") still stops it there.
  V deeper_stiffness, deeper_damping, deeper_mass, deeper_reach;
  SoftRowAt(d, limits, hn::Add(r, hn::Mul(dt, row_velocity)), w0, w0, deeper_stiffness,
            deeper_damping, deeper_mass, deeper_reach);
  mass = hn::IfThenElse(hn::And(arrives, hn::Gt(deeper_mass, mass)), deeper_mass, mass);
  const V impact_damping = hn::Mul(mass, inverse_dt);
  explicit_force =
      hn::IfThenElse(arrives, SoftRowForce(stiffness, impact_damping, reach, row_velocity, r),
                     SoftRowForce(stiffness, damping, reach, row_velocity, r));
  // Caught and stopped rows are hard (soft_constraint.h).
  explicit_force = hn::IfThenElse(
      hn::Gt(flag, zero), HardRowForce(d, limits, flag, mass, r, row_velocity), explicit_force);
}

// The row force f = f_e - m s qdd of an active row (0 when inactive).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V LimitRowForce(D /*d*/, hn::Mask<D> lower_side, hn::Mask<D> active, V mass,
                           V explicit_force, V qdd) {
  const V row_acceleration = hn::IfThenElse(lower_side, qdd, hn::Neg(qdd));
  return hn::IfThenElseZero(active, hn::Sub(explicit_force, hn::Mul(mass, row_acceleration)));
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
                                     const ConstLanesView& flags, const ConstLanesView& tau,
                                     const LanesView& applied, const LanesView& added) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const bool in_place = applied.data == tau.data;
  for (size_t j = 0; j < count; ++j) {
    const JointConstraint& joint = joints[j];
    ForEachVector(d, applied.count, [&](size_t i, auto store) HWY_ATTR {
      // Constants set in the loop body, not captured from outside it (GCC 12 on SVE_256).
      const V dt = hn::Set(d, limits.dt);
      const V v = hn::LoadU(d, qd.Array(j) + i);
      const V value = hn::LoadU(d, q.Array(j) + i), flag = hn::LoadU(d, flags.Array(j) + i);
      V inertia = hn::Set(d, limits.dt * joint.damping);
      if (joint.friction != 0.0f) {
        inertia =
            hn::Add(inertia, hn::Mul(dt, FrictionSlope(d, joint.friction, friction_velocity, v)));
      }
      V r, row_velocity;
      hn::Mask<decltype(d)> lower_side;
      if (QuietLimit(d, joint, value, v, flag, r, row_velocity, lower_side)) {
        store(hn::Add(inertia, hn::Zero(d)), d, added.Array(j) + i);  // applied = tau
        if (!in_place) store(hn::LoadU(d, tau.Array(j) + i), d, applied.Array(j) + i);
        return;
      }
      hn::Mask<decltype(d)> active;
      V mass, explicit_force;
      LimitRowAt(d, joint, limits, r, row_velocity, flag, active, mass, explicit_force);
      inertia = hn::Add(inertia, hn::IfThenElseZero(active, mass));
      store(inertia, d, added.Array(j) + i);
      const V torque = hn::LoadU(d, tau.Array(j) + i);
      const V push = hn::IfThenElse(lower_side, explicit_force, hn::Neg(explicit_force));
      store(hn::IfThenElse(active, hn::Add(torque, push), torque), d, applied.Array(j) + i);
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
      hn::Mask<decltype(d)> active;
      V mass, explicit_force;
      LimitRowAt(d, joint, limits, r, row_velocity, flag, active, mass, explicit_force);
      store(LimitRowForce(d, lower_side, active, mass, explicit_force,
                          hn::LoadU(d, qdd.Array(j) + i)),
            d, forces.Array(j) + i);
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
      const bool quiet = QuietLimit(d, joint, value, v, flag, r, row_velocity, lower_side);
      const V row_acceleration = hn::IfThenElse(lower_side, a, hn::Neg(a));
      const auto crosses = CrossesInStep(d, limits, r, row_velocity, row_acceleration);
      if (quiet) {
        // Inactive and unflagged everywhere: only a crossing changes the flag.
        updated = hn::IfThenElse(crosses, hn::Set(d, kRowCaught), flag);
      } else {
        hn::Mask<decltype(d)> active;
        V mass, explicit_force;
        LimitRowAt(d, joint, limits, r, row_velocity, flag, active, mass, explicit_force);
        const auto pulls =
            hn::Lt(LimitRowForce(d, lower_side, active, mass, explicit_force, a), hn::Zero(d));
        const V mark = hn::LoadU(d, changed.Array(0) + i);
        updated =
            NextRowFlag(d, flag, active, pulls, crosses, may_release, hn::Ne(mark, hn::Zero(d)));
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
