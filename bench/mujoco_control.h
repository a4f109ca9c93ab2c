// The joint torques of RobotBatch::TorqueStep's controllers (swarm/robots/robot_batch.h), applied
// to a MuJoCo scene (bench/mujoco_scene.h) step by step, so that swarm and MuJoCo run the same
// controller on the same model: mj_step1 (positions, velocities and the bias forces at the step's
// start), the torques into qfrc_applied, then mj_step2 (constraints, Euler).
//
// Compiled only when CMake finds libmujoco-dev; includes MuJoCo's header.
#pragma once

#include <mujoco/mujoco.h>

#include <vector>

#include "bench/mujoco_scene.h"

namespace swarm::bench {

// Per joint column: PD gains, set point and effort limit (swarm's JointControl and q_target).
struct MujocoPdGravity {
  std::vector<double> kp, kd, target, effort;
};

// tau = clamp(g(q) + kp (target - q) - kd qd, -effort, effort) per joint column (TorqueController::
// kPdGravity), with g(q) the generalised gravity force MuJoCo's own recursive Newton-Euler gives
// at the step's configuration and zero velocity; a free joint gets no force. Then one step.
// `scratch` holds the step's buffers between calls (any vector; resized here).
void StepPdGravity(const mjModel* model, mjData* data, const MujocoScene& scene,
                   const MujocoPdGravity& pd, std::vector<mjtNum>& scratch);

// tau = clamp(torques, -effort, effort) per joint column (TorqueController::kNone), one step.
void StepTorques(const mjModel* model, mjData* data, const MujocoScene& scene,
                 const std::vector<double>& torques, const std::vector<double>& effort);

}  // namespace swarm::bench
