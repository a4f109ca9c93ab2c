// Per-target quaternion arithmetic on registers, shared by the quaternion, pose, rigid-body and
// robot kernels. Each function fixes the order of its correctly rounded operations (no FMA), and
// the scalar references (kernels/geometry/quaternion_reference.cc) follow the same order, so
// results agree bitwise across targets and with the references.
//
// Calling convention: a quaternion or 3-vector is passed as its components (x, y, z[, w]), one
// vector of lanes each. Inputs are taken by value and results are written through reference
// parameters, never returned in a struct and never kept in arrays: SVE vectors are sizeless, and
// C++ allows them neither as struct members nor as array elements. Because the inputs are
// copies, a caller may pass the same variables as input and output, e.g.
// Normalize(x, y, z, w, x, y, z, w) normalises in place. The per-lane selects (IfThenReplaceQuat,
// IfNegateQuat) update the quaternion they are given.

#if defined(SWARM_KERNELS_QUATERNION_MATH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_QUATERNION_MATH_INL_H_
#undef SWARM_KERNELS_QUATERNION_MATH_INL_H_
#else
#define SWARM_KERNELS_QUATERNION_MATH_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "kernels/base/vector_scratch-inl.h"
#include "swarm/kernels/base/views.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Lanes i .. i + N of the x, y, z (and w) arrays of a view.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void LoadVec3(D d, const ConstVec4View& view, size_t i, V& x, V& y, V& z) {
  x = hn::LoadU(d, view.x() + i);
  y = hn::LoadU(d, view.y() + i);
  z = hn::LoadU(d, view.z() + i);
}

template <class D, class V = hn::Vec<D>>
HWY_INLINE void LoadQuat(D d, const ConstVec4View& view, size_t i, V& x, V& y, V& z, V& w) {
  x = hn::LoadU(d, view.x() + i);
  y = hn::LoadU(d, view.y() + i);
  z = hn::LoadU(d, view.z() + i);
  w = hn::LoadU(d, view.w() + i);
}

// Stores lanes x, y, z, w (Store is StoreAll or StoreFirst from kernels/base/loop-inl.h).
template <class D, class Store, class V = hn::Vec<D>>
HWY_INLINE void StoreQuat(D d, V x, V y, V z, V w, const Vec4View& view, size_t i, Store store) {
  store(x, d, view.x() + i);
  store(y, d, view.y() + i);
  store(z, d, view.z() + i);
  store(w, d, view.w() + i);
}

// ((ax bx + ay by) + az bz).
template <class V>
HWY_INLINE V Dot3(V ax, V ay, V az, V bx, V by, V bz) {
  return hn::Add(hn::Add(hn::Mul(ax, bx), hn::Mul(ay, by)), hn::Mul(az, bz));
}

// r = a x b.
template <class V>
HWY_INLINE void Cross(V ax, V ay, V az, V bx, V by, V bz, V& rx, V& ry, V& rz) {
  rx = hn::Sub(hn::Mul(ay, bz), hn::Mul(az, by));
  ry = hn::Sub(hn::Mul(az, bx), hn::Mul(ax, bz));
  rz = hn::Sub(hn::Mul(ax, by), hn::Mul(ay, bx));
}

// Hamilton product r = a * b (apply b, then a):
//   w = ((aw bw - ax bx) - ay by) - az bz
//   x = ((aw bx + ax bw) + ay bz) - az by
//   y = ((aw by - ax bz) + ay bw) + az bx
//   z = ((aw bz + ax by) - ay bx) + az bw
template <class V>
HWY_INLINE void Multiply(V ax, V ay, V az, V aw, V bx, V by, V bz, V bw, V& rx, V& ry, V& rz,
                         V& rw) {
  rw =
      hn::Sub(hn::Sub(hn::Sub(hn::Mul(aw, bw), hn::Mul(ax, bx)), hn::Mul(ay, by)), hn::Mul(az, bz));
  rx =
      hn::Sub(hn::Add(hn::Add(hn::Mul(aw, bx), hn::Mul(ax, bw)), hn::Mul(ay, bz)), hn::Mul(az, by));
  ry =
      hn::Add(hn::Add(hn::Sub(hn::Mul(aw, by), hn::Mul(ax, bz)), hn::Mul(ay, bw)), hn::Mul(az, bx));
  rz =
      hn::Add(hn::Sub(hn::Add(hn::Mul(aw, bz), hn::Mul(ax, by)), hn::Mul(ay, bx)), hn::Mul(az, bw));
}

