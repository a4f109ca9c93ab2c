#include "tests/support/mujoco_peer.h"

#include <algorithm>
#include <utility>

namespace swarm::test {

Result<std::unique_ptr<MujocoPeer>> MujocoPeer::Create(const std::string& urdf_path,
                                                       const std::vector<std::string>& joint_names,
                                                       const bench::MujocoSceneOptions& options) {
  Result<bench::MujocoScene> scene = bench::BuildMujocoScene(urdf_path, joint_names, options);
  if (!scene.ok()) return scene.status();
  std::unique_ptr<MujocoPeer> peer(new MujocoPeer());
  peer->scene_ = std::move(scene).value();
  peer->data_ = mj_makeData(peer->scene_.model);
  mj_forward(peer->scene_.model, peer->data_);
  return peer;
}

MujocoPeer::~MujocoPeer() {
  if (data_ != nullptr) mj_deleteData(data_);
  if (scene_.model != nullptr) mj_deleteModel(scene_.model);
}

void MujocoPeer::SetQ(const std::vector<double>& q) {
  const size_t base = scene_.free_qpos >= 0 ? 7 : 0;
  for (size_t k = 0; k < base; ++k) data_->qpos[scene_.free_qpos + static_cast<int>(k)] = q[k];
  for (size_t c = 0; c < joint_count(); ++c) data_->qpos[scene_.qpos_of_joint[c]] = q[base + c];
  mju_zero(data_->qvel, scene_.model->nv);
  mj_forward(scene_.model, data_);
}

std::vector<double> MujocoPeer::Q() const {
  const size_t base = scene_.free_qpos >= 0 ? 7 : 0;
  std::vector<double> q(base + joint_count());
  for (size_t k = 0; k < base; ++k) q[k] = data_->qpos[scene_.free_qpos + static_cast<int>(k)];
  for (size_t c = 0; c < joint_count(); ++c) q[base + c] = data_->qpos[scene_.qpos_of_joint[c]];
  return q;
}

std::vector<double> MujocoPeer::ContactNormalForces() const {
  std::vector<double> forces(scene_.contact_geoms.size(), 0.0);
  for (int i = 0; i < data_->ncon; ++i) {
    const mjContact& contact = data_->contact[i];
    for (size_t c = 0; c < forces.size(); ++c) {
      if (contact.geom1 != scene_.contact_geoms[c] && contact.geom2 != scene_.contact_geoms[c]) {
        continue;
      }
      mjtNum wrench[6];
      mj_contactForce(scene_.model, data_, i, wrench);  // contact frame: normal first
      forces[c] += wrench[0];
    }
  }
  return forces;
}

double MujocoPeer::LimitPenetration(size_t c) const {
  const mjModel* m = scene_.model;
  int joint = -1;
  for (int j = 0; j < m->njnt && joint < 0; ++j) {
    if (m->jnt_dofadr[j] == scene_.dof_of_joint[c]) joint = j;
  }
  if (joint < 0 || !m->jnt_limited[joint]) return 0.0;
  const double q = data_->qpos[scene_.qpos_of_joint[c]];
  const double lower = m->jnt_range[2 * joint], upper = m->jnt_range[2 * joint + 1];
  return std::max({0.0, lower - q, q - upper});
}

double MujocoPeer::DofInvWeight0(size_t c) const {
  return scene_.model->dof_invweight0[scene_.dof_of_joint[c]];
}

double MujocoPeer::ContactBodyInvWeight0(size_t c) const {
  const int body = scene_.model->geom_bodyid[scene_.contact_geoms[c]];
  return scene_.model->body_invweight0[2 * body];
}

}  // namespace swarm::test
