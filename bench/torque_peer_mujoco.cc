// The MuJoCo torque-step peer (bench/torque_peer_mujoco.h) over libmujoco 2.2.2's C API.
#include "bench/torque_peer_mujoco.h"

#include <mujoco/mujoco.h>

#include <cmath>
#include <utility>

#include "bench/mujoco_control.h"
#include "bench/mujoco_model.h"

namespace swarm::bench {

struct MujocoTorquePeer::Handles {
  mjModel* model = nullptr;
  mjData* data = nullptr;
  MujocoPdGravity pd;
  std::vector<mjtNum> scratch;

  ~Handles() {
    if (data != nullptr) mj_deleteData(data);
    if (model != nullptr) mj_deleteModel(model);
  }
};

Result<std::unique_ptr<MujocoTorquePeer>> MujocoTorquePeer::Create(
    const std::string& urdf_path, const std::vector<std::string>& joint_names,
    const MujocoSceneOptions& scene, const Control& control, size_t robots) {
  Result<MujocoScene> built = BuildMujocoScene(urdf_path, joint_names, scene);
  if (!built.ok()) return built.status();
  std::unique_ptr<MujocoTorquePeer> peer(new MujocoTorquePeer());
  peer->handles_ = std::make_unique<Handles>();
  peer->scene_ = std::move(built).value();
  mjModel* model = peer->scene_.model;
  peer->handles_->model = model;
  peer->handles_->data = mj_makeData(model);
  peer->handles_->pd = {control.kp, control.kd, std::vector<double>(joint_names.size()),
                        control.effort};
  peer->control_ = control;
  const size_t state = static_cast<size_t>(model->nq + 2 * model->nv);
  peer->states_.assign(robots, std::vector<double>(state, 0.0));
  peer->commands_.assign(robots, std::vector<double>(joint_names.size(), 0.0));
  peer->normal_forces_.assign(robots, 0.0);
  for (std::vector<double>& s : peer->states_) {
    for (int k = 0; k < model->nq; ++k) s[k] = model->qpos0[k];
  }
  return peer;
}

MujocoTorquePeer::~MujocoTorquePeer() = default;

void MujocoTorquePeer::SetRobot(size_t r, const std::vector<double>& q,
                                const std::vector<double>& velocities,
                                const std::vector<double>& command) {
  const mjModel* model = handles_->model;
  std::vector<double>& s = states_[r];
  double* qpos = s.data();
  double* qvel = qpos + model->nq;
  const size_t base = scene_.free_qpos >= 0 ? 7 : 0, base_v = base > 0 ? 6 : 0;
  if (base > 0) {
    for (int k = 0; k < 7; ++k) qpos[scene_.free_qpos + k] = q[k];
    // MuJoCo's free joint moves its origin in world coordinates and turns in its own frame.
    mju_rotVecQuat(qvel + scene_.free_dof, velocities.data(), q.data() + 3);
    for (int k = 3; k < 6; ++k) qvel[scene_.free_dof + k] = velocities[k];
  }
  for (size_t c = 0; c < scene_.qpos_of_joint.size(); ++c) {
    qpos[scene_.qpos_of_joint[c]] = q[base + c];
    qvel[scene_.dof_of_joint[c]] = velocities[base_v + c];
  }
  mju_zero(qvel + model->nv, model->nv);  // no warm start yet
  commands_[r] = command;
}

void MujocoTorquePeer::Step(bool measure) {
  const mjModel* model = handles_->model;
  mjData* data = handles_->data;
  const int nq = model->nq, nv = model->nv;
  for (size_t r = 0; r < states_.size(); ++r) {
    double* s = states_[r].data();
    mju_copy(data->qpos, s, nq);
    mju_copy(data->qvel, s + nq, nv);
    mju_copy(data->qacc_warmstart, s + nq + nv, nv);
    if (control_.pd_gravity) {
      handles_->pd.target = commands_[r];
      StepPdGravity(model, data, scene_, handles_->pd, handles_->scratch);
    } else {
      StepTorques(model, data, scene_, commands_[r], control_.effort);
    }
    mju_copy(s, data->qpos, nq);
    mju_copy(s + nq, data->qvel, nv);
    mju_copy(s + nq + nv, data->qacc_warmstart, nv);
    if (measure) {
      double total = 0.0;
      for (int i = 0; i < data->ncon; ++i) {
        mjtNum wrench[6];
        mj_contactForce(model, data, i, wrench);
        total += wrench[0];
      }
      normal_forces_[r] = total;
    }
  }
}

bool MujocoTorquePeer::Finite() const {
  for (const std::vector<double>& s : states_) {
    for (double value : s) {
      if (!std::isfinite(value)) return false;
    }
  }
  return true;
}

std::string MujocoTorquePeer::Version() { return MujocoVersion(); }

}  // namespace swarm::bench
