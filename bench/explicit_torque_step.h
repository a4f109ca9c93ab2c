// The torque step swarm took before its joint limits became soft constraints, composed from the
// public kernels for swarm-bench-torque's cost-of-stability row: PD + gravity compensation
// (GravityTorques, AddPdTorques), joint limits as explicit one-sided springs (stiffness 1e4,
// damping 1e2 against motion deeper into the limit, as that step had them), ForwardDynamics,
// semi-implicit Euler (IntegrateAccelerations) and the links' poses (ForwardKinematics), between
// the same step guard (the state saved before, checked finite after) and fused per tile as
// RobotBatch::TorqueStep is. Fixed-base robots only.
//
// That step is what the soft constraints replaced because it can blow up (a stiff spring
// integrated explicitly); the bench only times it, from a batch's settled state under PD tracking,
// and reports whether it stayed finite.
#pragma once

#include <cstddef>
#include <vector>

#include "bench/bench_lanes.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/robot_batch.h"

namespace swarm::bench {

class ExplicitTorqueSteps {
 public:
  // A copy of `batch`'s robots (q, qd and the PD set points), its trees, gains and tiles. The
  // batch must be in torque mode with a fixed base, and outlive this object.
  explicit ExplicitTorqueSteps(const RobotBatch& batch);

  // One step of dt seconds of every robot.
  void Step(ThreadPool& pool, float dt);
  // Whether every q and qd was finite after the last step.
  bool Finite() const;

 private:
  void StepTile(size_t begin, size_t count, float dt);

  const RobotBatch* batch_;
  size_t robots_ = 0, dof_ = 0;
  Lanes q_, qd_, q_target_, qd_target_, qdd_target_, tau_, qdd_, poses_, saved_;
  std::vector<hwy::AlignedFreeUniquePtr<float[]>> scratch_;  // one per tile
  std::vector<char> tile_failed_;                            // the last step's check, per tile
};

}  // namespace swarm::bench
