// The model side of a torque batch's soft constraints (swarm/kernels/robots/soft_constraint.h):
// per joint its limits, damping and friction and its reference inverse inertia w0, per contact
// point its body frame and w0, derived once when the batch is created. w0 is MuJoCo's
// dof_invweight0 / body_invweight0 idea: the inverse inertia a constraint row sees in the model's
// reference configuration (q = 0, a floating base at the identity), computed in double from the
// mass matrix there, so that a constraint's stiffness is a model constant and MuJoCo's solref and
// solimp mean the same thing here. Internal to engine/robots.
#pragma once

#include <string>
#include <vector>

#include "swarm/core/status.h"
#include "swarm/kernels/robots/joint_constraints.h"
#include "swarm/kernels/robots/robot_contact.h"
#include "swarm/kernels/robots/robot_control.h"
#include "swarm/kernels/robots/robot_kinematics.h"
#include "swarm/kernels/robots/robot_torque.h"
#include "swarm/robots/dynamics_model.h"
#include "swarm/robots/robot_model.h"

namespace swarm {

// (M + A)^-1 at the reference configuration, row-major n x n (n = velocity_count), or an error
// when M is not positive definite there.
Result<std::vector<double>> ReferenceInverseMassMatrix(const DynamicsModel& dynamics);

// Per independent joint: the limits of `control`, the column's damping and friction from the
// dynamics tree (sum over the bodies the column drives of multiplier^2 times theirs) with the
// velocity gains of the joint's actuators (gear^2 (-bias_velocity): their implicit part; the
// actuator kernel applies their explicit force), and w0 from
// the reference inverse mass matrix, lowered where needed so that the limit's stiffness at rest,
// k d^2 / ((1 - d) w0) with d the impedance at depth `tolerance` (soft_constraint.h), holds the
// joint's effort limit within `tolerance`.
std::vector<JointConstraint> BuildJointConstraints(const DynamicsModel& dynamics,
                                                   const std::vector<JointControl>& control,
                                                   const std::vector<JointActuator>& actuators,
                                                   const std::vector<double>& inverse_mass,
                                                   const SoftConstraint& limits, double tolerance);

// One contact point per link, of `radius`: its body frame and its w0 (the mean of the diagonal of
// J_c (M + A)^-1 J_c^T at the reference configuration, J_c the Jacobian of the sphere's lowest
// point).
std::vector<ContactPoint> BuildContactPoints(const DynamicsModel& dynamics,
                                             const KinematicTree& tree,
                                             const std::vector<size_t>& links, float radius,
                                             const std::vector<double>& inverse_mass);

}  // namespace swarm
