// Scalar references for the robot kinematics kernels (swarm/kernels/robots/robot_kinematics.h): one
// robot at a time, the way a per-robot loop computes it. They follow the kernels' evaluation plan
// (kernels/robots/robot_joint_plan.h) with the same correctly rounded operations in the same order
// and the scalar mirrors of the project's sin/cos
// (swarm/kernels/base/deterministic_math_reference.h), so with -ffp-contract=off they agree with
// the kernels to the bit on every target. Tests use them for the bitwise checks; benchmarks use
// them as the scalar per-robot baseline.
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_kinematics.h"

namespace swarm::reference {

// One robot: value k of q is q[k * q_stride]; pose array a (7 per link, px py pz qx qy qz qw) is
// poses[a * poses_stride]. Strides of 1 give contiguous per-robot arrays; a LanesView's stride
// reads robot r of a batch from data + r.
void RobotForwardKinematics(const KinematicTree& tree, const float* q, size_t q_stride,
                            float* poses, size_t poses_stride);

// One robot: jacobian array a (6 * joint_q_count, row-major) is jacobian[a * jacobian_stride].
void RobotLinkJacobian(const KinematicTree& tree, size_t link, const float* poses,
                       size_t poses_stride, float* jacobian, size_t jacobian_stride);

// Batches with the kernels' contract, one robot after another.
void ForwardKinematics(const KinematicTree& tree, const ConstLanesView& q, const LanesView& poses);
void LinkJacobian(const KinematicTree& tree, size_t link, const ConstLanesView& poses,
                  const LanesView& jacobian);

}  // namespace swarm::reference
