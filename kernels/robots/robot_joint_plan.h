// How the forward-kinematics kernel and its scalar reference evaluate one joint: the cheapest
// formula that the joint's constants allow, decided once per joint from its description.
//
// Most URDF joints are simple: origins rotate about one coordinate axis or not at all (rpy with
// two zero angles), motion axes are +-x, +-y or +-z, and many origins have no translation. A
// Hamilton product with a quaternion whose vector part has a single nonzero component k,
// b = (b_k e_k, b_w), needs 8 multiplications instead of 16. With (i, j) the two axes after k in
// cyclic order (k = x: y, z; k = y: z, x; k = z: x, y):
//   (a b).w = a_w b_w - a_k b_k
//   (a b).k = a_w b_k + a_k b_w
//   (a b).i = a_i b_w + a_j b_k
//   (a b).j = a_j b_w - a_i b_k
// (the general product of kernels/geometry/quaternion_math-inl.h with the zero terms dropped;
// dropping them can change the sign of a zero result, so the kernel and the reference take the same
// branch and stay bitwise equal, which is what determinism requires).
//
// Evaluation of joint i (parent pose (q_p, t_p), origin (q_o, t_o), value v):
//   parent o origin:  the origin itself when the parent is a root that does not move; otherwise
//                     q_1 = q_p (identity origin rotation), SparseProduct(q_p, q_o) (one axis) or
//                     Multiply(q_p, q_o);  t_1 = t_p (zero origin translation) or
//                     Rotate(q_p, t_o) + t_p
//   value:            v = q[q_index], or multiplier * q[q_index] + offset for a mimic joint
//   motion:           revolute: (s, c) = SinCos(v * 0.5), q = q_1 (a s, c) (sparse for +-e_k,
//                     with the sign applied to s), t = t_1;  prismatic: q = q_1,
//                     t = Rotate(q_1, a v) + t_1;  fixed: (q_1, t_1).
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/kernels/robots/robot_kinematics.h"

namespace swarm {

enum class OriginRotation : uint8_t {
  kIdentity,        // (0, 0, 0, 1)
  kCoordinateAxis,  // exactly one nonzero vector component, index origin_axis
  kGeneral,
};

struct JointPlan {
  // The parent is link 0 and the base is not floating: its pose is the identity, so
  // parent o origin is the origin's constants.
  bool parent_is_fixed_root = false;
  OriginRotation origin_rotation = OriginRotation::kGeneral;
  int origin_axis = 0;
  bool origin_translation_zero = false;
  // 0, 1 or 2 when the motion axis is +-e_k exactly; -1 for an oblique axis.
  int motion_axis = -1;
  bool motion_axis_negative = false;
  // A mimic joint: value = multiplier * q + offset instead of q itself.
  bool scaled_value = false;
};

// The one nonzero index of a 3-vector with exactly two zero components, or -1.
inline int SingleNonzeroComponent(const float v[3]) {
  const int zeros = (v[0] == 0.0f) + (v[1] == 0.0f) + (v[2] == 0.0f);
  if (zeros != 2) return -1;
  return v[0] != 0.0f ? 0 : (v[1] != 0.0f ? 1 : 2);
}

inline JointPlan PlanJoint(const KinematicTree& tree, size_t joint_index) {
  const KinematicJoint& joint = tree.joints[joint_index];
  JointPlan plan;
  plan.parent_is_fixed_root = joint.parent_link == 0 && !tree.floating_base;
  const float* rotation = joint.origin_rotation;
  const int rotation_axis = SingleNonzeroComponent(rotation);
  if (rotation[0] == 0.0f && rotation[1] == 0.0f && rotation[2] == 0.0f && rotation[3] == 1.0f) {
    plan.origin_rotation = OriginRotation::kIdentity;
  } else if (rotation_axis >= 0) {
    plan.origin_rotation = OriginRotation::kCoordinateAxis;
    plan.origin_axis = rotation_axis;
  }
  const float* translation = joint.origin_translation;
  plan.origin_translation_zero =
      translation[0] == 0.0f && translation[1] == 0.0f && translation[2] == 0.0f;
  const int axis = SingleNonzeroComponent(joint.axis);
  if (axis >= 0 && (joint.axis[axis] == 1.0f || joint.axis[axis] == -1.0f)) {
    plan.motion_axis = axis;
    plan.motion_axis_negative = joint.axis[axis] < 0.0f;
  }
  plan.scaled_value = joint.multiplier != 1.0f || joint.offset != 0.0f;
  return plan;
}

// The cyclic successors (i, j) of axis k used by the sparse product above.
inline int NextAxis(int k) { return k == 2 ? 0 : k + 1; }

}  // namespace swarm
