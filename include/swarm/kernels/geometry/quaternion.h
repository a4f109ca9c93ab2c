// Quaternion kernels over SoA views: lanes x, y, z, w hold q = w + xi + yj + zk (the same
// components as glm::quat, whose constructor order is (w, x, y, z)). Rotations use unit
// quaternions; kernels that need unit inputs say so, and none of them crashes on a zero or NaN
// quaternion (documented results below).
//
// Determinism: correctly rounded Add/Sub/Mul/Div/Sqrt in a fixed order, and the project's own
// polynomial sin/cos/acos (kernels/base/deterministic_math-inl.h) where slerp needs them, so
// results are bitwise identical on every target. References:
// swarm/kernels/geometry/quaternion_reference.h.
//
// Preconditions (checked once per call): views of one call have equal counts and follow the
// layout of swarm/kernels/base/views.h. Outputs may be the very same view as an input (same pointer
// and lane stride) unless stated otherwise; partially overlapping views are not supported. Kernels
// write only `count` elements, so the zero padding of the caller's buffers stays zero.
#pragma once

#include <glm/gtc/quaternion.hpp>

#include "swarm/kernels/base/views.h"

namespace swarm {

// out[i] = rotate(q, in[i].xyz) = q v q*, lane w of `out` copies lane w of `in`. q should be unit;
// it is used as given (a non-unit q also scales by |q|^2). in == out allowed.
void RotateVectors(const glm::quat& q, const ConstVec4View& in, const Vec4View& out);
// out[i] = rotate(q[i], in[i].xyz). in == out allowed; q must not alias out.
void RotateVectorsPerElement(const ConstVec4View& q, const ConstVec4View& in, const Vec4View& out);

// out[i] = a[i] * b[i] (Hamilton product: apply b, then a). out may alias a or b.
void MultiplyQuaternions(const ConstVec4View& a, const ConstVec4View& b, const Vec4View& out);
// out[i] = conjugate(q[i]) = (-x, -y, -z, w); the inverse of a unit quaternion.
void ConjugateQuaternions(const ConstVec4View& q, const Vec4View& out);
// out[i] = q[i] / |q[i]|, |q| = sqrt(((x x + y y) + z z) + w w), each component divided. A zero
// quaternion (or one below ~1e-19, whose squared length underflows) becomes the identity
// (0, 0, 0, 1); a NaN component makes all four components NaN.
void NormalizeQuaternions(const ConstVec4View& q, const Vec4View& out);

// The rotation matrix of q[i] (unit) is written into the upper-left 3x3 of matrices[i]
// (column-major like glm::mat3_cast, the same bits), the rest of matrices[i] set to the
// identity's. The zero quaternion gives the identity; NaN gives NaN in the 3x3 part only.
void QuaternionsToMatrices(const ConstVec4View& q, const Mat4View& matrices);
// The unit quaternion of the rotation in the upper-left 3x3 of matrices[i] (Shepperd's method,
// branch-free selects, w >= 0; glm::quat_cast's bits up to that sign). Row and column 3 are
// ignored. The 3x3 part should be a rotation; other matrices give the quaternion of their
// nearest rotation only approximately, never a division by zero (the zero matrix gives
// (0, 0, 0, 1/2)); NaN entries give NaN. A half turn (w = 0) keeps the sign Shepperd's method
// produces (its largest component positive).
void MatricesToQuaternions(const ConstMat4View& matrices, const Vec4View& q);

// Interpolation between two buffers of unit quaternions at parameter t in [0, 1] (render
// interpolation between the last two physics states). Both take the shorter arc (b is negated
// where dot(a, b) < 0).
//   nlerp: normalize((1 - t) a + t b)  (cheap, not constant speed)
//   slerp: sin((1 - t) theta) / sin(theta) a + sin(t theta) / sin(theta) b, theta = acos(dot);
//          falls back to nlerp where dot > 1 - 2^-23 (theta < ~5e-4; branch-free select).
// t outside [0, 1] extrapolates along the same arc (slerp, constant angular speed) or chord
// (nlerp). Degenerate inputs never crash: b = -a (antipodal, the same rotation) gives a; a NaN
// component in a or b makes all four outputs NaN; a zero quaternion gives a finite result.
void NlerpQuaternions(const ConstVec4View& a, const ConstVec4View& b, float t, const Vec4View& out);
void SlerpQuaternions(const ConstVec4View& a, const ConstVec4View& b, float t, const Vec4View& out);

}  // namespace swarm
