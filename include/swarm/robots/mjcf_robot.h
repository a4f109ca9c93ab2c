// A robot from an MJCF (MuJoCo XML) file, such as the models of the MuJoCo Menagerie: the body
// tree becomes swarm's robot model (robot_model.h), with what MuJoCo adds to a URDF robot kept
// beside it (armature, actuators, keyframes, the option's time step and gravity, the joint
// limits' soft constraint).
//
// How MuJoCo's model maps onto swarm's (MuJoCo's XML reference and "Computation" chapter):
// - Each body is a link of the same name (unnamed bodies are "body<N>", N MuJoCo's body index).
//   A body with no joint is welded to its parent (a fixed joint at the body's pos and
//   orientation); with one hinge or slide joint, that joint moves it (revolute when limited,
//   continuous otherwise; prismatic); with several, each joint after the first turns a massless
//   link "<body>/<joint>" in order, as MuJoCo applies a body's joints in order, each about its axis
//   through its anchor (joint pos) in the frame the joints before it left. A joint's ref is the
//   value at which the body sits as the file places it (swarm's joint frame is turned by -ref).
// - A free joint on a child of the world body makes the robot floating-base: q starts with
//   x y z qw qx qy qz as MuJoCo's qpos; velocities are swarm's body-frame base velocity (MuJoCo's
//   free joint has the linear part in the world frame: keyframes are converted).
//   A robot whose root is welded to the world gets a root link "world" and a fixed joint to it.
// - Joint damping and frictionloss become RobotJoint::damping and friction (swarm's friction is
//   smoothed Coulomb friction, MuJoCo's a constraint: equal when sliding), armature a dynamics
//   option (MjcfTorqueConfig), range the position limits, whose solreflimit and solimplimit must
//   be one for all joints (swarm's joint limits share one soft constraint).
// - A joint equality with a linear polycoef (q1 = c0 + c1 q2 around the refs, c1 != 0) makes
//   joint2 a mimic of joint1 (q2 = (q1 - c0) / c1 around the refs): exact where MuJoCo's is a
//   stiff soft constraint, and one degree of freedom fewer than MuJoCo's model (joint2's armature
//   joins joint1's, times (1 / c1)^2; its limits give way to joint1's).
// - The effort limit of a joint is its actuatorfrcrange (symmetric: swarm's limits are), else
//   the sum of its actuators' forceranges times their gears (the larger magnitude of each range).
// - The robot is the one tree of bodies below the world that has joints. Bodies without joints
//   below the world (static geometry, mocap bodies) are not part of it; another tree with joints
//   (a second robot, or a free object such as a cube) is an error, as objects are not simulated
//   yet. Geoms give bodies without an <inertial> their inertia; the geoms that collide become
//   collision shapes (collision_shape.h: a colliding mesh or heightfield is an error, since swarm
//   reads neither yet); the step does not use them yet.
// The file itself is read as MuJoCo reads it, with the untrusted-file limits of URDF; what would
// change the physics and is not supported is an error naming the element, attribute, file and
// line (engine/robots/mjcf_schema.h lists what is read and what is ignored as purely visual).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "swarm/core/status.h"
#include "swarm/robots/collision_shape.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"

