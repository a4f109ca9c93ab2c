// The joint-space side of torque-controlled robot batches, over robot lanes (one array per
// independent joint, swarm/kernels/base/views.h BasicLanesView); the rigid-body side is
// swarm/kernels/robots/dynamics/robot_dynamics.h. A torque-controlled step composes them per tile:
//   PD + gravity compensation: tau = g(q) (InverseDynamics at qd = qdd = 0), AddPdTorques
//   computed torque:           a = PdAccelerations, tau = InverseDynamics(q, qd, a), ClampTorques
//   then                       the joints' and contacts' constraint terms
//                              (swarm/kernels/robots/joint_constraints.h, robot_contact.h),
//                              ForwardDynamics with their added inertia, IntegrateAccelerations
//                              (and IntegrateFloatingBase for a floating base)
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

// Semi-implicit Euler on accelerations, per array: qd += qdd dt, then q += qd dt (no clamps:
// limits act as forces). q, qd, qdd have equal array counts.
void IntegrateAccelerations(const ConstLanesView& qdd, const LanesView& q, const LanesView& qd,
                            float dt);

// Speed limits, applied to the accelerations a step integrates (in place), so that v + dt a stays
// within them: each joint's |v + dt a| <= max_joint_speed (rad/s or m/s; arrays from `base` on),
// and a floating base's angular velocity (arrays 3-5 when base == 6) within max_base_angular_speed
// in norm (scaled along itself). Where v + dt a is within the limit, a keeps its bits; elsewhere
// a = (clamped - v) / dt. Speeds are capped as articulated-body engines cap them (PhysX's
// maxJointVelocity, Bullet's btMultiBody maxCoordinateVelocity, both 100 rad/s by default): a
// light link under a strong motor would otherwise reach speeds whose velocity-product terms
// semi-implicit Euler cannot integrate (energy grows with (speed dt)^2 per step). max speeds > 0
// (+infinity: none).
void LimitSpeeds(const ConstLanesView& velocities, const LanesView& accelerations, float dt,
                 size_t base, float max_joint_speed, float max_base_angular_speed);

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
