// Particle emitters over SoA f32x4 views: where and how fast particles are born, drawn from the
// counter-based generator of swarm/kernels/base/random.h.
//
// Deterministic like every kernel: an emitted particle depends only on (emitter, random stream,
// particle index), so it has the same bits on every compiled SIMD target, tile and thread.
// Preconditions: the views of one call have equal counts and swarm's padded layout
// (swarm/kernels/base/views.h). Reference: swarm/kernels/particles/emit_reference.h.
#pragma once

#include <cstdint>
#include <glm/vec3.hpp>

#include "swarm/kernels/base/random.h"
#include "swarm/kernels/base/views.h"

namespace swarm {

// Where and how fast particles are born. Each particle draws 7 uniforms u0..u6 in [0, 1) from
// counters 8 * (first_index + i) + 0..6 of `random`, so an emitted particle depends only on its
// index; s(u) = 2u - 1 is the symmetric draw in [-1, 1). Every shape takes its lifetime from u6,
// lifetime_min + u6 (lifetime_max - lifetime_min), and leaves age 0.
//   kBox (a fountain):  p = center + half_extent * s(u0..u2)   (per axis)
//                       v = velocity + velocity_spread * s(u3..u5)
//   kSphere (a burst):  p as kBox; v = velocity + radial_speed u5 * dir, dir uniform on the unit
//                       sphere by Archimedes' hat-box theorem (z uniform in [-1, 1) gives equal
//                       area per dz): z = s(u3), phi = 2 pi u4, r = sqrt(max(0, 1 - z^2)),
//                       dir = (r cos phi, r sin phi, z). |v - velocity| <= radial_speed.
//   kRing (a vortex):   theta = 2 pi u0, radial = radius + half_extent.x s(u1),
//                       p = center + radial (cos theta, 0, sin theta) + (0, half_extent.y s(u2), 0)
//                       v = velocity + velocity_spread * s(u3..u5)
//                           + tangential_speed (-sin theta, 0, cos theta)
//                       (tangential_speed > 0 turns from +x towards +z).
// sin and cos are the deterministic polynomials of kernels/base/deterministic_math-inl.h, so every
// shape gives the same bits on every target.
enum class EmitterShape : uint8_t { kBox, kSphere, kRing };

// 2 pi rounded to float: the angle scale of kSphere and kRing in the kernels and the reference.
inline constexpr float kEmitterTwoPi = 6.28318530717958647692f;

struct EmitterParams {
  glm::vec3 center{0.0f, 0.0f, 0.0f};
  glm::vec3 half_extent{0.1f, 0.1f, 0.1f};
  glm::vec3 velocity{0.0f, 5.0f, 0.0f};
  glm::vec3 velocity_spread{1.0f, 1.0f, 1.0f};  // kBox, kRing
  float lifetime_min = 1.0f;
  float lifetime_max = 3.0f;
  EmitterShape shape = EmitterShape::kBox;
  float radius = 1.0f;            // kRing: ring radius in the xz plane (m), >= 0
  float radial_speed = 0.0f;      // kSphere: maximum outward speed (m/s), >= 0
  float tangential_speed = 0.0f;  // kRing: speed along the ring (m/s), any sign
};
// Emits into every element (positions, velocities lanes x, y, z; ages = 0; lifetimes drawn).
// emitter.shape must be one of the EmitterShape values (checked); the engine validates the
// other fields (swarm/particles/particle_params.h).
void EmitParticles(const Vec4View& positions, const Vec4View& velocities, const FloatView& ages,
                   const FloatView& lifetimes, const EmitterParams& emitter, RandomStream random,
                   uint32_t first_index);
// Re-emits only the elements whose dead flag is set, then clears the flag. Live particles keep
// their bits.
void RespawnDead(const Vec4View& positions, const Vec4View& velocities, const FloatView& ages,
                 const FloatView& lifetimes, const ByteView& dead, const EmitterParams& emitter,
                 RandomStream random, uint32_t first_index);

}  // namespace swarm
