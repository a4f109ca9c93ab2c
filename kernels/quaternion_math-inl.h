// Per-target quaternion arithmetic on registers, shared by the quaternion, pose and rigid-body
// kernels. Each function fixes the order of its correctly rounded operations (no FMA), and the
// scalar references (kernels/quaternion_reference.cc) follow the same order, so results agree
// bitwise across targets and with the references.

#if defined(SWARM_KERNELS_QUATERNION_MATH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_QUATERNION_MATH_INL_H_
#undef SWARM_KERNELS_QUATERNION_MATH_INL_H_
#else
#define SWARM_KERNELS_QUATERNION_MATH_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "swarm/kernels/views.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Lanes i .. i + N of three or four SoA arrays.
template <class V>
struct Vec3V {
  V x, y, z;
};
template <class V>
struct QuatV {
  V x, y, z, w;
};

template <class D>
HWY_INLINE Vec3V<hn::Vec<D>> LoadVec3(D d, const ConstVec4View& view, size_t i) {
  return {hn::LoadU(d, view.x() + i), hn::LoadU(d, view.y() + i), hn::LoadU(d, view.z() + i)};
}

template <class D>
HWY_INLINE QuatV<hn::Vec<D>> LoadQuat(D d, const ConstVec4View& view, size_t i) {
  return {hn::LoadU(d, view.x() + i), hn::LoadU(d, view.y() + i), hn::LoadU(d, view.z() + i),
          hn::LoadU(d, view.w() + i)};
}

template <class V>
HWY_INLINE Vec3V<V> AddVec3(const Vec3V<V>& a, const Vec3V<V>& b) {
  return {hn::Add(a.x, b.x), hn::Add(a.y, b.y), hn::Add(a.z, b.z)};
}

template <class V>
HWY_INLINE Vec3V<V> SubVec3(const Vec3V<V>& a, const Vec3V<V>& b) {
  return {hn::Sub(a.x, b.x), hn::Sub(a.y, b.y), hn::Sub(a.z, b.z)};
}

template <class V>
HWY_INLINE Vec3V<V> Cross(const Vec3V<V>& a, const Vec3V<V>& b) {
  return {hn::Sub(hn::Mul(a.y, b.z), hn::Mul(a.z, b.y)),
          hn::Sub(hn::Mul(a.z, b.x), hn::Mul(a.x, b.z)),
          hn::Sub(hn::Mul(a.x, b.y), hn::Mul(a.y, b.x))};
}

// Hamilton product a * b (apply b, then a):
//   w = ((aw bw - ax bx) - ay by) - az bz
//   x = ((aw bx + ax bw) + ay bz) - az by
//   y = ((aw by - ax bz) + ay bw) + az bx
//   z = ((aw bz + ax by) - ay bx) + az bw
template <class V>
HWY_INLINE QuatV<V> Multiply(const QuatV<V>& a, const QuatV<V>& b) {
  QuatV<V> r;
  r.w = hn::Sub(hn::Sub(hn::Sub(hn::Mul(a.w, b.w), hn::Mul(a.x, b.x)), hn::Mul(a.y, b.y)),
                hn::Mul(a.z, b.z));
  r.x = hn::Sub(hn::Add(hn::Add(hn::Mul(a.w, b.x), hn::Mul(a.x, b.w)), hn::Mul(a.y, b.z)),
                hn::Mul(a.z, b.y));
  r.y = hn::Add(hn::Add(hn::Sub(hn::Mul(a.w, b.y), hn::Mul(a.x, b.z)), hn::Mul(a.y, b.w)),
                hn::Mul(a.z, b.x));
  r.z = hn::Add(hn::Sub(hn::Add(hn::Mul(a.w, b.z), hn::Mul(a.x, b.y)), hn::Mul(a.y, b.x)),
                hn::Mul(a.z, b.w));
  return r;
}

template <class V>
HWY_INLINE QuatV<V> Conjugate(const QuatV<V>& q) {
  return {hn::Neg(q.x), hn::Neg(q.y), hn::Neg(q.z), q.w};
}

// rotate(q, v) = v + 2 (w (u x v) + u x (u x v)), u = q.xyz, as glm computes quat * vec3:
//   uv = u x v;  uuv = u x uv;  result = v + ((uv * w) + uuv) * 2
template <class V>
HWY_INLINE Vec3V<V> Rotate(const QuatV<V>& q, const Vec3V<V>& v) {
  const Vec3V<V> u{q.x, q.y, q.z};
  const Vec3V<V> uv = Cross(u, v);
  const Vec3V<V> uuv = Cross(u, uv);
  const V two = hn::Set(hn::DFromV<V>(), 2.0f);
  return {hn::Add(v.x, hn::Mul(hn::Add(hn::Mul(uv.x, q.w), uuv.x), two)),
          hn::Add(v.y, hn::Mul(hn::Add(hn::Mul(uv.y, q.w), uuv.y), two)),
          hn::Add(v.z, hn::Mul(hn::Add(hn::Mul(uv.z, q.w), uuv.z), two))};
}

// Stores lanes x, y, z, w (Store is StoreAll or StoreFirst from kernels/loop-inl.h).
template <class D, class Store>
HWY_INLINE void StoreQuat(D d, const QuatV<hn::Vec<D>>& q, const Vec4View& view, size_t i,
                          Store store) {
  store(q.x, d, view.x() + i);
  store(q.y, d, view.y() + i);
  store(q.z, d, view.z() + i);
  store(q.w, d, view.w() + i);
}

