// The MuJoCo dynamics peer (bench/dynamics_peer_mujoco.h) over libmujoco 2.2.2's C API.
#include "bench/dynamics_peer_mujoco.h"

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "bench/mujoco_model.h"

namespace swarm::bench {

struct MujocoDynamics::Handles {
  mjModel* model = nullptr;
  std::vector<mjData*> data;
  std::vector<std::vector<mjtNum>> dense;  // mj_fullM output, per worker

  ~Handles() {
    for (mjData* d : data) mj_deleteData(d);
    if (model != nullptr) mj_deleteModel(model);
  }
};

Result<std::unique_ptr<MujocoDynamics>> MujocoDynamics::Load(
    const std::string& urdf_path, const std::vector<std::string>& q_names, size_t workers) {
  std::unique_ptr<MujocoDynamics> peer(new MujocoDynamics());
  peer->handles_ = std::make_unique<Handles>();
  Result<MujocoUrdf> loaded = LoadMujocoUrdf(urdf_path, q_names, /*for_dynamics=*/true);
  if (!loaded.ok()) return loaded.status();
  mjModel* model = loaded->model;
  peer->handles_->model = model;
  if (model->nv != model->nq) {
    return InvalidArgument("MuJoCo model of '" + urdf_path + "' has nv != nq");
  }
  // Rigid-body terms only: no contacts or constraints (the URDF's joint friction would be one).
  model->opt.disableflags |= mjDSBL_CONSTRAINT | mjDSBL_CONTACT;
  peer->qpos_of_q_ = loaded->qpos_of_q;
  peer->dof_of_q_ = loaded->dof_of_q;
  peer->dof_ = q_names.size();
  for (size_t worker = 0; worker < std::max<size_t>(1, workers); ++worker) {
    peer->handles_->data.push_back(mj_makeData(model));
    peer->handles_->dense.emplace_back(peer->dof_ * peer->dof_);
  }
  return peer;
}

MujocoDynamics::~MujocoDynamics() = default;

void MujocoDynamics::InverseDynamics(const double* q, const double* qd, const double* qdd,
                                     size_t robots, double* tau, size_t worker) {
  const mjModel* model = handles_->model;
  mjData* d = handles_->data[worker];
  std::vector<mjtNum>& result = handles_->dense[worker];
  for (size_t r = 0; r < robots; ++r) {
    for (size_t c = 0; c < dof_; ++c) {
      d->qpos[qpos_of_q_[c]] = q[r * dof_ + c];
      d->qvel[dof_of_q_[c]] = qd[r * dof_ + c];
      d->qacc[dof_of_q_[c]] = qdd[r * dof_ + c];
    }
    mj_kinematics(model, d);
    mj_comPos(model, d);
    mj_comVel(model, d);
    mj_rne(model, d, 1, result.data());
    for (size_t c = 0; c < dof_; ++c) tau[r * dof_ + c] = result[dof_of_q_[c]];
  }
}

void MujocoDynamics::MassMatrix(const double* q, size_t robots, double* mass, size_t worker) {
  const mjModel* model = handles_->model;
  mjData* d = handles_->data[worker];
  std::vector<mjtNum>& dense = handles_->dense[worker];
  for (size_t r = 0; r < robots; ++r) {
    for (size_t c = 0; c < dof_; ++c) d->qpos[qpos_of_q_[c]] = q[r * dof_ + c];
    mj_kinematics(model, d);
    mj_comPos(model, d);
    mj_crb(model, d);
    mj_factorM(model, d);
    if (mass == nullptr) continue;
    mj_fullM(model, dense.data(), d->qM);
    for (size_t row = 0; row < dof_; ++row) {
      for (size_t col = 0; col < dof_; ++col) {
        mass[(r * dof_ + row) * dof_ + col] = dense[dof_of_q_[row] * dof_ + dof_of_q_[col]];
      }
    }
  }
}

void MujocoDynamics::ForwardDynamics(const double* q, const double* qd, const double* tau,
                                     size_t robots, double* qdd, size_t worker) {
  const mjModel* model = handles_->model;
  mjData* d = handles_->data[worker];
  for (size_t r = 0; r < robots; ++r) {
    for (size_t c = 0; c < dof_; ++c) {
      d->qpos[qpos_of_q_[c]] = q[r * dof_ + c];
      d->qvel[dof_of_q_[c]] = qd[r * dof_ + c];
      d->qfrc_applied[dof_of_q_[c]] = tau[r * dof_ + c];
    }
    mj_forward(model, d);
    for (size_t c = 0; c < dof_; ++c) qdd[r * dof_ + c] = d->qacc[dof_of_q_[c]];
  }
}

}  // namespace swarm::bench