// r = q* = (-x, -y, -z, w).
template <class V>
HWY_INLINE void Conjugate(V x, V y, V z, V w, V& rx, V& ry, V& rz, V& rw) {
  rx = hn::Neg(x);
  ry = hn::Neg(y);
  rz = hn::Neg(z);
  rw = w;
}

// r = rotate(q, v) = v + 2 (w (u x v) + u x (u x v)), u = q.xyz, as glm computes quat * vec3:
//   uv = u x v;  uuv = u x uv;  r = v + ((uv * w) + uuv) * 2
template <class V>
HWY_INLINE void Rotate(V qx, V qy, V qz, V qw, V vx, V vy, V vz, V& rx, V& ry, V& rz) {
  V uv_x, uv_y, uv_z;
  Cross(qx, qy, qz, vx, vy, vz, uv_x, uv_y, uv_z);
  V uuv_x, uuv_y, uuv_z;
  Cross(qx, qy, qz, uv_x, uv_y, uv_z, uuv_x, uuv_y, uuv_z);
  const V two = hn::Set(hn::DFromV<V>(), 2.0f);
  rx = hn::Add(vx, hn::Mul(hn::Add(hn::Mul(uv_x, qw), uuv_x), two));
  ry = hn::Add(vy, hn::Mul(hn::Add(hn::Mul(uv_y, qw), uuv_y), two));
  rz = hn::Add(vz, hn::Mul(hn::Add(hn::Mul(uv_z, qw), uuv_z), two));
}

// q = yes where `mask` is set, q unchanged elsewhere (per lane).
template <class M, class V>
HWY_INLINE void IfThenReplaceQuat(M mask, V yes_x, V yes_y, V yes_z, V yes_w, V& x, V& y, V& z,
                                  V& w) {
  x = hn::IfThenElse(mask, yes_x, x);
  y = hn::IfThenElse(mask, yes_y, y);
  z = hn::IfThenElse(mask, yes_z, z);
  w = hn::IfThenElse(mask, yes_w, w);
}

// q = -q where `mask` is set, q unchanged elsewhere (negation is exact).
template <class M, class V>
HWY_INLINE void IfNegateQuat(M mask, V& x, V& y, V& z, V& w) {
  const V negative_x = hn::Neg(x), negative_y = hn::Neg(y), negative_z = hn::Neg(z),
          negative_w = hn::Neg(w);
  IfThenReplaceQuat(mask, negative_x, negative_y, negative_z, negative_w, x, y, z, w);
}

// r = a sa + b sb, component-wise (each product rounded, then the sum).
template <class V>
HWY_INLINE void WeightedSum(V ax, V ay, V az, V aw, V sa, V bx, V by, V bz, V bw, V sb, V& rx,
                            V& ry, V& rz, V& rw) {
  rx = hn::Add(hn::Mul(ax, sa), hn::Mul(bx, sb));
  ry = hn::Add(hn::Mul(ay, sa), hn::Mul(by, sb));
  rz = hn::Add(hn::Mul(az, sa), hn::Mul(bz, sb));
  rw = hn::Add(hn::Mul(aw, sa), hn::Mul(bw, sb));
}

// dot(a, b) = ((ax bx + ay by) + az bz) + aw bw.
template <class V>
HWY_INLINE V Dot(V ax, V ay, V az, V aw, V bx, V by, V bz, V bw) {
  return hn::Add(hn::Add(hn::Add(hn::Mul(ax, bx), hn::Mul(ay, by)), hn::Mul(az, bz)),
                 hn::Mul(aw, bw));
}

