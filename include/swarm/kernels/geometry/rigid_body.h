// Rigid-body kernels over SoA views: one integration step of poses (swarm/kernels/geometry/pose.h's
// PoseView) under linear and angular velocities, and world-space inverse inertia tensors.
//
// Determinism as everywhere in kernels/: each element is the same fixed sequence of correctly
// rounded operations on every SIMD target (no FMA, exact Div and Sqrt, the project's own sin/cos
// polynomials from kernels/base/deterministic_math-inl.h), so outputs are bitwise identical across
// targets. References: swarm/kernels/geometry/rigid_body_reference.h (bitwise for
// WorldInverseInertia; the integration step uses std::sin / std::cos there and agrees within a few
// ulp).
//
// Preconditions (checked once per call): views of one call have equal counts (both halves of a
// PoseView included) and follow the layout of swarm's owning buffers (swarm/kernels/base/views.h);
// outputs do not overlap inputs. Lane w of a translation is never read or written.
#pragma once

#include "swarm/kernels/base/views.h"

namespace swarm {

// Rigid-body integration for one step of dt_seconds (finite, > 0) with world-frame angular
// velocity omega (rad/s, lanes x, y, z) and linear velocity v (m/s, lanes x, y, z; lanes w of
// both velocity views are not read):
//   t += v dt
//   q = normalize(dq q),  dq = exp((omega dt / 2, 0)) = (sinc(h) dt / 2 omega, cos(h)),
//   h = |omega| dt / 2.
// The exact exponential map (derived in kernels/geometry/pose-inl.h): a constant omega rotates by
// exactly |omega| dt per step about omega / |omega|, up to rounding. sinc comes from a Taylor
// polynomial for h < 1/4 and sin(h) / h otherwise, selected per lane without a branch, so:
//   - omega = 0 gives dq = (0, 0, 0, 1) exactly, and the step sets q = normalize(q) (bitwise
//     reference::NormalizedQuaternion(q); unchanged for most unit q, else moved by an ulp or two)
//     and t = t + v dt;
//   - tiny omega (down to subnormal) gives dq = (omega dt / 2, 1): no division, no NaN.
// Normalisation is q / sqrt(dot(q, q)) with exact Sqrt and Div, so |q| = 1 within a few ulp after
// every step (no drift). Degenerate inputs: a zero q (or one whose dot(q, q) underflows) becomes
// the identity; NaN in q or omega, or an infinite omega, makes q NaN; NaN in v makes t NaN.
// Accuracy of the trigonometry: kernels/base/deterministic_math-inl.h (h beyond 1e4 rad, i.e. a
// spin of 2e4 rad per step, is outside its accurate range).
void IntegrateRigidBodies(const PoseView& poses, const ConstVec4View& linear_velocities,
                          const ConstVec4View& angular_velocities, float dt_seconds);

// World-space inverse inertia tensors I_w^-1 = R diag(inv_inertia_body) R^T for N bodies, R the
// rotation matrix of rotations[i] (glm::mat3_cast's formula; rotations should be unit, a zero
// quaternion gives R = I). inverse_body_inertia lanes x, y, z hold the principal inverse moments
// (lane w not read). The 3x3 result goes to the upper-left of out[i] (column-major like
// glm::mat4), exactly symmetric; the rest of out[i] is set to the identity's.
void WorldInverseInertia(const ConstVec4View& rotations, const ConstVec4View& inverse_body_inertia,
                         const Mat4View& out);

}  // namespace swarm
