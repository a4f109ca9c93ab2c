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
//   - views come from swarm's owning buffers or follow their layout (swarm/kernels/base/views.h);
//   - views of one call do not overlap unless stated;
//   - dt_seconds is finite and > 0 (the engine's checked entry points validate user input and
//     return an error instead; kernels trust their caller).
// Reference implementations for tests and benchmarks:
// swarm/kernels/particles/integrate_reference.h.
#pragma once

#include <cstdint>
#include <glm/vec3.hpp>

#include "swarm/kernels/base/views.h"

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
// energy errors stay bounded instead of drifting
// (tests/kernels/particles/integrate_analytic_test.cc).
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

}  // namespace swarm
