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
#include <cstdint>

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

// An actuator on an independent joint (MuJoCo's general actuator with a fixed gain, an affine
// bias and no activation dynamics, on a joint transmission):
//   force = clamp(gain clamp(ctrl, ctrl_lower, ctrl_upper) + bias_constant
//                 + bias_position (gear q) + bias_velocity (gear qd), force_lower, force_upper)
// and the joint's torque gains gear force (MuJoCo's position servo: gain kp, bias_position -kp,
// bias_velocity -kv). The velocity term is the stiff one: RobotBatch's torque step also gives the
// joint an added inertia of dt gear^2 (-bias_velocity), so that the step integrates it as
// backward Euler linearised at the step's start, stable at any kv and time step (as MuJoCo's
// implicit integrators do). Ranges may be infinite; lower <= upper; bias_velocity <= 0.
struct JointActuator {
  uint32_t dof = 0;  // the joint's array in q_joints, qd and tau
  float gear = 1.0f;
  float gain = 1.0f;
  float bias_constant = 0.0f;
  float bias_position = 0.0f;
  float bias_velocity = 0.0f;
  float ctrl_lower = -1e30f, ctrl_upper = 1e30f;
  float force_lower = -1e30f, force_upper = 1e30f;
};
// Finite gear, gain and biases, bias_velocity <= 0, ranges with lower <= upper (not NaN).
bool ValidJointActuator(const JointActuator& actuator);

// tau (joint_count arrays) = the actuators' joint torques: zero, then each actuator's gear force
// added to its joint's array in the order given (so a joint's sum is the same on every target).
// ctrl has one array per actuator; q_joints and qd joint_count arrays.
void ActuatorTorques(const JointActuator* actuators, size_t actuator_count,
                     const ConstLanesView& q_joints, const ConstLanesView& qd,
                     const ConstLanesView& ctrl, const LanesView& tau);

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
