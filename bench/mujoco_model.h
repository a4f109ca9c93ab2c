// Loading a URDF into MuJoCo 2.2.2 for the robot benchmarks' peers (robots_peer_mujoco.h,
// dynamics_peer_mujoco.h), and the map from swarm's q columns to MuJoCo's joints. Compiled only
// when CMake finds libmujoco-dev; includes MuJoCo's header, so only the peers' .cc files include
// this.
#pragma once

#include <mujoco/mujoco.h>

#include <cstddef>
#include <string>
#include <vector>

#include "swarm/core/status.h"

namespace swarm::bench {

struct MujocoUrdf {
  mjModel* model = nullptr;       // owned by the caller (mj_deleteModel)
  std::vector<size_t> qpos_of_q;  // qpos address of each swarm q column
  std::vector<size_t> dof_of_q;   // dof (qvel, qfrc) address of each swarm q column
};

// Loads `urdf_path` with mj_loadXML through MuJoCo's virtual file system. With `for_dynamics`
// the file's <visual> and <collision> elements are dropped (MuJoCo would load their meshes, and
// the dynamics use the URDF's <inertial> elements only); otherwise a compiler element bounding
// masses from below lets kinematic URDFs without <inertial> load (mj_kinematics reads no mass).
// Every MuJoCo joint must be a hinge or slide named like one of `q_names` and every q name must
// have one, or an error names the first that does not.
Result<MujocoUrdf> LoadMujocoUrdf(const std::string& urdf_path,
                                  const std::vector<std::string>& q_names, bool for_dynamics);

std::string MujocoVersion();

// The pieces of LoadMujocoUrdf, for the scenes of bench/mujoco_scene.h: a file's text, the URDF
// text without <visual> and <collision> elements, and mj_loadXML of XML text (URDF or MJCF) through
// MuJoCo's virtual file system (`what` names the source in errors).
Result<std::string> ReadTextFile(const std::string& path);
std::string WithoutUrdfGeometry(const std::string& urdf);
Result<mjModel*> LoadMujocoXmlText(const std::string& text, const std::string& what);

}  // namespace swarm::bench
