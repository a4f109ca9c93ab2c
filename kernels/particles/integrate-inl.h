// Per-target code of the integration kernels (see swarm/kernels/particles/integrate.h for the
// maths). Every expression is written as separate Mul/Add/Sub/Div/Sqrt so that, compiled with
// -ffp-contract=off, each element sees the same rounding sequence on every target; the scalar
// references in integrate_reference.cc spell out the same sequence.

#if defined(SWARM_KERNELS_INTEGRATE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_INTEGRATE_INL_H_
#undef SWARM_KERNELS_INTEGRATE_INL_H_
#else
#define SWARM_KERNELS_INTEGRATE_INL_H_
#endif

#include <cstdint>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "swarm/kernels/particles/integrate.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// All three axes in one pass: six streams per loop measured 3-7% faster than three two-stream
// passes from 1e5 particles up (bench/integrate_bench.cc), and each element still sees the same
// operations in the same order.
inline void EulerImpl(const Vec4View& positions, const Vec4View& velocities,
                      const EulerParams& params) {
  const hn::ScalableTag<float> d;
  const auto dt = hn::Set(d, params.dt_seconds);
  const auto drag = hn::Set(d, params.drag_per_second);
  const auto gravity_x = hn::Set(d, params.gravity.x);
  const auto gravity_y = hn::Set(d, params.gravity.y);
  const auto gravity_z = hn::Set(d, params.gravity.z);
  float* HWY_RESTRICT const px = positions.x();
  float* HWY_RESTRICT const py = positions.y();
  float* HWY_RESTRICT const pz = positions.z();
  float* HWY_RESTRICT const vx = velocities.x();
  float* HWY_RESTRICT const vy = velocities.y();
  float* HWY_RESTRICT const vz = velocities.z();
  ForEachVector(d, positions.count, [&](size_t i, auto store) HWY_ATTR {
    // One axis; applied to x, y and z in turn (vectors live in locals and parameters, never in
    // arrays: SVE vectors are sizeless).
    const auto step_axis = [&](float* HWY_RESTRICT p, float* HWY_RESTRICT v,
                               auto gravity) HWY_ATTR {
      const auto old_v = hn::LoadU(d, v + i);
      const auto acceleration = hn::Sub(gravity, hn::Mul(drag, old_v));
      const auto new_v = hn::Add(old_v, hn::Mul(acceleration, dt));
      const auto new_p = hn::Add(hn::LoadU(d, p + i), hn::Mul(new_v, dt));
      store(new_v, d, v + i);
      store(new_p, d, p + i);
    };
    step_axis(px, vx, gravity_x);
    step_axis(py, vy, gravity_y);
    step_axis(pz, vz, gravity_z);
  });
}

inline void VerletKickDriftImpl(const Vec4View& positions, const Vec4View& velocities,
                                const ConstVec4View& accelerations, float dt_seconds) {
  const hn::ScalableTag<float> d;
  const auto dt = hn::Set(d, dt_seconds);
  const auto half_dt = hn::Set(d, 0.5f * dt_seconds);
  ForEachVector(d, positions.count, [&](size_t i, auto store) HWY_ATTR {
    for (size_t axis = 0; axis < 3; ++axis) {
      float* p = positions.Lane(axis) + i;
      float* v = velocities.Lane(axis) + i;
      const auto a = hn::LoadU(d, accelerations.Lane(axis) + i);
      const auto new_v = hn::Add(hn::LoadU(d, v), hn::Mul(a, half_dt));
      store(new_v, d, v);
      store(hn::Add(hn::LoadU(d, p), hn::Mul(new_v, dt)), d, p);
    }
  });
}

inline void VerletKickImpl(const Vec4View& velocities, const ConstVec4View& accelerations,
                           float dt_seconds) {
  const hn::ScalableTag<float> d;
  const auto half_dt = hn::Set(d, 0.5f * dt_seconds);
  ForEachVector(d, velocities.count, [&](size_t i, auto store) HWY_ATTR {
    for (size_t axis = 0; axis < 3; ++axis) {
      float* v = velocities.Lane(axis) + i;
      const auto a = hn::LoadU(d, accelerations.Lane(axis) + i);
      store(hn::Add(hn::LoadU(d, v), hn::Mul(a, half_dt)), d, v);
    }
  });
}

