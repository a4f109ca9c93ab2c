// Batched robot kinematics: forward kinematics of every link and the geometric Jacobian of one
// link, for R robots of one model at once (structure of arrays over the robot index, so one
// AVX-512 vector steps 16 robots; swarm/kernels/base/views.h BasicLanesView).
//
// The model arrives as a KinematicTree: links numbered in topological order (link 0 is the root,
// every link's parent has a smaller number), and joint i connecting link parent_link to link
// i + 1. swarm/robots/robot_model.h builds one from a URDF.
//
// Poses follow swarm/kernels/geometry/pose.h: a unit quaternion and a translation mapping link
// coordinates to the world frame. Link l's pose occupies 7 consecutive arrays of a LanesView
// starting at 7 l, in the order px py pz qx qy qz qw, so that (translation: arrays 7l..7l+2,
// rotation: arrays 7l+3..7l+6) are a swarm/kernels/geometry/pose.h PoseView of the same memory
// (LinkPoseView).
//
// Determinism as everywhere in kernels/: each robot's outputs are the same fixed sequence of
// correctly rounded operations on every SIMD target (no FMA, exact Div and Sqrt, the project's
// own sin/cos from kernels/base/deterministic_math-inl.h), and robots never interact, so robot r
// gets the same bits alone, in any batch, on any tile or thread. References with the same order of
// operations (bitwise equal): swarm/kernels/robots/robot_kinematics_reference.h.
//
// Preconditions (checked once per call with SWARM_ASSERT): views of one call have equal counts
// and the array counts stated below; outputs do not overlap inputs; the tree is valid (as built by
// swarm/robots/robot_model.h: parent_link <= i, q_index < q_count, unit axes and origin
// rotations).
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/kernels/base/views.h"

namespace swarm {

// Floats per link pose in a LanesView: px py pz qx qy qz qw.
inline constexpr size_t kPoseArrays = 7;
// Leading q values of a floating base: x y z qw qx qy qz (the order users write; the kernel
// normalises the quaternion, and a zero quaternion gives the identity rotation).
inline constexpr size_t kFloatingBaseArrays = 7;

enum class JointMotion : uint8_t {
  kFixed,      // no motion; q_index is -1
  kRevolute,   // rotation by `value` radians about axis (URDF revolute and continuous)
  kPrismatic,  // translation by `value` metres along axis
};

// Joint i: link i + 1 = link parent_link o origin o motion(value), with
//   value = multiplier * q[q_index] + offset   (multiplier 1, offset 0 unless a URDF mimic joint).
struct KinematicJoint {
  uint32_t parent_link = 0;  // <= i
  JointMotion motion = JointMotion::kFixed;
  int32_t q_index = -1;  // column of q that drives this joint; -1 for fixed joints
  float multiplier = 1.0f;
  float offset = 0.0f;
  float origin_rotation[4] = {0.0f, 0.0f, 0.0f, 1.0f};  // x y z w, unit
  float origin_translation[3] = {0.0f, 0.0f, 0.0f};
  float axis[3] = {1.0f, 0.0f, 0.0f};  // unit, in the joint frame
};

struct KinematicTree {
  const KinematicJoint* joints = nullptr;
  size_t joint_count = 0;      // links = joint_count + 1
  size_t q_count = 0;          // arrays of q: joint_q_count (+ kFloatingBaseArrays first)
  bool floating_base = false;  // root pose from q's first 7 arrays; identity otherwise

  size_t link_count() const { return joint_count + 1; }
  // Columns of q that joints read (the independent joint values after a floating base).
  size_t joint_q_count() const { return floating_base ? q_count - kFloatingBaseArrays : q_count; }
  // First q array of the joints: joint q_index k reads q.Array(joint_q_begin() + k).
  size_t joint_q_begin() const { return floating_base ? kFloatingBaseArrays : 0; }
};

// Link l's pose inside a LanesView of link poses (7 arrays per link), as a pose view.
template <typename Float>
BasicPoseView<Float> LinkPoseView(const BasicLanesView<Float>& poses, size_t link) {
  const size_t stride = poses.stride;
  Float* base = poses.Array(kPoseArrays * link);
  return {{base + 3 * stride, poses.count, stride}, {base, poses.count, stride}};
}

// poses (7 * link_count arrays) = world pose of every link for the configurations q (q_count
// arrays).
void ForwardKinematics(const KinematicTree& tree, const ConstLanesView& q, const LanesView& poses);

// The geometric Jacobian of link `link`'s origin in the world frame, from poses computed by
// ForwardKinematics: jacobian has 6 * joint_q_count arrays, row-major (row k, column c at array
// k * joint_q_count + c); rows 0-2 linear velocity, 3-5 angular velocity, per unit rate of joint
// column c. For a revolute joint with world axis z at world point p: (z x (p_link - p), z); for a
// prismatic joint: (z, 0); joints not on the path from the root to `link` contribute 0; a mimic
// joint adds multiplier times its contribution to its master's column. The floating base has no
// columns (its motion is the caller's).
void LinkJacobian(const KinematicTree& tree, size_t link, const ConstLanesView& poses,
                  const LanesView& jacobian);

}  // namespace swarm
