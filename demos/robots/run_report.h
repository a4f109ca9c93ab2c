// What `swarm-robots run` prints on stdout: a header naming the run (model, robots, task, threads,
// the SIMD target that runs and those the CPU supports; torque control with the joint limits' soft
// constraints and speed caps, and the ground contacts' parameters; the MPI ranks), then the
// summary: stepping throughput in robot-steps per second, the task's final errors (reach and
// stand: success rate), torques, energies and contact forces, the state hash that the determinism
// tests compare, memory per robot, the memory report (and each rank's memory) and the files
// written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "demos/robots/options.h"
#include "demos/robots/rank_group.h"
#include "demos/robots/run_totals.h"
#include "demos/robots/trajectory_recorder.h"
#include "swarm/core/memory.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_tasks.h"

namespace swarm {

struct RunTimings {
  double stepping_seconds = 0.0;   // RobotTaskRunner::Step calls only (the slowest rank's)
  double recording_seconds = 0.0;  // gathering and writing frames
  double gather_seconds = 0.0;     // of which rank 0 receiving other ranks' recorded robots
  double summary_seconds = 0.0;    // rank 0 gathering and merging the ranks' totals
  double total_seconds = 0.0;      // start to finish, setup included
};

// The run's robots are options.robots (batch is rank 0's part of them), split among `ranks`.
void PrintRunHeader(const RunOptions& options, const RobotBatch& batch, size_t threads, int ranks);

// One rank's line of the per-rank report of a sharded run: where it ran, its robots, its SIMD
// target and threads, its stepping time and its memory (peak of the total, budget, RSS).
std::string RankReportLine(int rank, const std::string& host, RobotSlice slice, size_t threads,
                           double stepping_seconds, const MemoryAccountant& memory);

// `totals`: the whole run's (merged over ranks); `memory`: rank 0's; `rank_lines`: every rank's
// RankReportLine when the run has more than one rank (else empty).
void PrintRunSummary(const RunOptions& options, const RobotBatch& batch, const RunTotals& totals,
                     const RunTimings& timings, const MemoryAccountant& memory,
                     const RecordingPlan* recording, std::span<const std::string> rank_lines);

}  // namespace swarm