inline void CollideBoxImpl(const Vec4View& positions, const Vec4View& velocities,
                           const BoxParams& params) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  using M = hn::Mask<decltype(d)>;
  const auto zero = hn::Zero(d);
  const auto minus_restitution = hn::Set(d, -params.restitution);
  const auto keep_tangential = hn::Set(d, 1.0f - params.friction);
  ForEachVector(d, positions.count, [&](size_t i, auto store) HWY_ATTR {
    // Clamps one axis and reflects its outward velocity; `contact` says which lanes touched a
    // wall of this axis. Vectors live in named locals, never in arrays (SVE vectors are sizeless).
    const auto clamp_axis = [&](size_t axis, V& p, V& v, M& contact) HWY_ATTR {
      const auto lo = hn::Set(d, params.min[axis]);
      const auto hi = hn::Set(d, params.max[axis]);
      p = hn::LoadU(d, positions.Lane(axis) + i);
      v = hn::LoadU(d, velocities.Lane(axis) + i);
      const M below = hn::Lt(p, lo);
      const M above = hn::Gt(p, hi);
      const M outward = hn::Or(hn::And(below, hn::Lt(v, zero)), hn::And(above, hn::Gt(v, zero)));
      contact = hn::Or(below, above);
      // A select, not Min/Max: those differ per ISA for NaN and for zeros of opposite signs
      // (x86 returns the second operand, aarch64 the NaN or +0), the select keeps both as the
      // reference does (a NaN position is neither below nor above, so it stays NaN).
      p = hn::IfThenElse(below, lo, hn::IfThenElse(above, hi, p));
      v = hn::IfThenElse(outward, hn::Mul(v, minus_restitution), v);
    };
    V px = zero, py = zero, pz = zero, vx = zero, vy = zero, vz = zero;
    M contact_x = hn::Lt(zero, zero), contact_y = contact_x, contact_z = contact_x;
    clamp_axis(0, px, vx, contact_x);
    clamp_axis(1, py, vy, contact_y);
    clamp_axis(2, pz, vz, contact_z);
    // Friction on the axes tangential to a wall the particle touches.
    const auto finish_axis = [&](size_t axis, V p, V v, M other_contact) HWY_ATTR {
      v = hn::IfThenElse(other_contact, hn::Mul(v, keep_tangential), v);
      store(p, d, positions.Lane(axis) + i);
      store(v, d, velocities.Lane(axis) + i);
    };
    finish_axis(0, px, vx, hn::Or(contact_y, contact_z));
    finish_axis(1, py, vy, hn::Or(contact_z, contact_x));
    finish_axis(2, pz, vz, hn::Or(contact_x, contact_y));
  });
}

inline void AttractorImpl(const ConstVec4View& positions, const Vec4View& velocities,
                          const AttractorParams& params) {
  const hn::ScalableTag<float> d;
  const auto softening_squared = hn::Set(d, params.softening * params.softening);
  const auto strength_dt = hn::Set(d, params.strength * params.dt_seconds);
  const auto cx = hn::Set(d, params.center.x);
  const auto cy = hn::Set(d, params.center.y);
  const auto cz = hn::Set(d, params.center.z);
  ForEachVector(d, positions.count, [&](size_t i, auto store) HWY_ATTR {
    const auto dx = hn::Sub(cx, hn::LoadU(d, positions.x() + i));
    const auto dy = hn::Sub(cy, hn::LoadU(d, positions.y() + i));
    const auto dz = hn::Sub(cz, hn::LoadU(d, positions.z() + i));
    auto r2 = hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy));
    r2 = hn::Add(r2, hn::Mul(dz, dz));
    r2 = hn::Add(r2, softening_squared);
    const auto scale = hn::Div(strength_dt, hn::Mul(r2, hn::Sqrt(r2)));
    store(hn::Add(hn::LoadU(d, velocities.x() + i), hn::Mul(dx, scale)), d, velocities.x() + i);
    store(hn::Add(hn::LoadU(d, velocities.y() + i), hn::Mul(dy, scale)), d, velocities.y() + i);
    store(hn::Add(hn::LoadU(d, velocities.z() + i), hn::Mul(dz, scale)), d, velocities.z() + i);
  });
}

inline void AdvanceAgeImpl(const FloatView& ages, const ConstFloatView& lifetimes,
                           const ByteView& dead, float dt_seconds) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const auto dt = hn::Set(d, dt_seconds);
  const auto one = hn::Set(di, 1);
  ForEachVector(d, ages.count, [&](size_t i, auto store) HWY_ATTR {
    const auto age = hn::Add(hn::LoadU(d, ages.data + i), dt);
    const auto expired = hn::Ge(age, hn::LoadU(d, lifetimes.data + i));
    const auto flag = hn::IfThenElseZero(hn::RebindMask(di, expired), one);
    store(age, d, ages.data + i);
    store(hn::DemoteTo(d8, flag), d8, dead.data + i);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_INTEGRATE_INL_H_
