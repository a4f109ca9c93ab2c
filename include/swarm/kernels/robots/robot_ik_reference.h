// Scalar reference for the damped-least-squares IK step (swarm/kernels/robots/robot_ik.h): one
// robot at a time, with the same correctly rounded operations in the same order as
// kernels/robots/robot_ik-inl.h, so with -ffp-contract=off it agrees with the kernel to the bit on
// every SIMD target. The order, which is the contract between the two (n = joint_count, w =
// orientation_weight):
//
//   e[0..3)   = p_target - p_link
//   q_err     = q_target q_link^*   (Hamilton product, kernels/geometry/quaternion_math-inl.h
//   Multiply) e[3+k]    = (q_err.w < 0 ? -q_err.xyz[k] : q_err.xyz[k]) * (2 w) A[r][s]   = sum over
//   c = 0, 1, .., n-1 of J[r][c] J[s][c]   (s <= r, left to right)
//               times w^2 when r, s >= 3, times w when only r >= 3; then A[r][r] += lambda^2
//   LDL^T     for j = 0..5: E[k] = L[j][k] D[k] (k < j), D[j] = A[j][j] - L[j][0] E[0] - ..,
//             L[i][j] = (A[i][j] - L[i][0] E[0] - ..) / D[j]                         (i > j)
//   solve     z[i] = e[i] - L[i][0] z[0] - ..;  x[i] = z[i] / D[i];
//             y[i] = x[i] - L[i+1][i] y[i+1] - .. - L[5][i] y[5]   (i = 5 down to 0)
//             y[3..6) *= w
//   dq[c]     = J[0][c] y[0] + J[1][c] y[1] + .. + J[5][c] y[5]
//   m         = max |dq[c]| by compare and select from 0 (NaN never selected)
//   scale     = m > max_step ? max_step / m : 1
//   q_out[c]  = clamp(q[c] + dq[c] scale, lower, upper)   (lower compared first)
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_ik.h"

namespace swarm::reference {

// The batch step, robot by robot (same preconditions and aliasing rules as the kernel).
void DampedLeastSquaresStep(const JointControl* joints, size_t joint_count,
                            const ConstLanesView& link_pose, const ConstLanesView& target_pose,
                            const ConstLanesView& jacobian, const ConstLanesView& q,
                            const LanesView& q_out, const IkParams& params);

}  // namespace swarm::reference
