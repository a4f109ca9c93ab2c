// Dispatch for the robot kinematics kernels: compiled once per SIMD target; each exported entry
// checks its preconditions and picks the best supported target once per call.
#include "swarm/kernels/robots/robot_kinematics.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/robots/robot_kinematics-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/robots/robot_kinematics-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(ForwardKinematicsImpl);
HWY_EXPORT(LinkJacobianImpl);

namespace {

// The tree invariants the kernels rely on (swarm/robots/robot_model.h guarantees them for URDF
// models).
bool ValidTree(const KinematicTree& tree) {
  if (tree.joint_count > 0 && tree.joints == nullptr) return false;
  if (tree.floating_base && tree.q_count < kFloatingBaseArrays) return false;
  for (size_t i = 0; i < tree.joint_count; ++i) {
    const KinematicJoint& joint = tree.joints[i];
    if (joint.parent_link > i) return false;
    const bool driven = joint.motion != JointMotion::kFixed;
    if (driven &&
        (joint.q_index < 0 || static_cast<size_t>(joint.q_index) >= tree.joint_q_count())) {
      return false;
    }
  }
  return true;
}

// No byte of [a, a + a_floats) lies in [b, b + b_floats).
bool Disjoint(const float* a, size_t a_floats, const float* b, size_t b_floats) {
  return a + a_floats <= b || b + b_floats <= a;
}

template <typename Float>
size_t Span(const BasicLanesView<Float>& view) {
  return view.arrays == 0 ? 0 : (view.arrays - 1) * view.stride + view.count;
}

}  // namespace

void ForwardKinematics(const KinematicTree& tree, const ConstLanesView& q, const LanesView& poses) {
  SWARM_ASSERT(ValidTree(tree));
  SWARM_ASSERT(q.count == poses.count && q.arrays == tree.q_count &&
               poses.arrays == kPoseArrays * tree.link_count());
  SWARM_ASSERT(q.count == 0 || Disjoint(q.data, Span(q), poses.data, Span(poses)));
  if (poses.count == 0) return;
  HWY_DYNAMIC_DISPATCH(ForwardKinematicsImpl)(tree, q, poses);
}

void LinkJacobian(const KinematicTree& tree, size_t link, const ConstLanesView& poses,
                  const LanesView& jacobian) {
  SWARM_ASSERT(ValidTree(tree) && link < tree.link_count());
  SWARM_ASSERT(poses.count == jacobian.count && poses.arrays == kPoseArrays * tree.link_count() &&
               jacobian.arrays == 6 * tree.joint_q_count());
  SWARM_ASSERT(poses.count == 0 ||
               Disjoint(poses.data, Span(poses), jacobian.data, Span(jacobian)));
  if (jacobian.count == 0) return;
  HWY_DYNAMIC_DISPATCH(LinkJacobianImpl)(tree, link, poses, jacobian);
}

}  // namespace swarm
#endif  // HWY_ONCE
