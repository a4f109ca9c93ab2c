// Per-target code of the integration kernels (see kernels/integrate.h for the maths).
// Every expression is written as separate Mul/Add/Sub/Div/Sqrt so that, compiled with
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
#include "swarm/kernels/integrate.h"
#include "swarm/kernels/loop-inl.h"

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
  const hn::Vec<decltype(d)> gravity[3] = {
      hn::Set(d, params.gravity.x), hn::Set(d, params.gravity.y), hn::Set(d, params.gravity.z)};
  float* HWY_RESTRICT p[3] = {positions.x(), positions.y(), positions.z()};
  float* HWY_RESTRICT v[3] = {velocities.x(), velocities.y(), velocities.z()};
  ForEachVector(d, positions.count, [&](size_t i, auto store) HWY_ATTR {
    for (int axis = 0; axis < 3; ++axis) {
      const auto old_v = hn::LoadU(d, v[axis] + i);
      const auto acceleration = hn::Sub(gravity[axis], hn::Mul(drag, old_v));
      const auto new_v = hn::Add(old_v, hn::Mul(acceleration, dt));
      const auto new_p = hn::Add(hn::LoadU(d, p[axis] + i), hn::Mul(new_v, dt));
      store(new_v, d, v[axis] + i);
      store(new_p, d, p[axis] + i);
    }
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
    V p[3];
    V v[3];
    M contact[3];
    for (int axis = 0; axis < 3; ++axis) {
      const auto lo = hn::Set(d, params.min[axis]);
      const auto hi = hn::Set(d, params.max[axis]);
      p[axis] = hn::LoadU(d, positions.Lane(axis) + i);
      v[axis] = hn::LoadU(d, velocities.Lane(axis) + i);
      const M below = hn::Lt(p[axis], lo);
      const M above = hn::Gt(p[axis], hi);
      const M outward =
          hn::Or(hn::And(below, hn::Lt(v[axis], zero)), hn::And(above, hn::Gt(v[axis], zero)));
      contact[axis] = hn::Or(below, above);
      p[axis] = hn::Min(hn::Max(p[axis], lo), hi);
      v[axis] = hn::IfThenElse(outward, hn::Mul(v[axis], minus_restitution), v[axis]);
    }
    for (int axis = 0; axis < 3; ++axis) {
      const M other_contact = hn::Or(contact[(axis + 1) % 3], contact[(axis + 2) % 3]);
      v[axis] = hn::IfThenElse(other_contact, hn::Mul(v[axis], keep_tangential), v[axis]);
      store(p[axis], d, positions.Lane(axis) + i);
      store(v[axis], d, velocities.Lane(axis) + i);
    }
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
