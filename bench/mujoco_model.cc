#include "bench/mujoco_model.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>

namespace swarm::bench {
namespace {

// The URDF text with a MuJoCo compiler element that bounds every body's mass and inertia from
// below. Kinematic URDFs carry no <inertial>, and MuJoCo's compiler refuses a moving body without
// mass ("mass and inertia of moving bodies must be larger than mjMINVAL"); mj_kinematics never
// reads masses, so the bound changes nothing it computes. A file that already has a <mujoco>
// element is left as its author configured it.
Result<std::string> WithMassBound(std::string urdf, const std::string& urdf_path) {
  if (urdf.find("<mujoco") != std::string::npos) return urdf;
  const size_t robot = urdf.find("<robot");
  const size_t robot_end = robot == std::string::npos ? robot : urdf.find('>', robot);
  if (robot_end == std::string::npos || urdf[robot_end - 1] == '/') {
    return InvalidArgument("'" + urdf_path + "' has no <robot> element with content");
  }
  urdf.insert(robot_end + 1,
              "<mujoco><compiler boundmass=\"1e-3\" boundinertia=\"1e-6\"/></mujoco>");
  return urdf;
}

}  // namespace

Result<std::string> ReadTextFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  if (!file) return InvalidArgument("cannot read '" + path + "'");
  return text.str();
}

// Their meshes are files MuJoCo would try to read; with no geoms MuJoCo takes every body's inertia
// from its <inertial>.
std::string WithoutUrdfGeometry(const std::string& urdf) {
  static const std::regex element(
      R"(<(visual|collision)\b[\s\S]*?</\1\s*>|<(visual|collision)\b[^>]*/>)");
  return std::regex_replace(urdf, element, "");
}

Result<mjModel*> LoadMujocoXmlText(const std::string& text, const std::string& what) {
  // mj_loadXML reads files only: the text goes through MuJoCo's virtual file system.
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const std::string file_name = "model.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), file_name.c_str(), static_cast<int>(text.size())) != 0) {
    return InvalidArgument("MuJoCo's virtual file system refused " + what);
  }
  std::memcpy(vfs->filedata[vfs->nfile - 1], text.data(), text.size());
  char error[1024] = "";
  mjModel* model = mj_loadXML(file_name.c_str(), vfs.get(), error, sizeof(error));
  mj_deleteFileVFS(vfs.get(), file_name.c_str());
  if (model == nullptr) {
    return InvalidArgument("MuJoCo " + MujocoVersion() + " cannot load " + what + ": " + error);
  }
  return model;
}

Result<MujocoUrdf> LoadMujocoUrdf(const std::string& urdf_path,
                                  const std::vector<std::string>& q_names, bool for_dynamics) {
  Result<std::string> read = ReadTextFile(urdf_path);
  if (!read.ok()) return read.status();
  Result<std::string> text = for_dynamics ? Result<std::string>(WithoutUrdfGeometry(read.value()))
                                          : WithMassBound(read.value(), urdf_path);
  if (!text.ok()) return text.status();
  Result<mjModel*> loaded = LoadMujocoXmlText(*text, "'" + urdf_path + "'");
  if (!loaded.ok()) return loaded.status();
  mjModel* model = *loaded;
  MujocoUrdf out;
  out.model = model;
  const auto fail = [&](const std::string& message) -> Result<MujocoUrdf> {
    mj_deleteModel(model);
    return InvalidArgument(message);
  };
  if (static_cast<size_t>(model->nq) != q_names.size()) {
    return fail("MuJoCo reads " + std::to_string(model->nq) + " qpos values from '" + urdf_path +
                "', swarm's model has " + std::to_string(q_names.size()) + " q values");
  }
  out.qpos_of_q.assign(q_names.size(), 0);
  out.dof_of_q.assign(q_names.size(), 0);
  std::vector<bool> mapped(q_names.size(), false);
  for (int joint = 0; joint < model->njnt; ++joint) {
    const char* name = mj_id2name(model, mjOBJ_JOINT, joint);
    const std::string joint_name = name != nullptr ? name : "";
    if (model->jnt_type[joint] != mjJNT_HINGE && model->jnt_type[joint] != mjJNT_SLIDE) {
      return fail("MuJoCo joint '" + joint_name + "' of '" + urdf_path +
                  "' is neither hinge nor slide");
    }
    const auto column = std::find(q_names.begin(), q_names.end(), joint_name);
    if (column == q_names.end()) {
      return fail("MuJoCo joint '" + joint_name + "' of '" + urdf_path +
                  "' is not among swarm's q names");
    }
    const size_t index = static_cast<size_t>(column - q_names.begin());
    out.qpos_of_q[index] = static_cast<size_t>(model->jnt_qposadr[joint]);
    out.dof_of_q[index] = static_cast<size_t>(model->jnt_dofadr[joint]);
    mapped[index] = true;
  }
  for (size_t index = 0; index < q_names.size(); ++index) {
    if (!mapped[index]) {
      return fail("swarm's q value '" + q_names[index] + "' has no MuJoCo joint in '" + urdf_path +
                  "'");
    }
  }
  return out;
}

std::string MujocoVersion() { return mj_versionString(); }

}  // namespace swarm::bench
