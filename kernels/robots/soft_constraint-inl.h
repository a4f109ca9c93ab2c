// Per-target code of one soft-constraint row (swarm/kernels/robots/soft_constraint.h), shared by
// the joint-limit and ground-contact kernels: the impedance d(r) and the row's virtual mass m and
// explicit force f_e of equation (2), per lane, as one fixed sequence of correctly rounded
// operations (so every target gives the same bits; the scalar references repeat it).

#if defined(SWARM_KERNELS_ROBOTS_SOFT_CONSTRAINT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_ROBOTS_SOFT_CONSTRAINT_INL_H_
#undef SWARM_KERNELS_ROBOTS_SOFT_CONSTRAINT_INL_H_
#else
#define SWARM_KERNELS_ROBOTS_SOFT_CONSTRAINT_INL_H_
#endif

#include "hwy/highway.h"
#include "swarm/kernels/robots/soft_constraint.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// x^power by repeated products, x * x * ... (power >= 1).
template <class V>
HWY_INLINE V IntegerPower(V x, int power) {
  V result = x;
  for (int k = 1; k < power; ++k) result = hn::Mul(result, x);
  return result;
}

// MuJoCo's impedance d(r) at row position r.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Impedance(D d, const SoftConstraintStep& c, V r) {
  const V dmin = hn::Set(d, c.impedance_min);
  if (c.inverse_width == 0.0f) {
    return hn::Set(d, 0.5f * (c.impedance_min + c.impedance_max));
  }
  const V one = hn::Set(d, 1.0f);
  // min(|r| / width, 1) by compare and select (hn::Min's NaN rule differs between ISAs).
  const V scaled = hn::Mul(hn::Abs(r), hn::Set(d, c.inverse_width));
  const V x = hn::IfThenElse(hn::Lt(scaled, one), scaled, one);
  const V low = hn::Mul(IntegerPower(x, c.power), hn::Set(d, c.low_scale));
  const V high =
      hn::Sub(one, hn::Mul(IntegerPower(hn::Sub(one, x), c.power), hn::Set(d, c.high_scale)));
  const V y = hn::IfThenElse(hn::Le(x, hn::Set(d, c.midpoint)), low, high);
  return hn::Add(dmin, hn::Mul(y, hn::Set(d, c.impedance_max - c.impedance_min)));
}

// A row's coefficients at position r with reference inverse inertia w0 (soft_constraint.h (2)),
// its regulariser's inertia w_R (w0, or w0 times a model's factor: MuJoCo's pyramidal cone):
//   inverse_r = min(d / ((1 - d) w_R), max_mass_ratio / (w0 (1 + dt b + dt^2 k d))) (the cap
//   of stiff rows), stiffness = k d / R, damping = (b + dt k d) / R,
//   mass = (1 + dt b + dt^2 k d) / R,
// so that the row force is f = f_e - mass J qdd with f_e = -(damping v + stiffness r), and the
// push-out cap `reach` = max_push_speed damping / stiffness. Returned through output parameters:
// SVE vectors cannot be members of a struct (docs/kernel-rules.md).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void SoftRowAt(D d, const SoftConstraintStep& c, V r, V inverse_inertia0,
                          V regulariser_inertia, V& stiffness, V& damping, V& mass, V& reach) {
  const V impedance = Impedance(d, c, r);
  const V one = hn::Set(d, 1.0f), dt = hn::Set(d, c.dt);
  const V kd = hn::Mul(hn::Set(d, c.k), impedance);
  const V b = hn::Set(d, c.b);
  const V mass_factor = hn::Add(hn::Add(one, hn::Mul(dt, b)), hn::Mul(hn::Mul(dt, dt), kd));
  // min by compare and select (a cap of infinity leaves the bits).
  const V uncapped = hn::Div(impedance, hn::Mul(hn::Sub(one, impedance), regulariser_inertia));
  const V cap = hn::Div(hn::Set(d, c.max_mass_ratio), hn::Mul(inverse_inertia0, mass_factor));
  const V inverse_r = hn::IfThenElse(hn::Gt(uncapped, cap), cap, uncapped);
  stiffness = hn::Mul(kd, inverse_r);
  damping = hn::Mul(hn::Add(b, hn::Mul(dt, kd)), inverse_r);
  mass = hn::Mul(mass_factor, inverse_r);
  // damping / stiffness = (b + dt k d) / (k d): 1 / R cancels.
  reach = hn::Div(hn::Mul(hn::Set(d, c.max_push_speed), hn::Add(b, hn::Mul(dt, kd))), kd);
}

