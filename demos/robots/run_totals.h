// What one batch of a swarm-robots run contributes to the run's summary, in a form that merges:
// counts, exact sums (core/exact_sum.h), maxima and the state digest. Batches of consecutive
// robot ranges (the MPI ranks of a sharded run) merge, in any order, into the totals of one
// batch of all the robots, bit for bit; the totals travel between ranks as words.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "swarm/core/exact_sum.h"
#include "swarm/core/status.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_tasks.h"

namespace swarm {

// Torque control's final state: joint torques (|tau| over every robot and joint, and how many sit
// at their effort limit), energies per robot and ground contacts (how many touch, and the total
// normal force per robot, N).
struct TorqueSummary {
  double mean_abs_torque = 0.0, max_abs_torque = 0.0;
  size_t saturated = 0, joints = 0;
  double mean_kinetic = 0.0, mean_potential = 0.0, max_kinetic = 0.0;
  size_t touching = 0, contacts = 0;
  double mean_normal_force = 0.0;
};

// OK, or an error naming the first summary value that is not finite ("the final kinetic energy
// per robot overflowed: mean inf J"): a run whose state stayed finite can still overflow a derived
// quantity (0.5 v^T M v of a fast robot), which would otherwise be printed as a result.
Status CheckFinite(const TorqueSummary& summary);

struct TorqueTotals {
  uint64_t robots = 0, joints = 0, saturated = 0, contacts = 0, touching = 0;
  ExactSum abs_torque, kinetic, potential, normal_force;
  double max_abs_torque = 0.0, max_kinetic = 0.0;

  void Merge(const TorqueTotals& other);
  TorqueSummary Summary() const;
};
// The totals of a batch's final state, with its robots' kinetic and potential energies.
TorqueTotals MeasureTorqueTotals(const RobotBatch& batch, std::span<const float> kinetic,
                                 std::span<const float> potential);

struct RunTotals {
  TaskErrorTotals errors;
  TorqueTotals torque;            // all zero without torque control
  uint64_t state_digest = 0;      // RobotBatch::StateDigest: batches' digests add up mod 2^64
  double stepping_seconds = 0.0;  // not a result: the slowest batch's time, for the rate

  void Merge(const RunTotals& other);

  static constexpr size_t kWords = TaskErrorTotals::kWords + 5 + 4 * ExactSum::kWords + 2 + 2;
  std::array<uint64_t, kWords> Words() const;
  static RunTotals FromWords(std::span<const uint64_t, kWords> words);
};

}  // namespace swarm
