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
#include "kernels/views.h"

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

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_QUATERNION_MATH_INL_H_
