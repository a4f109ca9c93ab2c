// Per-target code of the particle emitters (see swarm/kernels/particles/emit.h for the formulas).
// Every expression is a separate Mul/Add/Sub/Sqrt, and sin/cos are the deterministic polynomials of
// deterministic_math-inl.h, so each particle sees the same rounding sequence on every target;
// the scalar reference (emit_reference.cc) spells out the same sequence.

#if defined(SWARM_KERNELS_EMIT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_EMIT_INL_H_
#undef SWARM_KERNELS_EMIT_INL_H_
#else
#define SWARM_KERNELS_EMIT_INL_H_
#endif

#include <cstdint>

#include "hwy/highway.h"
#include "kernels/base/deterministic_math-inl.h"
#include "kernels/base/loop-inl.h"
#include "kernels/base/random-inl.h"
#include "swarm/kernels/particles/emit.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The formulas of EmitterParams (swarm/kernels/particles/emit.h), one operation at a time, for the
// vector of particles starting at element i; the scalar reference::Emit performs the same
// operations in the same order. `kShape` is a template argument so that the shape costs one branch
// per call (EmitImpl, RespawnDeadImpl), not per lane. The values come back through reference
// parameters (position, velocity, lifetime), not a struct: SVE vectors are sizeless and cannot be
// members.
template <EmitterShape kShape, class D, class V = hn::Vec<D>>
HWY_INLINE void EmitVector(D d, const EmitterParams& emitter, RandomKeys keys, uint32_t first_index,
                           size_t i, V& px, V& py, V& pz, V& vx, V& vy, V& vz, V& lifetime) {
  const hn::RebindToUnsigned<D> du;
  const auto particle = CountersAt(d, first_index + static_cast<uint32_t>(i));
  const auto base_counter = hn::ShiftLeft<3>(particle);
  const auto one = hn::Set(d, 1.0f);
  const auto two = hn::Set(d, 2.0f);
  const auto two_pi = hn::Set(d, kEmitterTwoPi);
  const auto uniform = [&](uint32_t draw) HWY_ATTR {
    return UniformFromCounters(d, keys, hn::Add(base_counter, hn::Set(du, draw)));
  };
  // Symmetric uniform in [-1, 1) from draw number `draw` of this particle.
  const auto symmetric = [&](uint32_t draw) HWY_ATTR {
    const auto u = uniform(draw);
    return hn::Sub(hn::Mul(u, two), one);
  };
  // center + half_extent * s(u_axis): kBox and kSphere positions.
  const auto box_position = [&](int axis) HWY_ATTR {
    return hn::Add(
        hn::Set(d, emitter.center[axis]),
        hn::Mul(hn::Set(d, emitter.half_extent[axis]), symmetric(static_cast<uint32_t>(axis))));
  };
  // velocity + velocity_spread * s(u_{3 + axis}): kBox velocities, kRing's before the swirl.
  const auto spread_velocity = [&](int axis) HWY_ATTR {
    return hn::Add(hn::Set(d, emitter.velocity[axis]),
                   hn::Mul(hn::Set(d, emitter.velocity_spread[axis]),
                           symmetric(static_cast<uint32_t>(axis + 3))));
  };
  if constexpr (kShape == EmitterShape::kBox) {
    px = box_position(0);
    py = box_position(1);
    pz = box_position(2);
    vx = spread_velocity(0);
    vy = spread_velocity(1);
    vz = spread_velocity(2);
  } else if constexpr (kShape == EmitterShape::kSphere) {
    px = box_position(0);
    py = box_position(1);
    pz = box_position(2);
    const auto z = symmetric(3);
    V sin_phi = hn::Zero(d), cos_phi = hn::Zero(d);
    SinCos(d, hn::Mul(uniform(4), two_pi), sin_phi, cos_phi);
    const auto r_xy = hn::Sqrt(hn::Max(hn::Zero(d), hn::Sub(one, hn::Mul(z, z))));
    const auto speed = hn::Mul(hn::Set(d, emitter.radial_speed), uniform(5));
    const auto radial_velocity = [&](int axis, V direction) HWY_ATTR {
      return hn::Add(hn::Set(d, emitter.velocity[axis]), hn::Mul(direction, speed));
    };
    vx = radial_velocity(0, hn::Mul(r_xy, cos_phi));
    vy = radial_velocity(1, hn::Mul(r_xy, sin_phi));
    vz = radial_velocity(2, z);
  } else {
    static_assert(kShape == EmitterShape::kRing);
    V sin_theta = hn::Zero(d), cos_theta = hn::Zero(d);
    SinCos(d, hn::Mul(uniform(0), two_pi), sin_theta, cos_theta);
    const auto radial = hn::Add(hn::Set(d, emitter.radius),
                                hn::Mul(hn::Set(d, emitter.half_extent.x), symmetric(1)));
    px = hn::Add(hn::Set(d, emitter.center.x), hn::Mul(radial, cos_theta));
    py = hn::Add(hn::Set(d, emitter.center.y),
                 hn::Mul(hn::Set(d, emitter.half_extent.y), symmetric(2)));
    pz = hn::Add(hn::Set(d, emitter.center.z), hn::Mul(radial, sin_theta));
    const auto tangential = hn::Set(d, emitter.tangential_speed);
    vx = hn::Sub(spread_velocity(0), hn::Mul(tangential, sin_theta));
    vy = spread_velocity(1);
    vz = hn::Add(spread_velocity(2), hn::Mul(tangential, cos_theta));
  }
  lifetime = hn::Add(hn::Set(d, emitter.lifetime_min),
                     hn::Mul(uniform(6), hn::Set(d, emitter.lifetime_max - emitter.lifetime_min)));
}

