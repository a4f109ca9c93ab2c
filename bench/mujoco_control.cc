#include "bench/mujoco_control.h"

#include <algorithm>

namespace swarm::bench {
namespace {

double Clamp(double value, double limit) { return std::clamp(value, -limit, limit); }

}  // namespace

void StepPdGravity(const mjModel* model, mjData* data, const MujocoScene& scene,
                   const MujocoPdGravity& pd, std::vector<mjtNum>& scratch) {
  mj_step1(model, data);
  // g(q): mj_rne without accelerations reads the velocities only through qvel (cdof_dot qvel) and
  // cvel, so with both zeroed for the call it gives gravity alone, at the kinematics mj_step1 just
  // computed; they are restored before mj_step2 reads them.
  const int nv = model->nv, nbody = model->nbody;
  scratch.resize(static_cast<size_t>(2 * nv + 6 * nbody));
  mjtNum* gravity = scratch.data();
  mjtNum* qvel = gravity + nv;
  mjtNum* cvel = qvel + nv;
  mju_copy(qvel, data->qvel, nv);
  mju_copy(cvel, data->cvel, 6 * nbody);
  mju_zero(data->qvel, nv);
  mju_zero(data->cvel, 6 * nbody);
  mj_rne(model, data, 0, gravity);
  mju_copy(data->qvel, qvel, nv);
  mju_copy(data->cvel, cvel, 6 * nbody);
  mju_zero(data->qfrc_applied, nv);
  for (size_t c = 0; c < scene.dof_of_joint.size(); ++c) {
    const int dof = scene.dof_of_joint[c];
    const double q = data->qpos[scene.qpos_of_joint[c]], qd = data->qvel[dof];
    data->qfrc_applied[dof] =
        Clamp(gravity[dof] + pd.kp[c] * (pd.target[c] - q) - pd.kd[c] * qd, pd.effort[c]);
  }
  mj_step2(model, data);
}

void StepTorques(const mjModel* model, mjData* data, const MujocoScene& scene,
                 const std::vector<double>& torques, const std::vector<double>& effort) {
  mju_zero(data->qfrc_applied, model->nv);
  for (size_t c = 0; c < scene.dof_of_joint.size(); ++c) {
    data->qfrc_applied[scene.dof_of_joint[c]] = Clamp(torques[c], effort[c]);
  }
  mj_step(model, data);
}

}  // namespace swarm::bench
