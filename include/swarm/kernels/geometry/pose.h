// Rigid poses (unit quaternion + translation, swarm/kernels/base/views.h PoseView) over SoA views.
// A pose maps local points to the parent frame:
//   T(p) = rotate(q, p) + t,   rotate(q, p) = p + 2 (w (u x p) + u x (u x p)),  u = q.xyz
// (glm's quat * vec3). Composition a o b applies b first: (a o b)(p) = a(b(p)).
//
// Determinism as everywhere in kernels/: each element is the same fixed sequence of correctly
// rounded operations on every SIMD target (no FMA, exact Div and Sqrt, the project's own sin/cos
// polynomials from kernels/base/deterministic_math-inl.h), so outputs are bitwise identical across
// targets. References (same order of operations, bitwise): swarm/kernels/geometry/pose_reference.h.
// Rigid-body integration of poses: swarm/kernels/geometry/rigid_body.h.
//
// Preconditions shared by all kernels (checked once per call):
//   - views of one call have equal counts (both halves of a PoseView included);
//   - views follow the layout of swarm's owning buffers (swarm/kernels/base/views.h);
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

#include "swarm/kernels/base/views.h"

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

}  // namespace swarm
