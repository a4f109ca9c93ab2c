// An independent double-precision reference for the robot dynamics kernels
// (swarm/kernels/robots/dynamics/robot_dynamics.h), written from the textbook (Featherstone, "Rigid
// Body Dynamics Algorithms", 2008) with explicit 6 x 6 spatial matrices: RNEA (table 5.1), CRBA
// (table 6.2) on the full coordinates reduced by the coupling map (M = T^T M_full T), and forward
// dynamics by a dense Cholesky solve of M qdd = tau - h (so it shares neither the kernels' ABA nor
// their LTDL). One robot per call, in double from the tree's float constants; tests compare the
// float kernels with it (tolerances, not bits), and benchmarks use it as the per-robot scalar
// baseline.
//
// Coordinates, joint terms and gravity as in swarm/kernels/robots/dynamics/robot_dynamics.h.
#pragma once

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

}  // namespace swarm::reference
