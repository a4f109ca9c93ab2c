// Dispatch for the damped-least-squares IK step (swarm/kernels/robots/robot_ik.h): compiled once
// per SIMD target; the exported entry checks its preconditions and picks the best supported target
// once per call.
#include "swarm/kernels/robots/robot_ik.h"

#include <cmath>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/robots/robot_ik-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/robots/robot_ik-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(DampedLeastSquaresStepImpl);

namespace {

bool ValidParams(const IkParams& params) {
  return std::isfinite(params.damping) && params.damping > 0.0f &&
         std::isfinite(params.orientation_weight) && params.orientation_weight >= 0.0f &&
         params.max_step > 0.0f;
}

bool ValidLimits(const JointControl* joints, size_t joint_count) {
  for (size_t j = 0; j < joint_count; ++j) {
    if (!(joints[j].lower <= joints[j].upper)) return false;
  }
  return true;
}

// The address range a view's kernel may touch: its arrays, each read up to the padded count.
struct ByteRange {
  uintptr_t begin, end;
};
template <typename Float>
ByteRange Range(const BasicLanesView<Float>& view) {
  const uintptr_t begin = reinterpret_cast<uintptr_t>(view.data);
  const size_t floats = (view.arrays - 1) * view.stride + RoundUpToVector<float>(view.count);
  return {begin, begin + floats * sizeof(float)};
}
bool Disjoint(const ByteRange& a, const ByteRange& b) {
  return a.end <= b.begin || b.end <= a.begin;
}

}  // namespace

void DampedLeastSquaresStep(const JointControl* joints, size_t joint_count,
                            const ConstLanesView& link_pose, const ConstLanesView& target_pose,
                            const ConstLanesView& jacobian, const ConstLanesView& q,
                            const LanesView& q_out, const IkParams& params) {
  SWARM_ASSERT(joint_count > 0 && joints != nullptr);
  SWARM_ASSERT(SameCount(q_out, link_pose, target_pose, jacobian, q));
  SWARM_ASSERT(link_pose.arrays == 7 && target_pose.arrays == 7 &&
               jacobian.arrays == 6 * joint_count && q.arrays == joint_count &&
               q_out.arrays == joint_count);
  SWARM_ASSERT(ValidParams(params) && ValidLimits(joints, joint_count));
  if (q_out.count == 0) return;
  const ByteRange out = Range(q_out);
  SWARM_ASSERT(Disjoint(out, Range(link_pose)) && Disjoint(out, Range(target_pose)) &&
               Disjoint(out, Range(jacobian)));
  SWARM_ASSERT((q.data == q_out.data && q.stride == q_out.stride) || Disjoint(out, Range(q)));
  HWY_DYNAMIC_DISPATCH(DampedLeastSquaresStepImpl)
  (joints, joint_count, link_pose, target_pose, jacobian, q, q_out, params);
}

}  // namespace swarm
#endif  // HWY_ONCE
