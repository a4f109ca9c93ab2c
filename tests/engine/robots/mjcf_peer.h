// What the MJCF tests against MuJoCo 2.2.2 share: MuJoCo's model of a file (the 2.2.2-compatible
// copies of ../shared/mjcf, bench/mjcf_compat.h, written to the build folder) beside
// swarm's robot of the original, and the maps between their coordinates: MuJoCo's qpos of swarm's
// q, and per MuJoCo dof the swarm velocity column it follows (a follower joint's through its
// multiplier).
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <string>
#include <vector>

#include "swarm/robots/mjcf_robot.h"

namespace swarm::test {

struct MujocoModelDeleter {
  void operator()(mjModel* model) const { mj_deleteModel(model); }
};
struct MujocoDataDeleter {
  void operator()(mjData* data) const { mj_deleteData(data); }
};
using MujocoModel = std::unique_ptr<mjModel, MujocoModelDeleter>;
using MujocoData = std::unique_ptr<mjData, MujocoDataDeleter>;

// mj_loadXML, failing the test with MuJoCo's message.
MujocoModel LoadMujoco(const std::string& path);

struct MjcfPeer {
  MjcfRobot robot;
  MujocoModel mujoco;
};
// swarm's robot of ../shared/mjcf/<folder>/<file> and MuJoCo's model of its compatible copy.
MjcfPeer PrepareMjcfPeer(const std::string& folder, const std::string& file);

// Per MuJoCo dof: the swarm velocity column it follows and the factor (T's nonzero).
struct DofMap {
  std::vector<int> column;
  std::vector<double> factor;
};
DofMap MapDofs(const MjcfRobot& robot, const mjModel* m);

// MuJoCo's qpos for swarm's q.
void SetQpos(const MjcfRobot& robot, const mjModel* m, const std::vector<double>& q, double* qpos);

}  // namespace swarm::test
