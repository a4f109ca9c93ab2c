// MuJoCo's rigid-body dynamics as the per-robot peer of swarm's batched dynamics kernels
// (bench/dynamics_bench.cc): the loops a MuJoCo user writes to evaluate R states of one model, one
// mjData reused robot after robot:
//   inverse dynamics  qpos, qvel, qacc; mj_kinematics, mj_comPos, mj_comVel, mj_rne(flg_acc = 1)
//   mass matrix       qpos; mj_kinematics, mj_comPos, mj_crb, mj_factorM (sparse LTDL)
//   forward dynamics  qpos, qvel, qfrc_applied; mj_forward with contacts and constraints off
// Built only with Debian's libmujoco-dev (2.2.2); this header names no MuJoCo type.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "swarm/core/status.h"

namespace swarm::bench {

class MujocoDynamics {
 public:
  // Loads a fixed-base URDF (its <visual> and <collision> dropped, bench/mujoco_model.h) and maps
  // its joints to `q_names`; `workers` mjData, one per thread.
  static Result<std::unique_ptr<MujocoDynamics>> Load(const std::string& urdf_path,
                                                      const std::vector<std::string>& q_names,
                                                      size_t workers);
  ~MujocoDynamics();
  MujocoDynamics(const MujocoDynamics&) = delete;
  MujocoDynamics& operator=(const MujocoDynamics&) = delete;

  size_t dof() const { return dof_; }

  // Robot r's values at r * dof() of each array (swarm's q order); concurrent calls use
  // different workers.
  void InverseDynamics(const double* q, const double* qd, const double* qdd, size_t robots,
                       double* tau, size_t worker);
  // With `mass` non-null, each robot's dense M (mj_fullM) is copied out at r * dof()^2.
  void MassMatrix(const double* q, size_t robots, double* mass, size_t worker);
  void ForwardDynamics(const double* q, const double* qd, const double* tau, size_t robots,
                       double* qdd, size_t worker);

 private:
  MujocoDynamics() = default;
  struct Handles;
  std::unique_ptr<Handles> handles_;
  std::vector<size_t> qpos_of_q_, dof_of_q_;
  size_t dof_ = 0;
};

}  // namespace swarm::bench
