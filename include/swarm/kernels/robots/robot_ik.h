// Batched damped-least-squares inverse kinematics (Wampler 1986; Buss, "Introduction to inverse
// kinematics with Jacobian transpose, pseudoinverse and damped least squares methods", 2004):
// one step moves every robot's joint values toward its own target pose of one link.
//
//   e  = (p_target - p_link,  w * log-map approximation of q_target q_link^*)   (6 values)
//   dq = (W J)^T ((W J)(W J)^T + lambda^2 I)^-1 e,   W = diag(1, 1, 1, w, w, w)
//        (J from swarm/kernels/robots/robot_kinematics.h LinkJacobian; with w = 1 this is J^T (J
//        J^T + lambda^2 I)^-1 e)
//   dq scaled down so max |dq_j| <= max_step, then q_out = clamp(q + dq, lower, upper)
//
// The orientation error is 2 * vec(q_err) with q_err = q_target q_link^* taken in the hemisphere
// w >= 0 (the shorter rotation). The weight w scales the angular rows of J as well as the error
// (the minimiser of |W (e_unweighted - J dq)|^2 + lambda^2 |dq|^2), so with orientation_weight 0
// the step reaches for the position only and leaves the orientation free.
// NaN inputs of a robot reach only that robot's q_out (compare-and-select limits pass NaN on).
// The 6x6 system is solved per robot by an LDL^T factorisation without pivoting (J J^T + lambda^2 I
// is symmetric positive definite for lambda > 0), in a fixed order of exact operations, so results
// are bitwise equal on every target (reference: swarm/kernels/robots/robot_ik_reference.h).
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_control.h"
#include "swarm/kernels/robots/robot_kinematics.h"

namespace swarm {

struct IkParams {
  float damping = 0.05f;            // lambda > 0, in metres (and radians)
  float orientation_weight = 1.0f;  // w >= 0: metres per radian of orientation error
  float max_step = 0.2f;            // > 0: largest joint change of one step (rad or m)
};

// Arrays: link_pose 7 (px py pz qx qy qz qw of the link, e.g. LinkPoseView's arrays of the
// ForwardKinematics output), target_pose 7 (same order), jacobian 6 * joint_count (row-major as
// LinkJacobian writes it), q and q_out joint_count. joints supplies the position limits
// (lower, upper) of each joint column. q_out may be the same view as q.
void DampedLeastSquaresStep(const JointControl* joints, size_t joint_count,
                            const ConstLanesView& link_pose, const ConstLanesView& target_pose,
                            const ConstLanesView& jacobian, const ConstLanesView& q,
                            const LanesView& q_out, const IkParams& params);

}  // namespace swarm
