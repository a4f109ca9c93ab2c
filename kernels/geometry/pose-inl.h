// Per-target code of the pose kernels (swarm/kernels/geometry/pose.h). Quaternion arithmetic comes
// from kernels/geometry/quaternion_math-inl.h, so a pose kernel rounds exactly like the quaternion
// kernels and like the scalar references in kernels/geometry/pose_reference.cc, which spell out the
// same order.
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
#include "kernels/base/loop-inl.h"
#include "kernels/geometry/quaternion_math-inl.h"
#include "swarm/kernels/geometry/pose.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Stores lanes x, y, z of a view (lane w untouched: a pose's translation.w belongs to the caller).
template <class D, class Store, class V = hn::Vec<D>>
HWY_INLINE void StorePoseXyz(D d, V x, V y, V z, const Vec4View& view, size_t i, Store store) {
  store(x, d, view.x() + i);
  store(y, d, view.y() + i);
  store(z, d, view.z() + i);
}

// (qa, ta) o (qb, tb) = (qa qb, rotate(qa, tb) + ta).
inline void ComposePosesImpl(const ConstPoseView& a, const ConstPoseView& b, const PoseView& out) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, out.count(), [&](size_t i, auto store) HWY_ATTR {
    V qa_x, qa_y, qa_z, qa_w, qb_x, qb_y, qb_z, qb_w;
    LoadQuat(d, a.rotation, i, qa_x, qa_y, qa_z, qa_w);
    LoadQuat(d, b.rotation, i, qb_x, qb_y, qb_z, qb_w);
    V ta_x, ta_y, ta_z, tb_x, tb_y, tb_z;
    LoadVec3(d, a.translation, i, ta_x, ta_y, ta_z);
    LoadVec3(d, b.translation, i, tb_x, tb_y, tb_z);
    V qx, qy, qz, qw;
    Multiply(qa_x, qa_y, qa_z, qa_w, qb_x, qb_y, qb_z, qb_w, qx, qy, qz, qw);
    V tx, ty, tz;
    Rotate(qa_x, qa_y, qa_z, qa_w, tb_x, tb_y, tb_z, tx, ty, tz);
    tx = hn::Add(tx, ta_x);
    ty = hn::Add(ty, ta_y);
    tz = hn::Add(tz, ta_z);
    StoreQuat(d, qx, qy, qz, qw, out.rotation, i, store);
    StorePoseXyz(d, tx, ty, tz, out.translation, i, store);
  });
}

// inverse(q, t) = (q*, -rotate(q*, t)): rotate(q*, rotate(q, p) + t) - rotate(q*, t) = p.
inline void InvertPosesImpl(const ConstPoseView& poses, const PoseView& out) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, out.count(), [&](size_t i, auto store) HWY_ATTR {
    V qx, qy, qz, qw, tx, ty, tz;
    LoadQuat(d, poses.rotation, i, qx, qy, qz, qw);
    Conjugate(qx, qy, qz, qw, qx, qy, qz, qw);
    LoadVec3(d, poses.translation, i, tx, ty, tz);
    Rotate(qx, qy, qz, qw, tx, ty, tz, tx, ty, tz);
    StoreQuat(d, qx, qy, qz, qw, out.rotation, i, store);
    tx = hn::Neg(tx);
    ty = hn::Neg(ty);
    tz = hn::Neg(tz);
    StorePoseXyz(d, tx, ty, tz, out.translation, i, store);
  });
}

// inverse(a) o b = (qa* qb, rotate(qa*, tb) - rotate(qa*, ta)), evaluated as
// (qa* qb, rotate(qa*, tb - ta)): one rotation instead of two, and the difference of the
// translations is taken before rotating, so nearby poses give a small, accurate offset.
inline void RelativePosesImpl(const ConstPoseView& a, const ConstPoseView& b,
                              const PoseView& relative) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, relative.count(), [&](size_t i, auto store) HWY_ATTR {
    V qa_x, qa_y, qa_z, qa_w, qb_x, qb_y, qb_z, qb_w;
    LoadQuat(d, a.rotation, i, qa_x, qa_y, qa_z, qa_w);
    Conjugate(qa_x, qa_y, qa_z, qa_w, qa_x, qa_y, qa_z, qa_w);
    LoadQuat(d, b.rotation, i, qb_x, qb_y, qb_z, qb_w);
    V ta_x, ta_y, ta_z, tb_x, tb_y, tb_z;
    LoadVec3(d, a.translation, i, ta_x, ta_y, ta_z);
    LoadVec3(d, b.translation, i, tb_x, tb_y, tb_z);
    const V offset_x = hn::Sub(tb_x, ta_x), offset_y = hn::Sub(tb_y, ta_y),
            offset_z = hn::Sub(tb_z, ta_z);
    V qx, qy, qz, qw;
    Multiply(qa_x, qa_y, qa_z, qa_w, qb_x, qb_y, qb_z, qb_w, qx, qy, qz, qw);
    StoreQuat(d, qx, qy, qz, qw, relative.rotation, i, store);
    V tx, ty, tz;
    Rotate(qa_x, qa_y, qa_z, qa_w, offset_x, offset_y, offset_z, tx, ty, tz);
    StorePoseXyz(d, tx, ty, tz, relative.translation, i, store);
  });
}

inline void TransformPointsByPosesImpl(const ConstPoseView& poses, const ConstVec4View& points,
                                       const Vec4View& out) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    V qx, qy, qz, qw, tx, ty, tz;
    LoadQuat(d, poses.rotation, i, qx, qy, qz, qw);
    LoadVec3(d, poses.translation, i, tx, ty, tz);
    const V w = hn::LoadU(d, points.w() + i);
    V x, y, z;
    LoadVec3(d, points, i, x, y, z);
    Rotate(qx, qy, qz, qw, x, y, z, x, y, z);
    x = hn::Add(x, tx);
    y = hn::Add(y, ty);
    z = hn::Add(z, tz);
    StorePoseXyz(d, x, y, z, out, i, store);
    store(w, d, out.w() + i);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_POSE_INL_H_
