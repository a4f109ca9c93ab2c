// An independent double-precision reference for the robot dynamics kernels
// (swarm/kernels/robots/dynamics/robot_dynamics.h), written from the textbook (Featherstone, "Rigid
// Body Dynamics Algorithms", 2008) with explicit 6 x 6 spatial matrices: RNEA (table 5.1), CRBA
// (table 6.2) on the full coordinates reduced by the coupling map (M = T^T M_full T), and forward
// dynamics by a dense Cholesky solve of M qdd = tau - h (so it shares neither the kernels' ABA nor
// their LTDL), also with an added inertia built from point Jacobians. One robot per call, in double
// from the tree's float constants; tests compare the float kernels with it (tolerances, not bits),
// and benchmarks use it as the per-robot scalar baseline.
//
// Coordinates, joint terms and gravity as in swarm/kernels/robots/dynamics/robot_dynamics.h.
#pragma once

#include <cstdint>
#include <vector>

#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

namespace swarm::reference {

// q has tree.q_count() values, qd, qdd and tau tree.velocity_count().
std::vector<double> RobotInverseDynamics(const DynamicsTree& tree, const double gravity[3],
                                         const double* q, const double* qd, const double* qdd);
// Row-major n x n, n = tree.velocity_count().
std::vector<double> RobotMassMatrix(const DynamicsTree& tree, const double* q);
// Empty when the mass matrix is not positive definite.
std::vector<double> RobotForwardDynamics(const DynamicsTree& tree, const double gravity[3],
                                         const double* q, const double* qd, const double* tau);

// One robot's added inertia (robot_dynamics.h, AddedInertia): per independent joint column (or
// none: empty), and point inertias m_n along the unit normal n, m_t across it, at a point fixed in
// a body (both in the body's frame).
struct RobotAddedPoint {
  uint32_t body = 0;
  double point[3] = {0, 0, 0}, normal[3] = {0, 0, 1};
  double normal_mass = 0, tangent_mass = 0;
};
struct RobotAddedInertia {
  std::vector<double> joints;
  std::vector<RobotAddedPoint> points;
};

// J_p: the velocity of `point` (fixed in `body`, body coordinates) per unit velocity coordinate,
// in the body's coordinates: 3 x n row-major, column k from the bodies' velocities for qd = e_k
// (v_b = X_b v_parent + S_b qd_b, Featherstone eq. 3.33; the point's v_O + w x p).
std::vector<double> RobotPointJacobian(const DynamicsTree& tree, const double* q, uint32_t body,
                                       const double point[3]);
// The solution of (M + A + E) qdd = tau - h, E = diag(joints) + sum_p J_p^T C_p J_p with
// C_p = m_t 1 + (m_n - m_t) n n^T, by a dense Cholesky solve. Empty when not positive definite.
std::vector<double> RobotForwardDynamics(const DynamicsTree& tree, const double gravity[3],
                                         const double* q, const double* qd, const double* tau,
                                         const RobotAddedInertia& added);

}  // namespace swarm::reference
