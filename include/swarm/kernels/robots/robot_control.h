// Batched joint-space control of R robots (structure of arrays over the robot index,
// swarm/kernels/base/views.h BasicLanesView; one array per independent joint): a PD controller with
// torque limits and a semi-implicit integrator with velocity and position limits.
//
// The joint model is a decoupled double integrator per joint (each joint is a rotor with
// effective inertia 1 / inverse_inertia driven by its torque): the kinematic-control model of
// batch planners and RL environments, not rigid-body dynamics (no gravity or coupling terms).
//
// Determinism as everywhere in kernels/: each element is the same fixed sequence of correctly
// rounded operations on every target, limits are applied by compare and select (never Min/Max,
// whose NaN and signed-zero behaviour differs between instruction sets), and robots never
// interact. References with the same order of operations (bitwise):
// swarm/kernels/robots/robot_control_reference.h.
// NaN: a comparison with NaN is false, so a NaN input passes every clamp and gives NaN outputs of
// that robot's joint only; infinite limits need no special case (+-infinity means unlimited).
//
// Preconditions (checked once per call): views of one call have equal counts and `joint_count`
// arrays; outputs do not overlap inputs unless stated; parameters are finite where stated
// (swarm/robots/robot_model.h validates user input).
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"

namespace swarm {

// One joint's controller gains and limits. Unlimited limits are +-infinity.
struct JointControl {
  float kp = 100.0f;             // N m / rad (or N / m), finite >= 0
  float kd = 20.0f;              // N m s / rad, finite >= 0
  float effort_limit = 1e30f;    // |torque| <= effort_limit, > 0 (may be +infinity)
  float velocity_limit = 1e30f;  // |velocity| <= velocity_limit, > 0 (may be +infinity)
  float lower = -1e30f;          // position limits, lower <= upper (may be -+infinity)
  float upper = 1e30f;
  float inverse_inertia = 1.0f;  // 1 / (kg m^2), finite > 0
};

// torque = clamp(kp (target - q) - kd qd, -effort_limit, effort_limit), per joint j of
// joints[0..joint_count).
void PdTorques(const JointControl* joints, size_t joint_count, const ConstLanesView& q,
               const ConstLanesView& qd, const ConstLanesView& target, const LanesView& torque);

// Semi-implicit Euler with limits, per joint:
//   qd = clamp(qd + torque * inverse_inertia * dt, -velocity_limit, velocity_limit)
//   q  = q + qd * dt;  if q < lower: q = lower, qd = 0 when qd < 0;  if q > upper: likewise.
// q and qd are updated in place; dt > 0 and finite.
void IntegrateJoints(const JointControl* joints, size_t joint_count, const ConstLanesView& torque,
                     const LanesView& q, const LanesView& qd, float dt);

}  // namespace swarm
