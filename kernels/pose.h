// Rigid poses (unit quaternion + translation, kernels/views.h PoseView) and rigid-body
// integration over SoA views. A pose maps local points to the parent frame:
//   T(p) = rotate(q, p) + t,   rotate(q, p) = p + 2 (w (u x p) + u x (u x p)),  u = q.xyz
// (glm's quat * vec3). Composition a o b applies b first: (a o b)(p) = a(b(p)).
//
// Determinism as everywhere in kernels/: each element is the same fixed sequence of correctly
// rounded operations on every SIMD target (no FMA, exact Div and Sqrt, the project's own sin/cos
// polynomials from kernels/deterministic_math-inl.h), so outputs are bitwise identical across
// targets. References (same order of operations, bitwise except the rigid-body trigonometry):
// kernels/pose_reference.h.
//
// Preconditions shared by all kernels (checked once per call):
//   - views of one call have equal counts (both halves of a PoseView included);
//   - views follow the layout of swarm's owning buffers (kernels/views.h);
//   - an output may be the very same view as an input where stated (same data pointer and lane
//     stride; element i only reads element i, and a vector of elements is loaded before any of
//     it is stored); otherwise outputs must not overlap inputs or each other.
// Lane w of a translation is never read or written (callers keep per-pose data there); only
// elements [0, count) are written, so the zero padding of owning buffers stays zero.
//
// Degenerate inputs never crash and give these results (all follow from the formulas):
//   - a zero quaternion rotates points like the identity (u = 0, w = 0 leave p unchanged) but
//     composes to a zero quaternion; it inverts to (-0, -0, -0, 0) with translation -t;
//   - NaN propagates to exactly the outputs computed from it: NaN in a quaternion that rotates
//     (a's in ComposePoses and RelativePoses, the pose's in InvertPoses and
//     TransformPointsByPoses) makes that element's output quaternion and translation (point) NaN;
//     NaN in b's quaternion makes only the output quaternion NaN; NaN in a translation or point
//     makes only the output translation (point) NaN;
//   - other elements are never affected.
#pragma once

#include "kernels/views.h"

namespace swarm {

// out[i] = a[i] o b[i]: first b, then a. (q = qa qb, t = rotate(qa, tb) + ta.)
// out may be the same view as a or as b.
void ComposePoses(const ConstPoseView& a, const ConstPoseView& b, const PoseView& out);

// out[i] = inverse(pose[i]) = (q*, -rotate(q*, t)); exact inverse for unit q (for a non-unit q
// the conjugate is not the inverse). out may be the same view as poses.
void InvertPoses(const ConstPoseView& poses, const PoseView& out);

// relative[i] = inverse(a[i]) o b[i]: b expressed in a's frame, so a o relative = b. Computed as
// (qa* qb, rotate(qa*, tb - ta)), which subtracts the translations before rotating (accurate for
// nearby poses). relative may be the same view as a or as b.
void RelativePoses(const ConstPoseView& a, const ConstPoseView& b, const PoseView& relative);

// out[i].xyz = T_i(points[i].xyz) = rotate(q_i, p) + t_i; out[i].w = points[i].w.
// out may be the same view as points.
void TransformPointsByPoses(const ConstPoseView& poses, const ConstVec4View& points,
                            const Vec4View& out);

// Rigid-body integration for one step of dt_seconds (finite, > 0) with world-frame angular
// velocity omega (rad/s, lanes x, y, z) and linear velocity v (m/s, lanes x, y, z; lanes w of
// both velocity views are not read):
//   t += v dt
//   q = normalize(dq q),  dq = exp((omega dt / 2, 0)) = (sinc(h) dt / 2 omega, cos(h)),
//   h = |omega| dt / 2.
// The exact exponential map (derived in kernels/pose-inl.h): a constant omega rotates by exactly
// |omega| dt per step about omega / |omega|, up to rounding. sinc comes from a Taylor polynomial
// for h < 1/4 and sin(h) / h otherwise, selected per lane without a branch, so:
//   - omega = 0 gives dq = (0, 0, 0, 1) exactly, and the step sets q = normalize(q) (bitwise
//     reference::NormalizedQuaternion(q); unchanged for most unit q, else moved by an ulp or two)
//     and t = t + v dt;
//   - tiny omega (down to subnormal) gives dq = (omega dt / 2, 1): no division, no NaN.
// Normalisation is q / sqrt(dot(q, q)) with exact Sqrt and Div, so |q| = 1 within a few ulp after
// every step (no drift). Degenerate inputs: a zero q (or one whose dot(q, q) underflows) becomes
// the identity; NaN in q or omega, or an infinite omega, makes q NaN; NaN in v makes t NaN.
// Accuracy of the trigonometry: kernels/deterministic_math-inl.h (h beyond 1e4 rad, i.e. a
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