// f_e = -(damping v + stiffness clamp(position, -reach, reach)); the clamp is compare and select,
// the lower bound first (a NaN position stays NaN on every target).
template <class V>
HWY_INLINE V SoftRowForce(V stiffness, V damping, V reach, V velocity, V position) {
  const V low = hn::Neg(reach);
  V clamped = hn::IfThenElse(hn::Lt(position, low), low, position);
  clamped = hn::IfThenElse(hn::Gt(clamped, reach), reach, clamped);
  return hn::Neg(hn::Add(hn::Mul(damping, velocity), hn::Mul(stiffness, clamped)));
}

// Whether a row acts: violated and unflagged, or caught or stopped (soft_constraint.h, flags).
template <class D, class V = hn::Vec<D>>
HWY_INLINE hn::Mask<D> RowActive(D d, V flag, hn::Mask<D> violated) {
  const V zero = hn::Zero(d);
  return hn::Or(hn::And(hn::Eq(flag, zero), violated), hn::Gt(flag, zero));
}

// The explicit force of a hard row (caught: end the step at the row's surface, v' = -max(r, 0) /
// dt; stopped: v' = 0): f_e = m (v' - v) / dt, which the virtual mass m makes (nearly) exact.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V HardRowForce(D d, const SoftConstraintStep& c, V flag, V mass, V r, V velocity) {
  const V zero = hn::Zero(d), inverse_dt = hn::Set(d, 1.0f / c.dt);
  // max(r, 0) by compare and select: +0 for -0 and NaN alike on every target.
  const V caught_target = hn::Neg(hn::Mul(hn::IfThenElseZero(hn::Gt(r, zero), r), inverse_dt));
  const V target = hn::IfThenElse(hn::Eq(flag, hn::Set(d, kRowStopped)), zero, caught_target);
  return hn::Mul(mass, hn::Mul(hn::Sub(target, velocity), inverse_dt));
}

// A row's flag after a solve (soft_constraint.h, flags): `pulls` when its force was negative,
// `crosses` when an inactive row's point would end the step violated and deeper than it started,
// `unsettled` where the robot's mark is set (only the last update, without `may_release`, reads
// it).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V NextRowFlag(D d, V flag, hn::Mask<D> active, hn::Mask<D> pulls, hn::Mask<D> crosses,
                         bool may_release, hn::Mask<D> unsettled) {
  const V zero = hn::Zero(d);
  const auto unflagged = hn::Eq(flag, zero);
  // Released and dropped rows: negative flags.
  const auto let_go = hn::Lt(flag, zero);
  const auto caught = hn::Eq(flag, hn::Set(d, kRowCaught));
  V next = flag;
  if (may_release) {
    next =
        hn::IfThenElse(hn::And(hn::And(unflagged, active), pulls), hn::Set(d, kRowReleased), next);
  }
  next = hn::IfThenElse(hn::And(hn::Or(hn::AndNot(active, unflagged), let_go), crosses),
                        hn::Set(d, kRowCaught), next);
  next = hn::IfThenElse(hn::And(caught, pulls), hn::Set(d, may_release ? kRowDropped : kRowStopped),
                        next);
  // The last update stops every row the step let go in robots still unsettled: the last solve is
  // checked by no update.
  if (!may_release)
    next = hn::IfThenElse(hn::And(let_go, unsettled), hn::Set(d, kRowStopped), next);
  return next;
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOTS_SOFT_CONSTRAINT_INL_H_
