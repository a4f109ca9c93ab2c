#include "bench/explicit_torque_step.h"

#include <algorithm>
#include <cmath>

#include "swarm/core/tile_pipeline.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"
#include "swarm/kernels/robots/robot_kinematics.h"
#include "swarm/kernels/robots/robot_torque.h"

namespace swarm::bench {
namespace {

constexpr float kLimitStiffness = 1e4f;  // N m / rad
constexpr float kLimitDamping = 1e2f;    // N m s / rad

void CopyLanes(const ConstLanesView& from, const LanesView& to) {
  for (size_t a = 0; a < from.arrays; ++a) std::copy_n(from.Array(a), from.count, to.Array(a));
}

// tau += stiffness (limit - q) - damping (the velocity deeper into the limit) past a limit.
void AddLimitSprings(const JointControl* joints, size_t dof, const ConstLanesView& q,
                     const ConstLanesView& qd, const LanesView& tau) {
  for (size_t j = 0; j < dof; ++j) {
    const float lower = joints[j].lower, upper = joints[j].upper;
    const float* value = q.Array(j);
    const float* rate = qd.Array(j);
    float* torque = tau.Array(j);
    for (size_t r = 0; r < tau.count; ++r) {
      const float below = value[r] < lower ? kLimitStiffness * (lower - value[r]) -
                                                 kLimitDamping * std::min(rate[r], 0.0f)
                                           : 0.0f;
      const float above = value[r] > upper ? kLimitStiffness * (upper - value[r]) -
                                                 kLimitDamping * std::max(rate[r], 0.0f)
                                           : 0.0f;
      torque[r] += below + above;
    }
  }
}

}  // namespace

ExplicitTorqueSteps::ExplicitTorqueSteps(const RobotBatch& batch)
    : batch_(&batch), robots_(batch.size()), dof_(batch.model().dof()) {
  const size_t links = batch.link_poses().arrays;
  q_ = MakeLanes(robots_, dof_), qd_ = MakeLanes(robots_, dof_);
  q_target_ = MakeLanes(robots_, dof_), qd_target_ = MakeLanes(robots_, dof_);
  qdd_target_ = MakeLanes(robots_, dof_), tau_ = MakeLanes(robots_, dof_);
  qdd_ = MakeLanes(robots_, dof_), poses_ = MakeLanes(robots_, links);
  saved_ = MakeLanes(robots_, 2 * dof_);
  CopyLanes(batch.q(), q_.view), CopyLanes(batch.qd(), qd_.view);
  CopyLanes(batch.q_target(), q_target_.view), CopyLanes(batch.qd_target(), qd_target_.view);
  CopyLanes(batch.qdd_target(), qdd_target_.view);
  const TileSchedule& schedule = batch.config().torque.schedule;
  for (size_t tile = 0; tile < schedule.TileCount(robots_); ++tile) {
    scratch_.push_back(
        hwy::AllocateAligned<float>(RobotDynamicsScratchFloats(*batch.dynamics_tree())));
  }
  tile_failed_.assign(scratch_.size(), 0);
}

void ExplicitTorqueSteps::StepTile(size_t begin, size_t count, float dt) {
  const auto slice = [&](const Lanes& lanes) { return lanes.view.Slice(begin, count); };
  const DynamicsTree& tree = *batch_->dynamics_tree();
  const TorqueModeConfig& torque = batch_->config().torque;
  const JointControl* control = batch_->config().control.data();
  const LanesView q = slice(q_), qd = slice(qd_), tau = slice(tau_), qdd = slice(qdd_);
  const LanesView saved = slice(saved_);
  float* scratch = scratch_[begin / batch_->config().torque.schedule.tile_elements].get();
  CopyLanes(q, saved.Arrays(0, dof_)), CopyLanes(qd, saved.Arrays(dof_, dof_));
  GravityTorques(tree, torque.gravity, q, tau, scratch);
  AddPdTorques(control, dof_, q, qd, {slice(q_target_), slice(qd_target_), slice(qdd_target_)},
               tau);
  AddLimitSprings(control, dof_, q, qd, tau);
  ForwardDynamics(tree, torque.gravity, q, qd, tau, qdd, scratch);
  IntegrateAccelerations(qdd, q, qd, dt);
  ForwardKinematics(batch_->tree(), q, slice(poses_));
  // The guard's check, kept per tile (a failed step's restore is not timed).
  unsigned failed = 0;
  for (size_t a = 0; a < dof_; ++a) {
    for (size_t r = 0; r < count; ++r) {
      failed |= static_cast<unsigned>(!std::isfinite(q.Array(a)[r])) |
                static_cast<unsigned>(!std::isfinite(qd.Array(a)[r]));
    }
  }
  tile_failed_[begin / batch_->config().torque.schedule.tile_elements] = failed != 0;
}

void ExplicitTorqueSteps::Step(ThreadPool& pool, float dt) {
  RunFused(pool, robots_, batch_->config().torque.schedule,
           [&](size_t begin, size_t count) { StepTile(begin, count, dt); });
}

bool ExplicitTorqueSteps::Finite() const {
  return std::none_of(tile_failed_.begin(), tile_failed_.end(), [](char failed) { return failed; });
}

}  // namespace swarm::bench
