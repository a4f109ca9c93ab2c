// Particle integration kernels over SoA f32x4 views.
//
// Every kernel here is deterministic: the same inputs give the same bits on every compiled SIMD
// target (AVX3, AVX2, SSE4, SSSE3, SCALAR) because each element is computed by the same sequence
// of correctly rounded IEEE operations (no FMA contraction, no approximate reciprocals), and
// elements never interact. Positions and velocities use lanes x, y, z; lane w is never read or
// written (callers keep per-particle data there, e.g. a colour index).
//
// Preconditions shared by all kernels (checked once per call):
//   - views of one call have equal counts;
//   - views come from swarm's owning buffers or follow their layout (kernels/views.h);
//   - views of one call do not overlap unless stated;
//   - dt_seconds is finite and > 0 (the engine's checked entry points validate user input and
//     return an error instead; kernels trust their caller).
// Reference implementations for tests and benchmarks: kernels/integrate_reference.h.
#pragma once

#include <cstdint>
#include <glm/vec3.hpp>

#include "kernels/views.h"

namespace swarm {

// Semi-implicit (symplectic) Euler with constant gravity and linear drag:
//   v += (g - k v) dt;   p += v dt   (the new v moves p).
struct EulerParams {
  glm::vec3 gravity{0.0f, -9.81f, 0.0f};  // m/s^2
  float drag_per_second = 0.0f;           // k >= 0
  float dt_seconds = 1.0f / 60.0f;
};
void IntegrateEuler(const Vec4View& positions, const Vec4View& velocities,
                    const EulerParams& params);

// Velocity Verlet in kick-drift / kick form with a per-particle acceleration buffer:
//   VerletKickDrift:  v += a dt/2;  p += v dt        (a = a(t))
//   (caller evaluates a(t + dt) into `accelerations`)
//   VerletKick:       v += a dt/2                     (a = a(t + dt))
// One full step is KickDrift, force evaluation, Kick. The scheme is second order and symplectic:
// energy errors stay bounded instead of drifting (tests/kernels/integrate_analytic_test.cc).
void VerletKickDrift(const Vec4View& positions, const Vec4View& velocities,
                     const ConstVec4View& accelerations, float dt_seconds);
void VerletKick(const Vec4View& velocities, const ConstVec4View& accelerations, float dt_seconds);

// Collision response against the inside of an axis-aligned box. Per axis a: a particle past a
// wall is moved onto it and, if it was moving outward, its velocity component is reflected and
// scaled by `restitution`. A particle touching any wall loses `friction` of its velocity along
// the axes of the walls it is not touching (tangential friction, applied once per step).
struct BoxParams {
  glm::vec3 min{-1.0f, -1.0f, -1.0f};
  glm::vec3 max{1.0f, 1.0f, 1.0f};
  float restitution = 0.5f;  // in [0, 1]
  float friction = 0.1f;     // in [0, 1]
};
void CollideBox(const Vec4View& positions, const Vec4View& velocities, const BoxParams& params);

// Point attractor (strength > 0) or repulsor (strength < 0) with Plummer softening:
//   a = strength (c - p) / (|c - p|^2 + eps^2)^(3/2);   v += a dt
// The softening eps > 0 bounds the acceleration near the centre (no division by zero).
struct AttractorParams {
  glm::vec3 center{0.0f, 0.0f, 0.0f};
  float strength = 1.0f;   // m^3/s^2 (G*M for gravity-like attraction)
  float softening = 0.1f;  // m, > 0
  float dt_seconds = 1.0f / 60.0f;
};
void ApplyAttractor(const ConstVec4View& positions, const Vec4View& velocities,
                    const AttractorParams& params);

// Ages particles: age += dt; dead[i] = (age[i] >= lifetime[i]) ? 1 : 0.
void AdvanceAge(const FloatView& ages, const ConstFloatView& lifetimes, const ByteView& dead,
                float dt_seconds);

// Counter-based random numbers: element i of a call gets a value that depends only on
// (seed, stream, first_index + i), never on the SIMD width, the tile or the thread that computed
// it. The generator hashes the 32-bit counter with a seed-derived key through two rounds of an
// integer finaliser (Wellons' "lowbias32"); floats take the top 24 bits, so uniform values are
// multiples of 2^-24 in [0, 1). Counters wrap after 2^32 values per (seed, stream).
struct RandomStream {
  uint64_t seed = 0;
  uint32_t stream = 0;  // e.g. the step number, so each step draws fresh numbers
};
// out[i] = lo + (hi - lo) * u(first_index + i), u uniform in [0, 1). The result lies in
// [lo, hi]: rounding can give exactly hi when (hi - lo) is small next to |hi| (e.g. [100, 200)
// yields 200 for the largest u), so callers that need a half-open range must clamp.
void FillUniform(const FloatView& out, RandomStream random, uint32_t first_index, float lo,
                 float hi);

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
// sin and cos are the deterministic polynomials of kernels/deterministic_math-inl.h, so every
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
// other fields (engine/particle_params.h).
void EmitParticles(const Vec4View& positions, const Vec4View& velocities, const FloatView& ages,
                   const FloatView& lifetimes, const EmitterParams& emitter, RandomStream random,
                   uint32_t first_index);
// Re-emits only the elements whose dead flag is set, then clears the flag. Live particles keep
// their bits.
void RespawnDead(const Vec4View& positions, const Vec4View& velocities, const FloatView& ages,
                 const FloatView& lifetimes, const ByteView& dead, const EmitterParams& emitter,
                 RandomStream random, uint32_t first_index);

}  // namespace swarm
