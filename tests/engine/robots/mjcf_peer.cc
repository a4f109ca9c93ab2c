#include "tests/engine/robots/mjcf_peer.h"

#include <catch2/catch.hpp>
#include <map>

#include "bench/mjcf_compat.h"

namespace swarm::test {
namespace {

// The range MuJoCo compiles for a joint of the copy at `path` (the copies' second pass).
std::vector<double> JointRange(const std::string& path, const std::string& joint) {
  static std::map<std::string, MujocoModel> compiled;
  MujocoModel& model = compiled[path];
  if (model == nullptr) model = LoadMujoco(path);
  const int id = mj_name2id(model.get(), mjOBJ_JOINT, joint.c_str());
  REQUIRE(id >= 0);
  return {model->jnt_range[2 * id], model->jnt_range[2 * id + 1]};
}

}  // namespace

MujocoModel LoadMujoco(const std::string& path) {
  char error[1000] = "";
  MujocoModel model(mj_loadXML(path.c_str(), nullptr, error, sizeof(error)));
  INFO(path << ": " << error);
  REQUIRE(model != nullptr);
  return model;
}

MjcfPeer PrepareMjcfPeer(const std::string& folder, const std::string& file) {
  const std::string source = std::string(SWARM_SHARED_MJCF_DIR) + "/" + folder;
  const std::string copies = std::string(SWARM_MUJOCO_SCENE_DIR) + "/mjcf/" + folder;
  for (const std::string& edit : bench::WriteMujoco222Copies(source, copies, JointRange)) {
    UNSCOPED_INFO(edit);
  }
  Result<MjcfRobot> robot = LoadMjcfFile(source + "/" + file);
  if (!robot.ok()) FAIL(robot.status().message());
  return {std::move(robot).value(), LoadMujoco(copies + "/" + file)};
}

DofMap MapDofs(const MjcfRobot& robot, const mjModel* m) {
  DofMap map{std::vector<int>(m->nv, -1), std::vector<double>(m->nv, 0.0)};
  const RobotModel& model = robot.model;
  const int base = model.floating_base ? 6 : 0;
  for (int j = 0; j < m->njnt; ++j) {
    const int dof = m->jnt_dofadr[j];
    if (m->jnt_type[j] == mjJNT_FREE) {
      for (int k = 0; k < 6; ++k) map.column[dof + k] = k, map.factor[dof + k] = 1.0;
      continue;
    }
    const char* name = mj_id2name(m, mjOBJ_JOINT, j);
    for (const RobotJoint& joint : model.joints) {
      if (joint.name != name) continue;
      map.column[dof] = base + joint.q_index;
      map.factor[dof] = joint.is_mimic ? joint.mimic_multiplier : 1.0;
    }
    REQUIRE(map.column[dof] >= 0);
  }
  return map;
}

void SetQpos(const MjcfRobot& robot, const mjModel* m, const std::vector<double>& q, double* qpos) {
  const RobotModel& model = robot.model;
  const size_t base = model.floating_base ? kFloatingBaseArrays : 0;
  for (int j = 0; j < m->njnt; ++j) {
    const int address = m->jnt_qposadr[j];
    if (m->jnt_type[j] == mjJNT_FREE) {
      for (int k = 0; k < 7; ++k) qpos[address + k] = q[k];
      continue;
    }
    const char* name = mj_id2name(m, mjOBJ_JOINT, j);
    for (const RobotJoint& joint : model.joints) {
      if (joint.name != name) continue;
      const double value = q[base + static_cast<size_t>(joint.q_index)];
      qpos[address] = joint.is_mimic ? joint.mimic_multiplier * value + joint.mimic_offset : value;
    }
  }
}

}  // namespace swarm::test