namespace swarm {

// An actuator (MuJoCo's general actuator with fixed gain, affine bias and no dynamics) on an
// independent joint: force = gain ctrl + bias[0] + bias[1] gear q + bias[2] gear qd, clamped to
// force_range when force_limited, and torque gear force on the joint. ctrl is clamped to
// ctrl_range when ctrl_limited.
struct MjcfRobotActuator {
  std::string name;
  size_t dof = 0;  // the joint it drives: index in q order after a floating base (dof_joints)
  double gear = 1.0;
  double gain = 1.0;
  std::array<double, 3> bias{0, 0, 0};
  bool ctrl_limited = false;
  std::array<double, 2> ctrl_range{0, 0};
  bool force_limited = false;
  std::array<double, 2> force_range{0, 0};
};

// A keyframe in swarm's order: q (q_count values), velocities (velocity_count: a floating base's
// in its body frame) and ctrl (one per actuator); MuJoCo's defaults where the key gives none (the
// file's pose, rest, zero).
struct MjcfRobotKeyframe {
  std::string name;
  std::vector<double> q, velocities, ctrl;
};

struct MjcfRobot {
  RobotModel model;
  std::vector<double> armature;  // per independent joint, q order
  std::vector<MjcfRobotActuator> actuators;
  std::vector<MjcfRobotKeyframe> keyframes;
  // The configuration the file draws the robot in (MuJoCo's qpos0: refs, the free body's pose).
  std::vector<double> q0;
  double timestep = 0.002;  // <option timestep>, s
  std::array<double, 3> gravity{0, 0, -9.81};
  // The joint limits' soft constraint (solreflimit, solimplimit) and whether limits act (option
  // flag limit).
  std::array<double, 2> limit_solref{0.02, 1};
  std::array<double, 5> limit_solimp{0.9, 0.95, 0.001, 0.5, 2};
  bool limits_enabled = true;
  // Whether contacts act at all (option flag contact) and whether a body's shapes skip its
  // parent's (option flag filterparent).
  bool contacts_enabled = true;
  bool filter_parent = true;
  // The friction cone (option cone: pyramidal, MuJoCo's default, or elliptic) and impratio.
  bool pyramidal_cone = true;
  double impratio = 1.0;
  // Per link: the MuJoCo body it stands for (MuJoCo's body index: 0 for a fixed base's "world"),
  // or -1 for the massless links of a body's extra joints.
  std::vector<int> link_body;
  // The geoms that collide (contype or conaffinity nonzero, or named by a <pair>), in the file's
  // order: the robot's on their links, the world's and those of bodies outside the robot (static
  // and mocap bodies, where the file puts them) fixed in the world; and the file's <pair>s and
  // <exclude>s in their terms (swarm/robots/collision_shape.h).
  std::vector<CollisionShape> collision_shapes;
  std::vector<int> shape_body;  // per shape: its MuJoCo body
  std::vector<int> shape_geom;  // per shape: its MuJoCo geom (MuJoCo's numbering)
  std::vector<CollisionPair> collision_pairs;
  std::vector<CollisionExclude> collision_excludes;
  std::vector<std::string> files;  // the main file and its includes
};

inline constexpr size_t kMjcfDefaultMaxBytes = size_t{16} << 20;

struct MjcfOptions {
  size_t max_bytes = kMjcfDefaultMaxBytes;  // all files of the model together
};

// Reads a model file and its includes (paths relative to its folder). Errors name the file,
// line, element and attribute (see above).
Result<MjcfRobot> LoadMjcfFile(const std::string& path, const MjcfOptions& options = {});
// The same from text; `path` names it in messages and its folder holds the includes.
Result<MjcfRobot> LoadMjcfString(std::string_view xml, const std::string& path,
                                 const MjcfOptions& options = {});

// A batch configuration that simulates the robot as the file says: torque mode on, its armature,
// gravity and joint limits' soft constraint (solimp clamped into (0, 1) as MuJoCo clamps it), the
// joints' effort limits (no position limits under <flag limit="disable">), and its actuators
// (TorqueController::kActuators with one ctrl() array each; their velocity terms (kv) integrated
// implicitly, stable at any kv and time step, as MuJoCo's implicit integrators do).
RobotBatchConfig MjcfTorqueConfig(const MjcfRobot& robot);

// MjcfTorqueConfig with the robot's contacts: its collision model (MjcfCollisionModel,
// swarm/robots/robot_collisions.h) and the pairs of its shapes with the world's acting in the
// torque step (TorqueModeConfig::world_contacts), unless the file turns contacts off.
Result<RobotBatchConfig> MjcfContactConfig(const MjcfRobot& robot);

}  // namespace swarm
