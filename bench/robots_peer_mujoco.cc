// The MuJoCo peer (bench/robots_peer_mujoco.h) over libmujoco 2.2.2's C API.
#include "bench/robots_peer_mujoco.h"

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "bench/mujoco_model.h"

namespace swarm::bench {

struct MujocoKinematics::Handles {
  mjModel* model = nullptr;
  std::vector<mjData*> data;

  ~Handles() {
    for (mjData* d : data) mj_deleteData(d);
    if (model != nullptr) mj_deleteModel(model);
  }
};

Result<std::unique_ptr<MujocoKinematics>> MujocoKinematics::Load(
    const std::string& urdf_path, const std::vector<std::string>& q_names, size_t workers) {
  std::unique_ptr<MujocoKinematics> peer(new MujocoKinematics());
  peer->handles_ = std::make_unique<Handles>();
  Result<MujocoUrdf> loaded = LoadMujocoUrdf(urdf_path, q_names, /*for_dynamics=*/false);
  if (!loaded.ok()) return loaded.status();
  mjModel* model = loaded->model;
  peer->handles_->model = model;
  peer->q_count_ = q_names.size();
  peer->qpos_of_q_ = loaded->qpos_of_q;
  for (int body = 1; body < model->nbody; ++body) {
    const char* name = mj_id2name(model, mjOBJ_BODY, body);
    peer->body_names_.emplace_back(name != nullptr ? name : "");
  }
  for (size_t worker = 0; worker < std::max<size_t>(1, workers); ++worker) {
    peer->handles_->data.push_back(mj_makeData(model));
  }
  return peer;
}

MujocoKinematics::~MujocoKinematics() = default;

void MujocoKinematics::Evaluate(const double* q, size_t robots, double* poses, size_t worker) {
  const mjModel* model = handles_->model;
  mjData* data = handles_->data[worker];
  const size_t bodies = body_count();
  for (size_t r = 0; r < robots; ++r) {
    const double* q_robot = q + r * q_count_;
    for (size_t column = 0; column < q_count_; ++column) {
      data->qpos[qpos_of_q_[column]] = q_robot[column];
    }
    mj_kinematics(model, data);
    double* out = poses + r * bodies * kMujocoPoseValues;
    for (size_t b = 0; b < bodies; ++b) {
      std::memcpy(out, data->xpos + 3 * (b + 1), 3 * sizeof(double));
      std::memcpy(out + 3, data->xquat + 4 * (b + 1), 4 * sizeof(double));
      out += kMujocoPoseValues;
    }
  }
}

std::string MujocoKinematics::Version() { return MujocoVersion(); }

}  // namespace swarm::bench
