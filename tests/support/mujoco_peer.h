// MuJoCo 2.2.2 as the independent reference of the torque-mode tests: a URDF robot as the MuJoCo
// scene of bench/mujoco_scene.h (same inertials, armature, limits, contacts, solref and solimp as
// a RobotBatch's TorqueModeConfig), stepped with the same controllers (bench/mujoco_control.h),
// with its state in swarm's q order and the readouts the tests compare: per-contact normal forces
// and how far a joint is past its limit.
//
// Built (library swarm_mujoco_peer, tests/CMakeLists.txt) only when CMake finds libmujoco-dev.
#pragma once

#include <mujoco/mujoco.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "bench/mujoco_control.h"
#include "bench/mujoco_scene.h"
#include "swarm/core/status.h"

namespace swarm::test {

class MujocoPeer {
 public:
  // `joint_names`: swarm's joint columns in q order (after a floating base's 7 values).
  static Result<std::unique_ptr<MujocoPeer>> Create(const std::string& urdf_path,
                                                    const std::vector<std::string>& joint_names,
                                                    const bench::MujocoSceneOptions& options);
  MujocoPeer(const MujocoPeer&) = delete;
  MujocoPeer& operator=(const MujocoPeer&) = delete;
  ~MujocoPeer();

  const mjModel* model() const { return scene_.model; }
  mjData* data() const { return data_; }
  const bench::MujocoScene& scene() const { return scene_; }
  size_t joint_count() const { return scene_.dof_of_joint.size(); }

  // The state in swarm's q layout: a floating base's x y z qw qx qy qz (MuJoCo's free joint has
  // the same), then the joint columns. SetQ also zeroes every velocity and recomputes the
  // derived quantities (mj_forward).
  void SetQ(const std::vector<double>& q);
  std::vector<double> Q() const;
  // Joint column c's velocity.
  double Qd(size_t c) const { return data_->qvel[scene_.dof_of_joint[c]]; }

  void StepPdGravity(const bench::MujocoPdGravity& pd) {
    bench::StepPdGravity(scene_.model, data_, scene_, pd, scratch_);
  }
  void StepTorques(const std::vector<double>& torques, const std::vector<double>& effort) {
    bench::StepTorques(scene_.model, data_, scene_, torques, effort);
  }

  // Per contact link (MujocoSceneOptions::contact_links order): the normal force its sphere
  // carries, the sum of mj_contactForce's normal component over the contacts that involve it, of
  // the last step's constraint solve.
  std::vector<double> ContactNormalForces() const;
  // How far joint column c is past its nearer limit (rad or m; 0 inside its range).
  double LimitPenetration(size_t c) const;
  // MuJoCo's reference inverse inertias: dof_invweight0 of column c, and the translational
  // body_invweight0 of the body that carries contact c's sphere.
  double DofInvWeight0(size_t c) const;
  double ContactBodyInvWeight0(size_t c) const;

 private:
  MujocoPeer() = default;
  bench::MujocoScene scene_;
  mjData* data_ = nullptr;
  std::vector<mjtNum> scratch_;
};

}  // namespace swarm::test
