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
  const V x = hn::Min(hn::Mul(hn::Abs(r), hn::Set(d, c.inverse_width)), one);
  const V low = hn::Mul(IntegerPower(x, c.power), hn::Set(d, c.low_scale));
  const V high =
      hn::Sub(one, hn::Mul(IntegerPower(hn::Sub(one, x), c.power), hn::Set(d, c.high_scale)));
  const V y = hn::IfThenElse(hn::Le(x, hn::Set(d, c.midpoint)), low, high);
  return hn::Add(dmin, hn::Mul(y, hn::Set(d, c.impedance_max - c.impedance_min)));
}

// A row's coefficients at position r with reference inverse inertia w0 (soft_constraint.h (2)):
//   inverse_r = d / ((1 - d) w0), stiffness = k d / R, damping = (b + dt k d) / R,
//   mass = (1 + dt b + dt^2 k d) / R,
// so that the row force is f = f_e - mass J qdd with f_e = -(damping v + stiffness r).
template <class V>
struct SoftRow {
  V stiffness, damping, mass;
};

template <class D, class V = hn::Vec<D>>
HWY_INLINE SoftRow<V> SoftRowAt(D d, const SoftConstraintStep& c, V r, V inverse_inertia0) {
  const V impedance = Impedance(d, c, r);
  const V one = hn::Set(d, 1.0f), dt = hn::Set(d, c.dt);
  const V inverse_r = hn::Div(impedance, hn::Mul(hn::Sub(one, impedance), inverse_inertia0));
  const V kd = hn::Mul(hn::Set(d, c.k), impedance);
  const V b = hn::Set(d, c.b);
  SoftRow<V> row;
  row.stiffness = hn::Mul(kd, inverse_r);
  row.damping = hn::Mul(hn::Add(b, hn::Mul(dt, kd)), inverse_r);
  row.mass = hn::Mul(hn::Add(hn::Add(one, hn::Mul(dt, b)), hn::Mul(hn::Mul(dt, dt), kd)), inverse_r);
  return row;
}

// f_e = -(damping v + stiffness position).
template <class V>
HWY_INLINE V SoftRowForce(const SoftRow<V>& row, V velocity, V position) {
  return hn::Neg(hn::Add(hn::Mul(row.damping, velocity), hn::Mul(row.stiffness, position)));
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOTS_SOFT_CONSTRAINT_INL_H_
