// A URDF robot as a MuJoCo 2.2.2 scene that simulates what a torque-controlled RobotBatch
// simulates (swarm/robots/robot_batch.h, TorqueModeConfig), for the benchmark rows of
// bench/torque_bench.cc and the comparison tests (tests/support/mujoco_peer.h): the same inertials,
// armature, joint damping, joint limits with the same solref and solimp, gravity, time step, the
// Euler integrator, and for a floating robot a free joint, a ground plane and one sphere per
// contact link, with the contacts' friction, solref and solimp.
//
// How the MJCF is made (bench/mujoco_scene.cc): MuJoCo reads the URDF itself (mj_loadXML; its
// <visual> and <collision> elements dropped, as bench/mujoco_model.h does), with a floating joint
// from a "world" link to the root added to the URDF text for a floating robot (MuJoCo's URDF
// reader makes it a free joint and keeps the root's <inertial>, which it would otherwise fuse into
// the world); mj_saveLastXML writes that model as MJCF, and the text is edited (attributes of
// MuJoCo 2.2.2 only) and loaded again. MuJoCo fuses links attached by fixed joints into their
// parent body, so a contact link's sphere goes into the body that carries it, at the link origin's
// position in that body's frame: MuJoCo's own forward kinematics of the URDF loaded unfused
// (compiler fusestatic="false") gives it.
//
// Compiled only when CMake finds libmujoco-dev. The header names MuJoCo's model by its struct
// tag only, so that programs built either way can include it (bench/torque_bench.cc).
#pragma once

#include <string>
#include <vector>

#include "swarm/core/status.h"
#include "swarm/kernels/robots/soft_constraint.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"

struct mjModel_;  // MuJoCo's mjModel (mujoco/mjmodel.h)

namespace swarm::bench {

struct MujocoSceneOptions {
  double timestep = 0.001;                 // s (option timestep)
  double gravity[3] = {0.0, 0.0, -9.81};   // m/s^2 (option gravity)
  std::vector<double> armature;            // per joint column (joint_names order), empty: none
  std::vector<double> damping;             // per joint column, empty: the URDF's
  SoftConstraint limits;                   // every joint limit's solref and solimp
  bool floating_base = false;              // a free joint on the URDF's root link
  std::vector<std::string> contact_links;  // one sphere each (floating robots)
  double contact_radius = 0.0;             // m
  double ground_height = 0.0;              // the plane z = ground_height
  double friction = 0.8;                   // mu of the sliding friction (condim 3)
  SoftConstraint contact;                  // the contacts' solref and solimp
  // mj_saveLastXML writes a file: the folder for it (the build folder), where the edited MJCF is
  // written too, as <name>.xml, so that it can be opened in MuJoCo's own tools. Empty: the
  // system's temporary folder for mj_saveLastXML's file (removed after) and no MJCF file.
  std::string folder;
  std::string name = "scene";
};

struct MujocoScene {
  mjModel_* model = nullptr;       // owned by the caller (mj_deleteModel)
  std::vector<int> qpos_of_joint;  // qpos address of each joint column
  std::vector<int> dof_of_joint;   // dof (qvel, qfrc) address of each joint column
  int free_qpos = -1;              // the free joint's qpos (x y z qw qx qy qz) and dof addresses
  int free_dof = -1;               // (vx vy vz in the world, wx wy wz in the body), or -1
  std::vector<int> contact_geoms;  // the sphere of each contact link
  int ground_geom = -1;
  std::string mjcf;       // the MJCF text loaded
  std::string mjcf_path;  // where it was written (empty: not written)
};

// The options that mirror `batch`'s torque mode (TorqueModeConfig: armature, the limits' solref
// and solimp, gravity, the contact links, radius, ground height, friction, solref and solimp) at
// time step dt; the MJCF is written to `folder` as <name>.xml.
MujocoSceneOptions SceneOptionsOf(const RobotBatch& batch, double dt, const std::string& folder,
                                  const std::string& name);
// The names of `model`'s joint columns in q order (after a floating base's 7 values).
std::vector<std::string> JointColumnNames(const RobotModel& model);

// `joint_names`: swarm's joint columns (RobotModel::QNames() after a floating base's 7). Errors:
// unreadable URDF, MuJoCo's load errors, a MuJoCo joint that is not among the columns or a column
// without one, a contact link MuJoCo does not know or that is fixed to the world.
Result<MujocoScene> BuildMujocoScene(const std::string& urdf_path,
                                     const std::vector<std::string>& joint_names,
                                     const MujocoSceneOptions& options);

}  // namespace swarm::bench
