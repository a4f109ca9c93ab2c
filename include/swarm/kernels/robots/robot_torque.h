// The joint-space side of torque-controlled robot batches, over robot lanes (one array per
// independent joint, swarm/kernels/base/views.h BasicLanesView); the rigid-body side is
// swarm/kernels/robots/dynamics/robot_dynamics.h. A torque-controlled step composes them per tile:
//   PD + gravity compensation: tau = g(q) (InverseDynamics at qd = qdd = 0), AddPdTorques
//   computed torque:           a = PdAccelerations, tau = InverseDynamics(q, qd, a), ClampTorques
//   then                       AddJointLimitForces, ForwardDynamics, IntegrateAccelerations
//                              (and IntegrateFloatingBase for a floating base)
//
// Joint limits are stiff one-sided springs with damping: past a limit the joint feels
//   stiffness * (limit - q) - damping * (its velocity deeper into the limit, 0 when leaving),
// so the joint is pushed back without being pulled while it leaves (no sticking), and inside
// the limits nothing. Semi-implicit Euler keeps such a spring stable while
// dt sqrt(stiffness / inertia) < 2, inertia being the joint's effective inertia (M's diagonal).
//
// Determinism as everywhere in kernels/: each element is the same fixed sequence of correctly
// rounded operations on every target, clamps are compare and select, robots never interact.
// References with the same order of operations (bitwise):
// swarm/kernels/robots/robot_torque_reference.h.
//
// Preconditions (checked once per call): views of one call have equal counts and the arrays
// stated; JointControl parameters as documented in swarm/kernels/robots/robot_control.h; dt finite
// > 0.
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_control.h"

namespace swarm {

struct JointLimitSpring {
  float stiffness = 1e4f;  // N m / rad (or N / m), finite >= 0
  float damping = 1e2f;    // N m s / rad (or N s / m), finite >= 0
};

// The set point a controller steers toward, per joint: position, velocity and acceleration (the
// latter two zero for a fixed target).
struct JointTargets {
  ConstLanesView q, qd, qdd;
};

// tau = clamp(tau + kp (target.q - q) + kd (target.qd - qd), -effort_limit, effort_limit) per
// joint, in place: tau arrives holding a feed-forward torque (gravity compensation).
void AddPdTorques(const JointControl* joints, size_t joint_count, const ConstLanesView& q,
                  const ConstLanesView& qd, const JointTargets& target, const LanesView& tau);

// a = target.qdd + kp (target.q - q) + kd (target.qd - qd) per joint: the commanded acceleration
// of computed torque (tau = M a + h), the gains read as natural frequency squared and damping rate.
void PdAccelerations(const JointControl* joints, size_t joint_count, const ConstLanesView& q,
                     const ConstLanesView& qd, const JointTargets& target, const LanesView& a);

// tau = clamp(tau, -effort_limit, effort_limit) per joint, in place.
void ClampTorques(const JointControl* joints, size_t joint_count, const LanesView& tau);

// out = tau + the limit spring's torque per joint (above): out may be tau.
void AddJointLimitForces(const JointControl* joints, size_t joint_count,
                         const JointLimitSpring& spring, const ConstLanesView& q,
                         const ConstLanesView& qd, const ConstLanesView& tau, const LanesView& out);

// Semi-implicit Euler on accelerations, per array: qd += qdd dt, then q += qd dt (no clamps:
// limits act as forces). q, qd, qdd have equal array counts.
void IntegrateAccelerations(const ConstLanesView& qdd, const LanesView& q, const LanesView& qd,
                            float dt);

// A floating base's semi-implicit step (swarm/kernels/robots/dynamics/robot_dynamics.h's velocity
// convention): base_qd (vx vy vz wx wy wz, base frame) += base_qdd dt; then the position (q arrays
// 0-2)
// += R v dt with R the orientation before the step, and the orientation (q arrays 3-6: qw qx qy
// qz) = normalise(q exp(w dt)), exp(w dt) = (sinc(|w| dt / 2) w dt / 2, cos(|w| dt / 2)).
void IntegrateFloatingBase(const ConstLanesView& base_qdd, const LanesView& base_q,
                           const LanesView& base_qd, float dt);

// out = the base pose base_q (x y z qw qx qy qz) moved for `seconds` at the body velocity
// base_velocity (vx vy vz wx wy wz), as IntegrateFloatingBase moves it (out may be base_q):
// Runge-Kutta's stage and final poses.
void AdvanceFloatingBase(const ConstLanesView& base_q, const ConstLanesView& base_velocity,
                         float seconds, const LanesView& out);

// out = a + b * scale per array (out may be a or b): Runge-Kutta's stages and sums.
void AddScaled(const ConstLanesView& a, const ConstLanesView& b, float scale, const LanesView& out);

}  // namespace swarm
