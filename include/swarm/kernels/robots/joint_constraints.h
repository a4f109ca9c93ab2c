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
// upper, with r = u - q and s = -1 (the row's velocity is s v, its acceleration s qdd).
//
// Which rows act is settled within the step (soft_constraint.h, one-sided rows; UpdateLimitFlags):
// a violated row is active unless a solve found it pulling, so a limit never sticks, and a joint
// that a solve lets cross its limit within the step is caught: a light link under a strong motor
// stops at its limit instead of passing beyond. A joint that arrives in its limit (outside it one
// step ago: r - dt v_row >= 0) while moving deeper stops within the step (an inelastic stop: the
// row's damping is m / dt, with m the row's mass at the depth r + dt v_row it would reach within
// the step where that is larger: a limit whose impedance starts near zero, as MJCF files' solimp
// "0 0.99 0.01", stops it too), as a mechanical stop does; otherwise the row is MuJoCo's soft
// constraint. Infinite limits never act.
//
// After the last solve, JointLimitForces gives each row's force f = f_e - m s qdd (positive
// pushes out of the limit, 0 inactive): the joint's limit torque is s f.
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

// added = the added inertia per joint; applied = tau + s f_e of active limits, with the step's
// flags. applied is tau's arrays (in place) or shares no float with them.
void JointConstraintTerms(const JointConstraint* joints, size_t count,
                          const SoftConstraintStep& limits, float friction_velocity,
                          const ConstLanesView& q, const ConstLanesView& qd,
                          const ConstLanesView& flags, const ConstLanesView& tau,
                          const LanesView& applied, const LanesView& added);

// After a solve gave qdd (with JointConstraintTerms' terms and `flags`): the flags of the next
// solve (soft_constraint.h, one-sided rows); true when any robot's flags changed, and the step then
// solves again (those robots: `changed`, one array, gets 1 where a robot's flags changed and keeps
// its value elsewhere). Without `may_release` no row is released or dropped, caught rows that
// pull are stopped, and so are the rows the step let go of robots whose mark is set (still
// unsettled: the caller keeps their marks): the step's last update, after which a released joint
// could no longer be caught.
bool UpdateLimitFlags(const JointConstraint* joints, size_t count, const SoftConstraintStep& limits,
                      const ConstLanesView& q, const ConstLanesView& qd, const ConstLanesView& qdd,
                      bool may_release, const LanesView& flags, const LanesView& changed);

// forces = each limit row's force at the step's start state (q, qd) and the accelerations qdd of
// the step's last solve (with the same flags).
void JointLimitForces(const JointConstraint* joints, size_t count, const SoftConstraintStep& limits,
                      const ConstLanesView& q, const ConstLanesView& qd, const ConstLanesView& qdd,
                      const ConstLanesView& flags, const LanesView& forces);

}  // namespace swarm
