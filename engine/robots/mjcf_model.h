// An MJCF model as MuJoCo compiles it, before it becomes a swarm robot
// (swarm/robots/mjcf_robot.h): the body tree with its joints, inertials, geoms and sites, the
// option, contact pairs and excludes, joint equalities, actuators and keyframes, all in SI units
// and in the frames MuJoCo's compiled model (mjModel) uses. Reading checks the schema first
// (mjcf_schema.h: what would change the physics and is not read is refused), then each element
// (mjcf_joint.h, mjcf_inertial.h, mjcf_geom.h) and the references between them (names of bodies,
// joints and geoms).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/robots/mjcf_document.h"
#include "engine/robots/mjcf_frame.h"
#include "engine/robots/mjcf_geom.h"
#include "engine/robots/mjcf_joint.h"
#include "swarm/core/status.h"
#include "swarm/robots/robot_model.h"

namespace swarm {

struct MjcfBody {
  std::string name;
  int32_t parent = -1;  // index into MjcfModel::bodies; -1 for the world body (bodies[0])
  MjcfPose pose;        // in the parent's frame
  bool mocap = false;
  // From <inertial>, else from the geoms (MuJoCo's inertiafromgeom "auto"), else none (mass 0).
  LinkInertial inertial;
  bool inertia_from_geoms = false;
  std::vector<uint32_t> joints, geoms, sites;  // indices into MjcfModel's arrays, in order
  uint32_t element = 0;
};

struct MjcfSite {
  std::string name;
  uint32_t body = 0;
  MjcfPose pose;  // in the body frame
};

// A joint equality: joint2's value follows polycoef as MuJoCo's (q1 - q1ref) = poly(q2 - q2ref);
// without joint2, joint1 is held at polycoef[0] + its reference.
struct MjcfJointEquality {
  std::string name;
  uint32_t joint1 = 0;
  int32_t joint2 = -1;  // -1: none
  std::array<double, 5> polycoef{0, 1, 0, 0, 0};
  std::array<double, 2> solref{0.02, 1};
  std::array<double, 5> solimp{0.9, 0.95, 0.001, 0.5, 2};
  bool active = true;
  uint32_t element = 0;
};

// An actuator on a joint, as MuJoCo's general actuator with fixed gain and no dynamics:
// force = gain[0] ctrl + bias[0] + bias[1] length + bias[2] velocity (length = gear q, velocity =
// gear qd), clamped to forcerange when force_limited, and gear force on the joint. motor is
// gain 1 and no bias, position gain kp and bias 0 -kp -kv (MuJoCo's shortcuts).
struct MjcfActuator {
  std::string name;
  std::string tag;  // motor, position or general
  uint32_t joint = 0;
  double gear = 1;
  bool ctrl_limited = false;
  std::array<double, 2> ctrl_range{0, 0};
  bool force_limited = false;
  std::array<double, 2> force_range{0, 0};
  std::array<double, 3> gain{1, 0, 0};
  std::array<double, 3> bias{0, 0, 0};
  uint32_t element = 0;
};

// A contact pair: geom1 and geom2 touch with these parameters, whatever their contype and
// conaffinity (MuJoCo's pair defaults: condim 3, friction 1 1 0.005 0.0001 0.0001, the geom
// solref and solimp defaults, margin and gap 0).
struct MjcfPair {
  std::string name;
  uint32_t geom1 = 0, geom2 = 0;
  int condim = 3;
  std::array<double, 5> friction{1, 1, 0.005, 0.0001, 0.0001};
  std::array<double, 2> solref{0.02, 1};
  std::array<double, 5> solimp{0.9, 0.95, 0.001, 0.5, 2};
  double margin = 0, gap = 0;
  // Which the pair sets itself (it or its default class); the others come from its geoms, mixed
  // as MuJoCo's compiler mixes them (swarm/robots/contact_pairs.h, MixContactParameters).
  bool has_condim = false, has_friction = false, has_solref = false, has_solimp = false;
  bool has_margin = false, has_gap = false;
  uint32_t element = 0;
};

// A heightfield asset (XML reference, "hfield"): its grid from `elevation` (nrow x ncol numbers,
// row 0 at -y), from `file` (resolved against the main file's folder and the compiler's mesh
// folder) or, with neither, nrow x ncol zeros; size (radius_x, radius_y, elevation_z, base_z).
struct MjcfHeightfield {
  std::string name;
  uint32_t rows = 0, columns = 0;
  std::array<double, 4> size{0, 0, 0, 0};
  std::string file;  // as resolved, or ""
  std::vector<double> elevation;
  uint32_t element = 0;
};

struct MjcfExclude {
  uint32_t body1 = 0, body2 = 0;
};

// A keyframe; empty vectors where the key gives none (the model's defaults apply).
struct MjcfKeyframe {
  std::string name;
  double time = 0;
  std::vector<double> qpos, qvel, ctrl;
  uint32_t element = 0;
};

enum class MjcfIntegrator { kEuler, kRungeKutta4, kImplicit, kImplicitFast };

struct MjcfOption {
  double timestep = 0.002;
  std::array<double, 3> gravity{0, 0, -9.81};  // zero when <flag gravity="disable">
  MjcfIntegrator integrator = MjcfIntegrator::kEuler;
  bool contact_enabled = true;  // <flag contact="disable"> turns every contact off
  bool limits_enabled = true;   // <flag limit="disable"> turns every joint limit off
  // <flag filterparent="disable"> lets a body's shapes touch its parent's.
  bool filter_parent = true;
  // The friction cone (cone="pyramidal", MuJoCo's default, or "elliptic") and impratio (> 0).
  bool pyramidal_cone = true;
  double impratio = 1.0;
};

struct MjcfModel {
  std::string name;  // <mujoco model>, "MuJoCo Model" when absent (as MuJoCo)
  MjcfCompiler compiler;
  MjcfOption option;
  std::vector<MjcfBody> bodies;  // [0] the world; parents before their children (MuJoCo's order)
  std::vector<MjcfJoint> joints;
  std::vector<uint32_t> joint_body;  // per joint: its body
  std::vector<MjcfGeom> geoms;
  std::vector<uint32_t> geom_body;  // per geom: its body
  std::vector<MjcfHeightfield> heightfields;
  std::vector<int32_t> geom_heightfield;  // per geom: its heightfield, or -1
  std::vector<MjcfSite> sites;
  std::vector<MjcfJointEquality> equalities;
  std::vector<MjcfActuator> actuators;
  std::vector<MjcfPair> pairs;
  std::vector<MjcfExclude> excludes;
  std::vector<MjcfKeyframe> keyframes;
  // MuJoCo's counts: positions (7 per free joint, 4 per ball, 1 per hinge or slide) and
  // velocities (6, 3, 1).
  size_t qpos_count = 0, qvel_count = 0;
};

// Reads the model. Errors name the element (and attribute), file and line: the schema's
// (mjcf_schema.h), every element reader's, unknown or unsupported option values (integrator, the
// flags swarm honours: gravity, contact and limit; others only at their defaults; wind, density
// and viscosity other than 0), a free joint not directly under the world body or with other
// joints in its body, a ball joint (not supported yet), names used twice, references to missing
// bodies, joints or geoms, a body without mass from a geom it needs (a mesh geom's volume needs
// the mesh file, which swarm does not read), an actuator without a joint, with kp or kv < 0, a
// gaintype other than fixed, a biastype other than none or affine, a dyntype other than none,
// ctrl or force ranges with lower > upper, keyframes whose qpos, qvel or ctrl has the wrong
// length, a heightfield with a size not > 0, nrow or ncol not an integer from 2 (or 0 with a
// file), elevation of another length than nrow x ncol, both a file and nrow/ncol (as MuJoCo),
// and an hfield geom naming no heightfield of the model.
Result<MjcfModel> ReadMjcfModel(const MjcfDocument& document);

}  // namespace swarm
