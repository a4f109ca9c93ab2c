// What `swarm-robots run` prints on stdout: a header naming the run (model, robots, task, threads,
// the SIMD target that runs and those the CPU supports; torque control and ground contacts),
// then the summary: stepping throughput in robot-steps per second, the task's final errors
// (reach and stand: success rate), torques, energies and contact forces, the state hash that
// the determinism tests compare, memory per robot, the memory report and the files written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "demos/robots/options.h"
#include "demos/robots/trajectory_recorder.h"
#include "swarm/core/memory.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_tasks.h"

namespace swarm {

struct RunTimings {
  double stepping_seconds = 0.0;   // RobotTaskRunner::Step calls only
  double recording_seconds = 0.0;  // gathering and writing frames
  double total_seconds = 0.0;      // start to finish, setup included
};

// Torque control's final state: joint torques (|tau| over every robot and joint, and how many sit
// at their effort limit) and energies per robot (sums in robot order).
struct TorqueSummary {
  double mean_abs_torque = 0.0, max_abs_torque = 0.0;
  size_t saturated = 0, joints = 0;
  double mean_kinetic = 0.0, mean_potential = 0.0, max_kinetic = 0.0;
  // Ground contacts: how many of every robot's contacts touch, and the mean total normal force
  // per robot (N).
  size_t touching = 0, contacts = 0;
  double mean_normal_force = 0.0;
};
TorqueSummary SummarizeTorque(const RobotBatch& batch, std::span<const float> kinetic,
                              std::span<const float> potential);

void PrintRunHeader(const RunOptions& options, const RobotBatch& batch, size_t threads);

// `state_digest`: RobotBatch::StateDigest of the whole run (printed as its state hash, which
// does not depend on how the run's robots are split).
void PrintRunSummary(const RunOptions& options, const RobotBatch& batch,
                     const TaskErrorSummary& errors, const RunTimings& timings,
                     const MemoryAccountant& memory, const RecordingPlan* recording,
                     uint64_t state_digest, const TorqueSummary* torque = nullptr);

}  // namespace swarm
