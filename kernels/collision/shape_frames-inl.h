// Per-target code of ShapeFramesFromPoses (swarm/kernels/collision/narrow_phase.h): a link pose's
// quaternion as a rotation matrix, composed with the shape's fixed frame in the link.

#if defined(SWARM_KERNELS_SHAPE_FRAMES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_SHAPE_FRAMES_INL_H_
#undef SWARM_KERNELS_SHAPE_FRAMES_INL_H_
#else
#define SWARM_KERNELS_SHAPE_FRAMES_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "swarm/kernels/base/views.h"
#include "swarm/kernels/collision/narrow_phase.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The unit quaternion (x, y, z, w)'s matrix, row-major:
//   1 - 2(yy + zz)   2(xy - zw)       2(xz + yw)
//   2(xy + zw)       1 - 2(xx + zz)   2(yz - xw)
//   2(xz - yw)       2(yz + xw)       1 - 2(xx + yy)
inline void ShapeFramesImpl(const ConstLanesView& link_poses, size_t first_array,
                            const float position[3], const float rotation[9],
                            const LanesView& frames) {
  const hn::ScalableTag<float> d;
  const float* HWY_RESTRICT pose[7];
  for (size_t k = 0; k < 7; ++k) pose[k] = link_poses.Array(first_array + k);
  float* HWY_RESTRICT out[kShapeFrameArrays];
  for (size_t k = 0; k < kShapeFrameArrays; ++k) out[k] = frames.Array(k);
  float local_position[3], local_rotation[9];
  for (size_t k = 0; k < 3; ++k) local_position[k] = position[k];
  for (size_t k = 0; k < 9; ++k) local_rotation[k] = rotation[k];
  ForEachVector(d, frames.count, [&](size_t i, auto store) HWY_ATTR {
    using V = hn::Vec<decltype(d)>;
    const V x = hn::LoadU(d, pose[3] + i), y = hn::LoadU(d, pose[4] + i);
    const V z = hn::LoadU(d, pose[5] + i), w = hn::LoadU(d, pose[6] + i);
    const V one = hn::Set(d, 1.0f), two = hn::Set(d, 2.0f);
    const V xx = hn::Mul(x, x), yy = hn::Mul(y, y), zz = hn::Mul(z, z);
    const V xy = hn::Mul(x, y), xz = hn::Mul(x, z), yz = hn::Mul(y, z);
    const V xw = hn::Mul(x, w), yw = hn::Mul(y, w), zw = hn::Mul(z, w);
    const V r00 = hn::Sub(one, hn::Mul(two, hn::Add(yy, zz)));
    const V r01 = hn::Mul(two, hn::Sub(xy, zw));
    const V r02 = hn::Mul(two, hn::Add(xz, yw));
    const V r10 = hn::Mul(two, hn::Add(xy, zw));
    const V r11 = hn::Sub(one, hn::Mul(two, hn::Add(xx, zz)));
    const V r12 = hn::Mul(two, hn::Sub(yz, xw));
    const V r20 = hn::Mul(two, hn::Sub(xz, yw));
    const V r21 = hn::Mul(two, hn::Add(yz, xw));
    const V r22 = hn::Sub(one, hn::Mul(two, hn::Add(xx, yy)));
    // Row r of R_link times a local column vector (c0, c1, c2).
    const auto row = [&](V a, V b, V c, float c0, float c1, float c2) HWY_ATTR {
      return hn::Add(hn::Add(hn::Mul(a, hn::Set(d, c0)), hn::Mul(b, hn::Set(d, c1))),
                     hn::Mul(c, hn::Set(d, c2)));
    };
    const float* p = local_position;
    store(hn::Add(hn::LoadU(d, pose[0] + i), row(r00, r01, r02, p[0], p[1], p[2])), d, out[0] + i);
    store(hn::Add(hn::LoadU(d, pose[1] + i), row(r10, r11, r12, p[0], p[1], p[2])), d, out[1] + i);
    store(hn::Add(hn::LoadU(d, pose[2] + i), row(r20, r21, r22, p[0], p[1], p[2])), d, out[2] + i);
    const float* m = local_rotation;
    for (size_t c = 0; c < 3; ++c) {
      store(row(r00, r01, r02, m[c], m[3 + c], m[6 + c]), d, out[3 + c] + i);
      store(row(r10, r11, r12, m[c], m[3 + c], m[6 + c]), d, out[6 + c] + i);
      store(row(r20, r21, r22, m[c], m[3 + c], m[6 + c]), d, out[9 + c] + i);
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_SHAPE_FRAMES_INL_H_
