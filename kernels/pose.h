// Rigid poses (unit quaternion + translation, kernels/views.h PoseView) and rigid-body
// integration over SoA views. A pose maps local points to the parent frame:
//   T(p) = rotate(q, p) + t.
// Determinism as everywhere in kernels/: fixed order of correctly rounded operations and the
// project's own polynomials (kernels/deterministic_math-inl.h) where sin/cos are needed.
// References: kernels/pose_reference.h.
#pragma once

#include "kernels/views.h"

namespace swarm {

// out[i] = a[i] o b[i]: first b, then a. (q = qa qb, t = rotate(qa, tb) + ta.) out may alias a
// or b.
void ComposePoses(const ConstPoseView& a, const ConstPoseView& b, const PoseView& out);
// out[i] = inverse(pose[i]): q* and -rotate(q*, t). out may alias pose.
void InvertPoses(const ConstPoseView& poses, const PoseView& out);
// relative[i] = inverse(a[i]) o b[i]: b expressed in a's frame.
void RelativePoses(const ConstPoseView& a, const ConstPoseView& b, const PoseView& relative);
// out[i] = T_i(points[i]) (lane w of out copies lane w of points). in == out allowed.
void TransformPointsByPoses(const ConstPoseView& poses, const ConstVec4View& points,
                            const Vec4View& out);

// Rigid-body integration for one step of dt_seconds with world-frame angular velocity omega
// (rad/s, lanes x, y, z) and linear velocity v (m/s):
//   t += v dt
//   q = normalize(exp(omega dt / 2) q),  exp(omega dt / 2) = (sin(h) omega / |omega|, cos(h)),
//   h = |omega| dt / 2.
// The exact exponential map, so a constant omega rotates by exactly |omega| dt per step. The
// factor sin(h) / |omega| is evaluated as dt / 2 * sinc(h) with sinc from a polynomial for small
// h and sin(h) / h otherwise, selected per lane (no data-dependent branch), so omega = 0 gives
// exactly the identity and no division by zero.
void IntegrateRigidBodies(const PoseView& poses, const ConstVec4View& linear_velocities,
                          const ConstVec4View& angular_velocities, float dt_seconds);

// World-space inverse inertia tensors I_w^-1 = R diag(inv_inertia_body) R^T for N bodies, written
// to the upper-left 3x3 of out[i] (rest identity). inverse_body_inertia lanes x, y, z hold the
// principal inverse moments.
void WorldInverseInertia(const ConstVec4View& rotations, const ConstVec4View& inverse_body_inertia,
                         const Mat4View& out);

}  // namespace swarm
