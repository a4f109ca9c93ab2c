// Dispatch for the pose kernels: compiled once per SIMD target; each exported entry checks its
// preconditions and picks the best supported target once per call.
#include "swarm/kernels/geometry/pose.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/geometry/pose-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/geometry/pose-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(ComposePosesImpl);
HWY_EXPORT(InvertPosesImpl);
HWY_EXPORT(RelativePosesImpl);
HWY_EXPORT(TransformPointsByPosesImpl);

void ComposePoses(const ConstPoseView& a, const ConstPoseView& b, const PoseView& out) {
  SWARM_ASSERT(a.consistent() && b.consistent() && out.consistent() && a.count() == out.count() &&
               b.count() == out.count());
  HWY_DYNAMIC_DISPATCH(ComposePosesImpl)(a, b, out);
}

void InvertPoses(const ConstPoseView& poses, const PoseView& out) {
  SWARM_ASSERT(poses.consistent() && out.consistent() && poses.count() == out.count());
  HWY_DYNAMIC_DISPATCH(InvertPosesImpl)(poses, out);
}

void RelativePoses(const ConstPoseView& a, const ConstPoseView& b, const PoseView& relative) {
  SWARM_ASSERT(a.consistent() && b.consistent() && relative.consistent() &&
               a.count() == relative.count() && b.count() == relative.count());
  HWY_DYNAMIC_DISPATCH(RelativePosesImpl)(a, b, relative);
}

void TransformPointsByPoses(const ConstPoseView& poses, const ConstVec4View& points,
                            const Vec4View& out) {
  SWARM_ASSERT(poses.consistent() && poses.count() == out.count && points.count == out.count);
  HWY_DYNAMIC_DISPATCH(TransformPointsByPosesImpl)(poses, points, out);
}

}  // namespace swarm
#endif  // HWY_ONCE
