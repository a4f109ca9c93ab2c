// A robot model: the kinematic tree of a URDF robot, validated, in the numbering the batched
// kernels use (swarm/kernels/robots/robot_kinematics.h), with its joint limits and default
// controller gains.
//
// Loading goes through Debian's liburdfdom (the ROS parser) and then checks and normalises what
// real-world files get wrong (see LoadUrdf). Link inertials and joint dynamics are read as given
// (rigid_body_tree.h checks them when dynamics are asked for); mesh, visual and collision elements
// are ignored.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "swarm/core/status.h"
#include "swarm/kernels/robots/robot_control.h"
#include "swarm/kernels/robots/robot_kinematics.h"
#include "swarm/robots/collision_shape.h"

namespace swarm {

enum class RobotJointType { kFixed, kRevolute, kContinuous, kPrismatic };
const char* RobotJointTypeName(RobotJointType type);  // "fixed", "revolute", ...

// One URDF joint, in double precision as read (the float KinematicJoint is derived from it).
struct RobotJoint {
  std::string name;
  RobotJointType type = RobotJointType::kFixed;
  size_t parent_link = 0;                         // link indices in RobotModel::links (pose order)
  size_t child_link = 0;                          // = index of this joint in RobotModel::joints + 1
  std::array<double, 3> origin_xyz{};             // parent link frame -> joint frame
  std::array<double, 4> origin_quat{0, 0, 0, 1};  // x y z w, unit (urdfdom's stored rotation)
  std::array<double, 3> axis{1, 0, 0};            // unit (normalised on load)
  // Position limits; has_position_limits is false for continuous joints and for revolute joints
  // whose lower == upper (URDF files use 0, 0 for "no limit", treated as unlimited like MuJoCo).
  bool has_position_limits = false;
  double lower = 0.0, upper = 0.0;
  double velocity_limit = 0.0;  // 0 when the URDF gives none (then unlimited)
  double effort_limit = 0.0;    // 0 when the URDF gives none (then unlimited)
  // Index into q of the value driving this joint (after a floating base's 7 values): its own
  // column, or its master's for a mimic joint; -1 for fixed joints.
  int q_index = -1;
  bool is_mimic = false;
  double mimic_multiplier = 1.0, mimic_offset = 0.0;
  // <dynamics damping friction>: viscous damping (N m s/rad or N s/m) and Coulomb friction
  // (N m or N), 0 when absent.
  double damping = 0.0, friction = 0.0;
};

// One link's <inertial>, in double precision as read: the centre of mass and the inertia tensor
// about it, both in the link frame (the URDF's inertial origin rotation already applied).
struct LinkInertial {
  bool present = false;  // the link has an <inertial> element
  double mass = 0.0;     // kg
  std::array<double, 3> com{};
  // Symmetric 3 x 3, row-major: ixx ixy ixz / ixy iyy iyz / ixz iyz izz (kg m^2).
  std::array<double, 9> inertia{};
};

struct RobotModel {
  std::string name;
  std::vector<std::string> links;       // pose order: topological, root first
  std::vector<RobotJoint> joints;       // joints[i] has child link i + 1
  std::vector<LinkInertial> inertials;  // inertials[i] belongs to links[i]
  // The independent joints in q order (mimic joints excluded): indices into joints.
  std::vector<size_t> dof_joints;
  bool floating_base = false;
  // A URDF's <collision> boxes, spheres and cylinders on their links (UrdfOptions::collisions),
  // as MuJoCo's shapes (swarm/robots/collision_shape.h: half sizes; a URDF cylinder's length is
  // twice MuJoCo's half length), colliding with everything (contype = conaffinity = 1) with
  // MuJoCo's default contact parameters; names are the <collision>s'. An MJCF model's shapes are
  // MjcfRobot::collision_shapes instead.
  std::vector<CollisionShape> collision_shapes;

