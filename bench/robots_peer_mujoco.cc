// The MuJoCo peer (bench/robots_peer_mujoco.h) over libmujoco 2.2.2's C API.
#include "bench/robots_peer_mujoco.h"

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

namespace swarm::bench {

struct MujocoKinematics::Handles {
  mjModel* model = nullptr;
  std::vector<mjData*> data;

  ~Handles() {
    for (mjData* d : data) mj_deleteData(d);
    if (model != nullptr) mj_deleteModel(model);
  }
};

namespace {

// The URDF text with a MuJoCo compiler element that bounds every body's mass and inertia from
// below. Kinematic URDFs (swarm's assets) carry no <inertial>, and MuJoCo's compiler refuses a
// moving body without mass ("mass and inertia of moving bodies must be larger than mjMINVAL");
// mj_kinematics never reads masses, so the bound changes nothing it computes. A file that already
// has a <mujoco> element is left as its author configured it.
Result<std::string> WithMassBound(const std::string& urdf_path) {
  std::ifstream file(urdf_path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  if (!file) return InvalidArgument("cannot read '" + urdf_path + "'");
  std::string urdf = text.str();
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

Result<std::unique_ptr<MujocoKinematics>> MujocoKinematics::Load(
    const std::string& urdf_path, const std::vector<std::string>& q_names, size_t workers) {
  std::unique_ptr<MujocoKinematics> peer(new MujocoKinematics());
  peer->handles_ = std::make_unique<Handles>();
  Result<std::string> text = WithMassBound(urdf_path);
  if (!text.ok()) return text.status();
  // mj_loadXML reads files only: the edited text goes through MuJoCo's virtual file system.
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const std::string file_name = "robot.urdf";
  if (mj_makeEmptyFileVFS(vfs.get(), file_name.c_str(), static_cast<int>(text->size())) != 0) {
    return InvalidArgument("MuJoCo's virtual file system refused '" + urdf_path + "'");
  }
  std::memcpy(vfs->filedata[vfs->nfile - 1], text->data(), text->size());
  char error[1024] = "";
  mjModel* model = mj_loadXML(file_name.c_str(), vfs.get(), error, sizeof(error));
  mj_deleteFileVFS(vfs.get(), file_name.c_str());
  if (model == nullptr) {
    return InvalidArgument("MuJoCo " + Version() + " cannot load '" + urdf_path + "': " + error);
  }
  peer->handles_->model = model;
  if (static_cast<size_t>(model->nq) != q_names.size()) {
    return InvalidArgument("MuJoCo reads " + std::to_string(model->nq) + " qpos values from '" +
                           urdf_path + "', swarm's model has " + std::to_string(q_names.size()) +
                           " q values");
  }
  peer->q_count_ = q_names.size();
  peer->qpos_of_q_.assign(q_names.size(), 0);
  std::vector<bool> mapped(q_names.size(), false);
  for (int joint = 0; joint < model->njnt; ++joint) {
    const char* name = mj_id2name(model, mjOBJ_JOINT, joint);
    const std::string joint_name = name != nullptr ? name : "";
    if (model->jnt_type[joint] != mjJNT_HINGE && model->jnt_type[joint] != mjJNT_SLIDE) {
      return InvalidArgument("MuJoCo joint '" + joint_name + "' of '" + urdf_path +
                             "' is neither hinge nor slide");
    }
    const auto column = std::find(q_names.begin(), q_names.end(), joint_name);
    if (column == q_names.end()) {
      return InvalidArgument("MuJoCo joint '" + joint_name + "' of '" + urdf_path +
                             "' is not among swarm's q names");
    }
    const size_t index = static_cast<size_t>(column - q_names.begin());
    peer->qpos_of_q_[index] = static_cast<size_t>(model->jnt_qposadr[joint]);
    mapped[index] = true;
  }
  for (size_t index = 0; index < q_names.size(); ++index) {
    if (!mapped[index]) {
      return InvalidArgument("swarm's q value '" + q_names[index] + "' has no MuJoCo joint in '" +
                             urdf_path + "'");
    }
  }
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

std::string MujocoKinematics::Version() { return mj_versionString(); }

}  // namespace swarm::bench