template <EmitterShape kShape>
void EmitLoop(const Vec4View& positions, const Vec4View& velocities, const FloatView& ages,
              const FloatView& lifetimes, const EmitterParams& emitter, RandomStream random,
              uint32_t first_index) {
  const hn::ScalableTag<float> d;
  const RandomKeys keys = KeysFor(random);
  ForEachVector(d, positions.count, [&](size_t i, auto store) HWY_ATTR {
    auto px = hn::Zero(d), py = px, pz = px, vx = px, vy = px, vz = px, lifetime = px;
    EmitVector<kShape>(d, emitter, keys, first_index, i, px, py, pz, vx, vy, vz, lifetime);
    store(px, d, positions.x() + i);
    store(vx, d, velocities.x() + i);
    store(py, d, positions.y() + i);
    store(vy, d, velocities.y() + i);
    store(pz, d, positions.z() + i);
    store(vz, d, velocities.z() + i);
    store(hn::Zero(d), d, ages.data + i);
    store(lifetime, d, lifetimes.data + i);
  });
}

template <EmitterShape kShape>
void RespawnDeadLoop(const Vec4View& positions, const Vec4View& velocities, const FloatView& ages,
                     const FloatView& lifetimes, const ByteView& dead, const EmitterParams& emitter,
                     RandomStream random, uint32_t first_index) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const RandomKeys keys = KeysFor(random);
  ForEachVector(d, positions.count, [&](size_t i, auto store) HWY_ATTR {
    const auto flags = hn::PromoteTo(di, hn::LoadU(d8, dead.data + i));
    const auto respawn = hn::RebindMask(d, hn::Ne(flags, hn::Zero(di)));
    if (hn::AllFalse(d, respawn)) return;
    auto px = hn::Zero(d), py = px, pz = px, vx = px, vy = px, vz = px, lifetime = px;
    EmitVector<kShape>(d, emitter, keys, first_index, i, px, py, pz, vx, vy, vz, lifetime);
    // The new values in the respawned lanes, the old ones elsewhere.
    const auto respawn_axis = [&](size_t axis, hn::Vec<decltype(d)> new_p,
                                  hn::Vec<decltype(d)> new_v) HWY_ATTR {
      float* p = positions.Lane(axis) + i;
      float* v = velocities.Lane(axis) + i;
      store(hn::IfThenElse(respawn, new_p, hn::LoadU(d, p)), d, p);
      store(hn::IfThenElse(respawn, new_v, hn::LoadU(d, v)), d, v);
    };
    respawn_axis(0, px, vx);
    respawn_axis(1, py, vy);
    respawn_axis(2, pz, vz);
    store(hn::IfThenZeroElse(respawn, hn::LoadU(d, ages.data + i)), d, ages.data + i);
    store(hn::IfThenElse(respawn, lifetime, hn::LoadU(d, lifetimes.data + i)), d,
          lifetimes.data + i);
    store(hn::Zero(d8), d8, dead.data + i);
  });
}

inline void EmitImpl(const Vec4View& positions, const Vec4View& velocities, const FloatView& ages,
                     const FloatView& lifetimes, const EmitterParams& emitter, RandomStream random,
                     uint32_t first_index) {
  switch (emitter.shape) {
    case EmitterShape::kBox:
      return EmitLoop<EmitterShape::kBox>(positions, velocities, ages, lifetimes, emitter, random,
                                          first_index);
    case EmitterShape::kSphere:
      return EmitLoop<EmitterShape::kSphere>(positions, velocities, ages, lifetimes, emitter,
                                             random, first_index);
    case EmitterShape::kRing:
      return EmitLoop<EmitterShape::kRing>(positions, velocities, ages, lifetimes, emitter, random,
                                           first_index);
  }
}

inline void RespawnDeadImpl(const Vec4View& positions, const Vec4View& velocities,
                            const FloatView& ages, const FloatView& lifetimes, const ByteView& dead,
                            const EmitterParams& emitter, RandomStream random,
                            uint32_t first_index) {
  switch (emitter.shape) {
    case EmitterShape::kBox:
      return RespawnDeadLoop<EmitterShape::kBox>(positions, velocities, ages, lifetimes, dead,
                                                 emitter, random, first_index);
    case EmitterShape::kSphere:
      return RespawnDeadLoop<EmitterShape::kSphere>(positions, velocities, ages, lifetimes, dead,
                                                    emitter, random, first_index);
    case EmitterShape::kRing:
      return RespawnDeadLoop<EmitterShape::kRing>(positions, velocities, ages, lifetimes, dead,
                                                  emitter, random, first_index);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_EMIT_INL_H_