// One quaternion in every lane (the constant operand of a batch).
template <class D>
HWY_INLINE QuatV<hn::Vec<D>> BroadcastQuat(D d, float x, float y, float z, float w) {
  return {hn::Set(d, x), hn::Set(d, y), hn::Set(d, z), hn::Set(d, w)};
}

template <class M, class V>
HWY_INLINE QuatV<V> IfThenElseQuat(M mask, const QuatV<V>& yes, const QuatV<V>& no) {
  return {hn::IfThenElse(mask, yes.x, no.x), hn::IfThenElse(mask, yes.y, no.y),
          hn::IfThenElse(mask, yes.z, no.z), hn::IfThenElse(mask, yes.w, no.w)};
}

template <class V>
HWY_INLINE QuatV<V> Negate(const QuatV<V>& q) {
  return {hn::Neg(q.x), hn::Neg(q.y), hn::Neg(q.z), hn::Neg(q.w)};
}

// q s, component-wise.
template <class V>
HWY_INLINE QuatV<V> Scale(const QuatV<V>& q, V s) {
  return {hn::Mul(q.x, s), hn::Mul(q.y, s), hn::Mul(q.z, s), hn::Mul(q.w, s)};
}

// a sa + b sb, component-wise (each product rounded, then the sum).
template <class V>
HWY_INLINE QuatV<V> WeightedSum(const QuatV<V>& a, V sa, const QuatV<V>& b, V sb) {
  return {hn::Add(hn::Mul(a.x, sa), hn::Mul(b.x, sb)), hn::Add(hn::Mul(a.y, sa), hn::Mul(b.y, sb)),
          hn::Add(hn::Mul(a.z, sa), hn::Mul(b.z, sb)), hn::Add(hn::Mul(a.w, sa), hn::Mul(b.w, sb))};
}

// dot(a, b) = ((ax bx + ay by) + az bz) + aw bw.
template <class V>
HWY_INLINE V Dot(const QuatV<V>& a, const QuatV<V>& b) {
  return hn::Add(hn::Add(hn::Add(hn::Mul(a.x, b.x), hn::Mul(a.y, b.y)), hn::Mul(a.z, b.z)),
                 hn::Mul(a.w, b.w));
}

// q / |q| with |q| = sqrt(dot(q, q)); each component divided (not multiplied by 1 / |q|, which
// would add a rounding). Where |q| == 0 the result is the identity (0, 0, 0, 1), selected per
// lane; NaN compares unequal to 0, so a NaN quaternion stays NaN. (|q| below ~1e-19 underflows
// in the dot product and also gives the identity.)
template <class V>
HWY_INLINE QuatV<V> Normalize(const QuatV<V>& q) {
  const hn::DFromV<V> d;
  const V length = hn::Sqrt(Dot(q, q));
  const auto zero = hn::Eq(length, hn::Zero(d));
  const V divisor = hn::IfThenElse(zero, hn::Set(d, 1.0f), length);
  const QuatV<V> unit{hn::Div(q.x, divisor), hn::Div(q.y, divisor), hn::Div(q.z, divisor),
                      hn::Div(q.w, divisor)};
  const V zero_vector = hn::Zero(d);
  return IfThenElseQuat(zero, QuatV<V>{zero_vector, zero_vector, zero_vector, hn::Set(d, 1.0f)},
                        unit);
}

// The rotation matrix of a unit q in glm::mat3_cast's order of operations. m[c][r] is column c,
// row r (glm's indexing):
//   m[0] = (1 - 2 (yy + zz),  2 (xy + wz),      2 (xz - wy))
//   m[1] = (2 (xy - wz),      1 - 2 (xx + zz),  2 (yz + wx))
//   m[2] = (2 (xz + wy),      2 (yz - wx),      1 - 2 (xx + yy))
template <class V>
HWY_INLINE void RotationMatrix(const QuatV<V>& q, V m[3][3]) {
  const hn::DFromV<V> d;
  const V one = hn::Set(d, 1.0f);
  const V two = hn::Set(d, 2.0f);
  const V xx = hn::Mul(q.x, q.x), yy = hn::Mul(q.y, q.y), zz = hn::Mul(q.z, q.z);
  const V xz = hn::Mul(q.x, q.z), xy = hn::Mul(q.x, q.y), yz = hn::Mul(q.y, q.z);
  const V wx = hn::Mul(q.w, q.x), wy = hn::Mul(q.w, q.y), wz = hn::Mul(q.w, q.z);
  m[0][0] = hn::Sub(one, hn::Mul(two, hn::Add(yy, zz)));
  m[0][1] = hn::Mul(two, hn::Add(xy, wz));
  m[0][2] = hn::Mul(two, hn::Sub(xz, wy));
  m[1][0] = hn::Mul(two, hn::Sub(xy, wz));
  m[1][1] = hn::Sub(one, hn::Mul(two, hn::Add(xx, zz)));
  m[1][2] = hn::Mul(two, hn::Add(yz, wx));
  m[2][0] = hn::Mul(two, hn::Add(xz, wy));
  m[2][1] = hn::Mul(two, hn::Sub(yz, wx));
  m[2][2] = hn::Sub(one, hn::Mul(two, hn::Add(xx, yy)));
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_QUATERNION_MATH_INL_H_
