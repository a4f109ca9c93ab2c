#include "swarm/kernels/robots/robot_kinematics_reference.h"

#include <cmath>

#include "kernels/geometry/scalar_quaternion.h"
#include "kernels/robots/robot_joint_plan.h"
#include "swarm/kernels/base/assert.h"
#include "swarm/kernels/base/deterministic_math_reference.h"

namespace swarm::reference {
namespace {

using scalar_quaternion::Add;
using scalar_quaternion::Cross;
using scalar_quaternion::Multiply;
using scalar_quaternion::Normalize;
using scalar_quaternion::Quat;
using scalar_quaternion::Rotate;
using scalar_quaternion::Vec3;

// kernels/robots/robot_kinematics-inl.h SparseProduct: a (b_k e_k, b_w).
Quat SparseProduct(const Quat& a, int k, float b_k, float b_w) {
  const int i = NextAxis(k);
  const int j = NextAxis(i);
  Quat r;
  r.w = a.w * b_w - a.v[k] * b_k;
  r.v[k] = a.w * b_k + a.v[k] * b_w;
  r.v[i] = a.v[i] * b_w + a.v[j] * b_k;
  r.v[j] = a.v[j] * b_w - a.v[i] * b_k;
  return r;
}

struct LinkPose {
  Quat q;
  Vec3 t;
};

LinkPose LoadPose(const float* poses, size_t stride, size_t link) {
  const float* p = poses + kPoseArrays * link * stride;
  return {{{p[3 * stride], p[4 * stride], p[5 * stride]}, p[6 * stride]},
          {{p[0], p[stride], p[2 * stride]}}};
}

void StorePose(const LinkPose& pose, float* poses, size_t stride, size_t link) {
  float* p = poses + kPoseArrays * link * stride;
  p[0] = pose.t.v[0];
  p[stride] = pose.t.v[1];
  p[2 * stride] = pose.t.v[2];
  p[3 * stride] = pose.q.v[0];
  p[4 * stride] = pose.q.v[1];
  p[5 * stride] = pose.q.v[2];
  p[6 * stride] = pose.q.w;
}

// parent o origin o motion, following kernels/robots/robot_joint_plan.h.
LinkPose EvaluateJoint(const KinematicTree& tree, size_t joint_index, const float* q,
                       size_t q_stride, const float* poses, size_t poses_stride) {
  const KinematicJoint& joint = tree.joints[joint_index];
  const JointPlan plan = PlanJoint(tree, joint_index);
  const Quat origin_q{
      {joint.origin_rotation[0], joint.origin_rotation[1], joint.origin_rotation[2]},
      joint.origin_rotation[3]};
  const Vec3 origin_t{
      {joint.origin_translation[0], joint.origin_translation[1], joint.origin_translation[2]}};
  LinkPose pose;
  if (plan.parent_is_fixed_root) {
    pose = {origin_q, origin_t};
  } else {
    const LinkPose parent = LoadPose(poses, poses_stride, joint.parent_link);
    if (plan.origin_rotation == OriginRotation::kIdentity) {
      pose.q = parent.q;
    } else if (plan.origin_rotation == OriginRotation::kCoordinateAxis) {
      pose.q = SparseProduct(parent.q, plan.origin_axis, origin_q.v[plan.origin_axis], origin_q.w);
    } else {
      pose.q = Multiply(parent.q, origin_q);
    }
    pose.t = plan.origin_translation_zero ? parent.t : Add(Rotate(parent.q, origin_t), parent.t);
  }
  if (joint.motion == JointMotion::kFixed) return pose;
  float value = q[(tree.joint_q_begin() + static_cast<size_t>(joint.q_index)) * q_stride];
  if (plan.scaled_value) value = joint.multiplier * value + joint.offset;
  if (joint.motion == JointMotion::kRevolute) {
    float s, c;
    SinCos(value * 0.5f, s, c);
    if (plan.motion_axis >= 0) {
      pose.q = SparseProduct(pose.q, plan.motion_axis, plan.motion_axis_negative ? -s : s, c);
    } else {
      const Quat motion{{joint.axis[0] * s, joint.axis[1] * s, joint.axis[2] * s}, c};
      pose.q = Multiply(pose.q, motion);
    }
  } else {
    const Vec3 shift{{joint.axis[0] * value, joint.axis[1] * value, joint.axis[2] * value}};
    pose.t = Add(Rotate(pose.q, shift), pose.t);
  }
  return pose;
}

bool OnPathToLink(const KinematicTree& tree, size_t ancestor, size_t link) {
  while (link > ancestor) link = tree.joints[link - 1].parent_link;
  return link == ancestor;
}

}  // namespace

void RobotForwardKinematics(const KinematicTree& tree, const float* q, size_t q_stride,
                            float* poses, size_t poses_stride) {
  LinkPose root{{{0.0f, 0.0f, 0.0f}, 1.0f}, {{0.0f, 0.0f, 0.0f}}};
  if (tree.floating_base) {
    root.t = {{q[0], q[q_stride], q[2 * q_stride]}};
    root.q = Normalize({{q[4 * q_stride], q[5 * q_stride], q[6 * q_stride]}, q[3 * q_stride]});
  }
  StorePose(root, poses, poses_stride, 0);
  for (size_t joint_index = 0; joint_index < tree.joint_count; ++joint_index) {
    StorePose(EvaluateJoint(tree, joint_index, q, q_stride, poses, poses_stride), poses,
              poses_stride, joint_index + 1);
  }
}

void RobotLinkJacobian(const KinematicTree& tree, size_t link, const float* poses,
                       size_t poses_stride, float* jacobian, size_t jacobian_stride) {
  const size_t columns = tree.joint_q_count();
  for (size_t a = 0; a < 6 * columns; ++a) jacobian[a * jacobian_stride] = 0.0f;
  const Vec3 end = LoadPose(poses, poses_stride, link).t;
  for (size_t joint_index = 0; joint_index < link; ++joint_index) {
    const KinematicJoint& joint = tree.joints[joint_index];
    if (joint.motion == JointMotion::kFixed || !OnPathToLink(tree, joint_index + 1, link)) {
      continue;
    }
    const LinkPose child = LoadPose(poses, poses_stride, joint_index + 1);
    const Vec3 z = Rotate(child.q, {{joint.axis[0], joint.axis[1], joint.axis[2]}});
    float rows[6];
    size_t row_count = 3;
    if (joint.motion == JointMotion::kRevolute) {
      const Vec3 lever{{end.v[0] - child.t.v[0], end.v[1] - child.t.v[1], end.v[2] - child.t.v[2]}};
      const Vec3 linear = Cross(z, lever);
      for (int k = 0; k < 3; ++k) rows[k] = linear.v[k], rows[3 + k] = z.v[k];
      row_count = 6;
    } else {
      for (int k = 0; k < 3; ++k) rows[k] = z.v[k];
    }
    const size_t column = static_cast<size_t>(joint.q_index);
    for (size_t row = 0; row < row_count; ++row) {
      const float contribution =
          joint.multiplier != 1.0f ? rows[row] * joint.multiplier : rows[row];
      float& out = jacobian[(row * columns + column) * jacobian_stride];
      out = out + contribution;
    }
  }
}

void ForwardKinematics(const KinematicTree& tree, const ConstLanesView& q, const LanesView& poses) {
  SWARM_ASSERT(q.count == poses.count && q.arrays == tree.q_count &&
               poses.arrays == kPoseArrays * tree.link_count());
  for (size_t r = 0; r < poses.count; ++r) {
    RobotForwardKinematics(tree, q.data + r, q.stride, poses.data + r, poses.stride);
  }
}

void LinkJacobian(const KinematicTree& tree, size_t link, const ConstLanesView& poses,
                  const LanesView& jacobian) {
  SWARM_ASSERT(link < tree.link_count() && poses.count == jacobian.count &&
               poses.arrays == kPoseArrays * tree.link_count() &&
               jacobian.arrays == 6 * tree.joint_q_count());
  for (size_t r = 0; r < jacobian.count; ++r) {
    RobotLinkJacobian(tree, link, poses.data + r, poses.stride, jacobian.data + r, jacobian.stride);
  }
}

}  // namespace swarm::reference
