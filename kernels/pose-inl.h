// Per-target code of the pose kernels (kernels/pose.h). Quaternion arithmetic comes from
// kernels/quaternion_math-inl.h, so a pose kernel rounds exactly like the quaternion kernels and
// like the scalar references in kernels/pose_reference.cc, which spell out the same order.
//
// Aliasing: every kernel loads all inputs of a vector of elements before it stores any output of
// that vector, and element i depends only on element i of its inputs, so an output view may be
// the very same view as an input (same data pointer and lane stride). Partially overlapping
// views are not supported.

#if defined(SWARM_KERNELS_POSE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_POSE_INL_H_
#undef SWARM_KERNELS_POSE_INL_H_
#else
#define SWARM_KERNELS_POSE_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "swarm/kernels/loop-inl.h"
#include "swarm/kernels/pose.h"
#include "swarm/kernels/quaternion_math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Stores lanes x, y, z of a view (lane w untouched: a pose's translation.w belongs to the caller).
template <class D, class Store>
HWY_INLINE void StorePoseXyz(D d, const Vec3V<hn::Vec<D>>& v, const Vec4View& view, size_t i,
                             Store store) {
  store(v.x, d, view.x() + i);
  store(v.y, d, view.y() + i);
  store(v.z, d, view.z() + i);
}

// (qa, ta) o (qb, tb) = (qa qb, rotate(qa, tb) + ta).
inline void ComposePosesImpl(const ConstPoseView& a, const ConstPoseView& b, const PoseView& out) {
  const hn::ScalableTag<float> d;
  ForEachVector(d, out.count(), [&](size_t i, auto store) HWY_ATTR {
    const auto qa = LoadQuat(d, a.rotation, i);
    const auto qb = LoadQuat(d, b.rotation, i);
    const auto ta = LoadVec3(d, a.translation, i);
    const auto tb = LoadVec3(d, b.translation, i);
    const auto q = Multiply(qa, qb);
    const auto t = AddVec3(Rotate(qa, tb), ta);
    StoreQuat(d, q, out.rotation, i, store);
    StorePoseXyz(d, t, out.translation, i, store);
  });
}

// inverse(q, t) = (q*, -rotate(q*, t)): rotate(q*, rotate(q, p) + t) - rotate(q*, t) = p.
inline void InvertPosesImpl(const ConstPoseView& poses, const PoseView& out) {
  const hn::ScalableTag<float> d;
  ForEachVector(d, out.count(), [&](size_t i, auto store) HWY_ATTR {
    const auto inverse_q = Conjugate(LoadQuat(d, poses.rotation, i));
    const auto r = Rotate(inverse_q, LoadVec3(d, poses.translation, i));
    StoreQuat(d, inverse_q, out.rotation, i, store);
    StorePoseXyz(d, Vec3V<hn::Vec<decltype(d)>>{hn::Neg(r.x), hn::Neg(r.y), hn::Neg(r.z)},
                 out.translation, i, store);
  });
}

// inverse(a) o b = (qa* qb, rotate(qa*, tb) - rotate(qa*, ta)), evaluated as
// (qa* qb, rotate(qa*, tb - ta)): one rotation instead of two, and the difference of the
// translations is taken before rotating, so nearby poses give a small, accurate offset.
inline void RelativePosesImpl(const ConstPoseView& a, const ConstPoseView& b,
                              const PoseView& relative) {
  const hn::ScalableTag<float> d;
  ForEachVector(d, relative.count(), [&](size_t i, auto store) HWY_ATTR {
    const auto inverse_qa = Conjugate(LoadQuat(d, a.rotation, i));
    const auto qb = LoadQuat(d, b.rotation, i);
    const auto offset = SubVec3(LoadVec3(d, b.translation, i), LoadVec3(d, a.translation, i));
    StoreQuat(d, Multiply(inverse_qa, qb), relative.rotation, i, store);
    StorePoseXyz(d, Rotate(inverse_qa, offset), relative.translation, i, store);
  });
}

inline void TransformPointsByPosesImpl(const ConstPoseView& poses, const ConstVec4View& points,
                                       const Vec4View& out) {
  const hn::ScalableTag<float> d;
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    const auto q = LoadQuat(d, poses.rotation, i);
    const auto t = LoadVec3(d, poses.translation, i);
    const auto w = hn::LoadU(d, points.w() + i);
    const auto p = AddVec3(Rotate(q, LoadVec3(d, points, i)), t);
    StorePoseXyz(d, p, out, i, store);
    store(w, d, out.w() + i);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_POSE_INL_H_