  size_t dof() const { return dof_joints.size(); }
  // Values per robot in q: 7 (x y z qw qx qy qz) for a floating base, then dof().
  size_t q_count() const { return dof() + (floating_base ? kFloatingBaseArrays : 0); }
  // Names in q order: "base_x".."base_qz" for a floating base, then the independent joints.
  std::vector<std::string> QNames() const;
  // Velocity-like values per robot (qd, qdd, tau of the dynamics): 6 for a floating base (its
  // body-frame velocity, swarm/kernels/robots/dynamics/robot_dynamics.h), then dof().
  size_t velocity_count() const { return dof() + (floating_base ? 6 : 0); }
  // Their names: "base_vx" "base_vy" "base_vz" "base_wx" "base_wy" "base_wz", then the joints.
  std::vector<std::string> VelocityNames() const;
  // Index of a link by name, or an error naming the link and listing what exists.
  Result<size_t> FindLink(std::string_view name) const;
  // The deepest link of the longest chain from the root (the end effector of an arm).
  size_t DefaultEndEffector() const;
  // The links no joint has as its parent (a legged robot's feet, an arm's tool), in link order.
  std::vector<size_t> LeafLinks() const;
};

// A name of the floating base's coordinates, "base_x".."base_qz" (q) or "base_vx".."base_wz"
// (velocities). A URDF whose independent joint has such a name is refused with a floating base
// (UrdfOptions::floating_base): its q and velocity names would list that name twice.
bool IsFloatingBaseCoordinateName(std::string_view name);

// Limits on URDF input, so a hostile or broken file fails fast with a message instead of
// crashing urdfdom's recursive parser, taking minutes or exhausting memory (urdf_xml_gate.h).
// Real robot descriptions are far inside them: the largest in ../shared/urdf is 27 KB, nests 5
// elements deep and has at most 6 attributes on an element.
inline constexpr size_t kUrdfMaxBytes = size_t{8} << 20;  // default of UrdfOptions::max_bytes
inline constexpr size_t kUrdfMaxDepth = 64;
inline constexpr size_t kUrdfMaxElements = 100'000;
inline constexpr size_t kUrdfMaxAttributesPerElement = 32;
inline constexpr size_t kUrdfMaxAttributes = 200'000;
// Lengths (origin offsets, prismatic limits) and angles (revolute limits) beyond this are refused:
// float positions summed along a chain of such offsets would overflow to inf.
inline constexpr double kUrdfMaxMagnitude = 1e9;

// What the URDF loader does with the links' <collision> elements.
enum class UrdfCollisions {
  kIgnore,      // not read: the model has no collision shapes (the default)
  kPrimitives,  // boxes, spheres and cylinders become collision_shapes; a mesh is an error
  kSkipMeshes,  // the same, and meshes are left out (the robot collides without them)
};

struct UrdfOptions {
  bool floating_base = false;        // the root link moves freely: 7 leading q values
  size_t max_bytes = kUrdfMaxBytes;  // longer text is refused (swarm-robots --max-urdf-bytes)
  UrdfCollisions collisions = UrdfCollisions::kIgnore;
};

// Parses URDF text or a file. Accepted and handled: joints declared before their links or in any
// order; a root link named "world"; fixed joints with <limit>; revolute joints with lower = upper
// (unlimited); negative or non-unit axes (normalised; a zero axis is an error); a joint and a link
// sharing a name; rpy with pitch at +-pi/2 (the rotation urdfdom stores is used, never a round
// trip through roll-pitch-yaw); <joint> elements inside <transmission> or <ros2_control> (not
// kinematic); CRLF line endings; mimic joints (chains of mimics resolve to the independent
// joint). Errors name the file (or "<string>"), the joint or link and the problem: malformed or
// truncated XML, missing parent or child link, cycles, several roots, unknown or unsupported joint
// types (floating, planar: "joint 'x' has type planar, which swarm does not support"), NaN or
// infinite numbers, numbers beyond float range (or kUrdfMaxMagnitude for lengths and limits),
// a mimic of a missing joint or a mimic cycle. Hostile text is refused before urdfdom parses it
// (the limits above; DOCTYPEs, processing instructions, malformed XML and invalid UTF-8), and a
// file is read only up to max_bytes (a directory, /dev/zero or an endless FIFO give an error).
Result<RobotModel> LoadUrdfString(std::string_view xml, const UrdfOptions& options = {},
                                  std::string_view source_name = "<string>");
Result<RobotModel> LoadUrdfFile(const std::string& path, const UrdfOptions& options = {});

// The float tree the kernels read; `joints` is filled with model.joints.size() entries and must
// outlive the returned tree.
KinematicTree BuildKinematicTree(const RobotModel& model, std::vector<KinematicJoint>& joints);

// Per independent joint (q order after a floating base): limits from the URDF (+-infinity where
// absent or unlimited) and default gains kp, kd, inverse_inertia (see the definition for values).
std::vector<JointControl> DefaultJointControl(const RobotModel& model);

// {"name": ..., "joints": [q names], "links": [link names], "dof": n, "floating_base": b} on one
// line, for `swarm-robots info --json`.
std::string RobotModelJson(const RobotModel& model);

}  // namespace swarm
