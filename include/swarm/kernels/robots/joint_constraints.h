// The joint-space terms of a torque-controlled step that can be stiff, for R robots of one model
// at once (structure of arrays over the robot index, swarm/kernels/base/views.h): joint limits as
// soft constraints (swarm/kernels/robots/soft_constraint.h) and the implicit parts of viscous
// damping and of the smoothed Coulomb friction. Each becomes an added inertia on the joint's
// diagonal, which forward dynamics absorbs (swarm/kernels/robots/dynamics/robot_dynamics.h,
// AddedInertia::joints), plus an explicit torque; so none of them can make a step unstable,
// whatever its coefficient and the inertia behind the joint.
//
// Per joint j with rate v = qd[j] and time step dt, the added inertia is the sum of
//   damping:   dt damping                  backward Euler of -damping v (damping itself is in the
//                                          dynamics' joint terms)
//   friction:  dt friction eps^2 / (v^2 + eps^2)^(3/2)
//                                          the slope of friction v / sqrt(v^2 + eps^2) at v:
//                                          backward Euler linearised about the step's start
//   limit:     the row's mass m while the limit is active (soft_constraint.h (2))
// and the explicit torque is s f_e of an active limit. The limit row: with lower l and upper u,
// the nearer limit is the lower one when q - l <= u - q, with r = q - l and s = +1, else the
// upper, with r = u - q and s = -1 (the row's velocity is s v, its acceleration s qdd). A limit is
// active when r < 0 (violated), unless the joint leaves it (s v > 0) and the row's force in the
// previous step was not positive (it pulled, or the limit was inactive): so a limit pulls a
// leaving joint for at most one step and never sticks. Infinite limits never act.
//
// After forward dynamics, JointLimitForces gives each row's force f = f_e - m s qdd (positive
// pushes out of the limit, 0 inactive): the joint's limit torque is s f. It is the state the next
// step's activity rule reads.
//
// Determinism as everywhere in kernels/: the same fixed sequence of correctly rounded operations
// per element on every target (swarm/kernels/robots/joint_constraints_reference.h repeats it).
//
// Preconditions (checked once per call): views of one call have equal counts, `count` arrays
// each; joints valid (ValidJointConstraint); the soft constraint prepared from a valid one;
// friction_velocity finite > 0.
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/soft_constraint.h"

namespace swarm {

struct JointConstraint {
  float lower = -1e30f, upper = 1e30f;  // position limits, lower <= upper (may be infinite)
  float inverse_inertia0 = 1.0f;        // w0 > 0: (M + A)^-1's diagonal at the reference q
  float damping = 0.0f;                 // viscous, >= 0 (the dynamics tree's, for the column)
  float friction = 0.0f;                // smoothed Coulomb, >= 0 (likewise)
};
bool ValidJointConstraint(const JointConstraint& joint);

// added = the added inertia per joint; tau += s f_e of active limits (in place).
// previous_forces: JointLimitForces of the previous step (zeros before the first). `caught` (dof
// arrays, or none: 0 arrays) flags rows CatchLimits found: a caught row is active too, and hard
// (as Box2D's speculative contacts): its virtual mass steers the joint to end the step at the
// limit, or no deeper than it started when already past it. So a joint that reaches its limit
// within one step (a light link under a large torque) stops there instead of passing far beyond,
// and a released joint that turns back in is caught again.
void JointConstraintTerms(const JointConstraint* joints, size_t count,
                          const SoftConstraintStep& limits, float friction_velocity,
                          const ConstLanesView& q, const ConstLanesView& qd,
                          const ConstLanesView& previous_forces, const ConstLanesView& caught,
                          const LanesView& tau, const LanesView& added);

// forces (in: the previous step's, out: this step's) = each limit row's force at the step's start
// state (q, qd) and the accelerations qdd forward dynamics gave with JointConstraintTerms' terms
// (with the same `caught`).
void JointLimitForces(const JointConstraint* joints, size_t count, const SoftConstraintStep& limits,
                      const ConstLanesView& q, const ConstLanesView& qd, const ConstLanesView& qdd,
                      const ConstLanesView& caught, const LanesView& forces);

// After a solve of the step gave qdd: caught (dof arrays, zero before the step's first solve) |= 1
// for each inactive, uncaught row whose joint would end the step past its limit and deeper than it
// started, r + dt (v + dt qdd) < min(r, 0); true when any robot got a new one, and the step then
// solves again with `caught`. Rows only join, so the solves converge; a robot without a new row
// gets the same bits from the next solve.
bool CatchLimits(const JointConstraint* joints, size_t count, const SoftConstraintStep& limits,
                 const ConstLanesView& q, const ConstLanesView& qd, const ConstLanesView& qdd,
                 const ConstLanesView& previous_forces, const LanesView& caught);

}  // namespace swarm