// r = q / |q| with |q| = sqrt(dot(q, q)); each component divided (not multiplied by 1 / |q|,
// which would add a rounding). Where |q| == 0 the result is the identity (0, 0, 0, 1), selected
// per lane; NaN compares unequal to 0, so a NaN quaternion stays NaN. (|q| below ~1e-19
// underflows in the dot product and also gives the identity.)
template <class V>
HWY_INLINE void Normalize(V x, V y, V z, V w, V& rx, V& ry, V& rz, V& rw) {
  const hn::DFromV<V> d;
  const V length = hn::Sqrt(Dot(x, y, z, w, x, y, z, w));
  const auto zero = hn::Eq(length, hn::Zero(d));
  const V divisor = hn::IfThenElse(zero, hn::Set(d, 1.0f), length);
  const V zero_vector = hn::Zero(d);
  rx = hn::Div(x, divisor);
  ry = hn::Div(y, divisor);
  rz = hn::Div(z, divisor);
  rw = hn::Div(w, divisor);
  IfThenReplaceQuat(zero, zero_vector, zero_vector, zero_vector, hn::Set(d, 1.0f), rx, ry, rz, rw);
}

// The rotation matrix of a unit q in glm::mat3_cast's order of operations. m<c><r> is column c,
// row r (glm's m[c][r]):
//   column 0 = (1 - 2 (yy + zz),  2 (xy + wz),      2 (xz - wy))
//   column 1 = (2 (xy - wz),      1 - 2 (xx + zz),  2 (yz + wx))
//   column 2 = (2 (xz + wy),      2 (yz - wx),      1 - 2 (xx + yy))
template <class V>
HWY_INLINE void RotationMatrix(V x, V y, V z, V w, V& m00, V& m01, V& m02, V& m10, V& m11, V& m12,
                               V& m20, V& m21, V& m22) {
  const hn::DFromV<V> d;
  const V one = hn::Set(d, 1.0f);
  const V two = hn::Set(d, 2.0f);
  const V xx = hn::Mul(x, x), yy = hn::Mul(y, y), zz = hn::Mul(z, z);
  const V xz = hn::Mul(x, z), xy = hn::Mul(x, y), yz = hn::Mul(y, z);
  const V wx = hn::Mul(w, x), wy = hn::Mul(w, y), wz = hn::Mul(w, z);
  m00 = hn::Sub(one, hn::Mul(two, hn::Add(yy, zz)));
  m01 = hn::Mul(two, hn::Add(xy, wz));
  m02 = hn::Mul(two, hn::Sub(xz, wy));
  m10 = hn::Mul(two, hn::Sub(xy, wz));
  m11 = hn::Sub(one, hn::Mul(two, hn::Add(xx, zz)));
  m12 = hn::Mul(two, hn::Add(yz, wx));
  m20 = hn::Mul(two, hn::Add(xz, wy));
  m21 = hn::Mul(two, hn::Sub(yz, wx));
  m22 = hn::Sub(one, hn::Mul(two, hn::Add(xx, yy)));
}

// The rotation matrix of the quaternions at lanes i .. i + N of a view, entry (column c, row r) in
// scratch slot 3 c + r, for kernels that index it in loops. On x86 the compiler forwards the slots
// to registers (the machine code is that of an array of vectors).
template <class D>
HWY_INLINE void LoadRotationMatrix(D d, const ConstVec4View& quaternions, size_t i,
                                   VectorScratch<D, 9>& m) {
  using V = hn::Vec<D>;
  V x, y, z, w;
  LoadQuat(d, quaternions, i, x, y, z, w);
  V m00, m01, m02, m10, m11, m12, m20, m21, m22;
  RotationMatrix(x, y, z, w, m00, m01, m02, m10, m11, m12, m20, m21, m22);
  m.Set(d, 0, m00), m.Set(d, 1, m01), m.Set(d, 2, m02);
  m.Set(d, 3, m10), m.Set(d, 4, m11), m.Set(d, 5, m12);
  m.Set(d, 6, m20), m.Set(d, 7, m21), m.Set(d, 8, m22);
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_QUATERNION_MATH_INL_H_
