// RobotModel queries and the conversions from a loaded model to what the kernels read: the float
// kinematic tree, default joint controllers and the JSON summary. Loading is urdf_loader.cc.
#include "swarm/robots/robot_model.h"

#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>

namespace swarm {

const char* RobotJointTypeName(RobotJointType type) {
  switch (type) {
    case RobotJointType::kFixed:
      return "fixed";
    case RobotJointType::kRevolute:
      return "revolute";
    case RobotJointType::kContinuous:
      return "continuous";
    case RobotJointType::kPrismatic:
      return "prismatic";
  }
  return "unknown";
}

namespace {

constexpr const char* kBaseQNames[] = {"base_x",  "base_y",  "base_z", "base_qw",
                                       "base_qx", "base_qy", "base_qz"};
constexpr const char* kBaseVelocityNames[] = {"base_vx", "base_vy", "base_vz",
                                              "base_wx", "base_wy", "base_wz"};

}  // namespace

bool IsFloatingBaseCoordinateName(std::string_view name) {
  for (const char* base : kBaseQNames) {
    if (name == base) return true;
  }
  for (const char* base : kBaseVelocityNames) {
    if (name == base) return true;
  }
  return false;
}

std::vector<std::string> RobotModel::QNames() const {
  std::vector<std::string> names;
  names.reserve(q_count());
  if (floating_base) names.insert(names.end(), std::begin(kBaseQNames), std::end(kBaseQNames));
  for (size_t joint : dof_joints) names.push_back(joints[joint].name);
  return names;
}

std::vector<std::string> RobotModel::VelocityNames() const {
  std::vector<std::string> names;
  names.reserve(velocity_count());
  if (floating_base) {
    names.insert(names.end(), std::begin(kBaseVelocityNames), std::end(kBaseVelocityNames));
  }
  for (size_t joint : dof_joints) names.push_back(joints[joint].name);
  return names;
}

Result<size_t> RobotModel::FindLink(std::string_view link_name) const {
  for (size_t i = 0; i < links.size(); ++i) {
    if (links[i] == link_name) return i;
  }
  std::string known;
  for (const std::string& link : links) known += (known.empty() ? "" : ", ") + link;
  return InvalidArgument("robot '" + name + "' has no link named '" + std::string(link_name) +
                         "' (its links: " + known + ")");
}

std::vector<size_t> RobotModel::LeafLinks() const {
  std::vector<bool> has_child(links.size(), false);
  for (const RobotJoint& joint : joints) has_child[joint.parent_link] = true;
  std::vector<size_t> leaves;
  for (size_t l = 0; l < links.size(); ++l) {
    if (!has_child[l]) leaves.push_back(l);
  }
  return leaves;
}

size_t RobotModel::DefaultEndEffector() const {
  // Pose order puts every parent before its children, so one forward pass gives each link's
  // depth (joints from the root). The first deepest link wins ties, which with depth-first pose
  // order is the end of the first-declared longest branch.
  std::vector<size_t> depth(links.size(), 0);
  size_t deepest = 0;
  for (size_t i = 0; i < joints.size(); ++i) {
    const size_t child = i + 1;
    depth[child] = depth[joints[i].parent_link] + 1;
    if (depth[child] > depth[deepest]) deepest = child;
  }
  return deepest;
}

KinematicTree BuildKinematicTree(const RobotModel& model, std::vector<KinematicJoint>& joints) {
  joints.assign(model.joints.size(), KinematicJoint{});
  for (size_t i = 0; i < model.joints.size(); ++i) {
    const RobotJoint& source = model.joints[i];
    KinematicJoint& joint = joints[i];
    joint.parent_link = static_cast<uint32_t>(source.parent_link);
    switch (source.type) {
      case RobotJointType::kFixed:
        joint.motion = JointMotion::kFixed;
        break;
      case RobotJointType::kRevolute:
      case RobotJointType::kContinuous:
        joint.motion = JointMotion::kRevolute;
        break;
      case RobotJointType::kPrismatic:
        joint.motion = JointMotion::kPrismatic;
        break;
    }
    joint.q_index = joint.motion == JointMotion::kFixed ? -1 : source.q_index;
    joint.multiplier = static_cast<float>(source.mimic_multiplier);
    joint.offset = static_cast<float>(source.mimic_offset);
    for (int k = 0; k < 4; ++k)
      joint.origin_rotation[k] = static_cast<float>(source.origin_quat[k]);
    for (int k = 0; k < 3; ++k) {
      joint.origin_translation[k] = static_cast<float>(source.origin_xyz[k]);
      joint.axis[k] = static_cast<float>(source.axis[k]);
    }
  }
  KinematicTree tree;
  tree.joints = joints.data();
  tree.joint_count = joints.size();
  tree.q_count = model.q_count();
  tree.floating_base = model.floating_base;
  return tree;
}

// Default gains for the decoupled unit-inertia joint model of swarm/kernels/robots/robot_control.h
// (inverse_inertia = 1): kp = 400, kd = 40 = 2 sqrt(kp) make each joint a critically damped
// second-order system with natural frequency sqrt(kp) = 20 rad/s, so a step settles to 2% in
// about 5.8 / 20 = 0.3 s without overshoot, and stays stable under semi-implicit Euler for
// dt well beyond the 2 ms a control loop uses (the stability limit is about 2 / 20 = 0.1 s).
// The URDF's effort limit still caps the torque, so large errors saturate into a bounded slew.
std::vector<JointControl> DefaultJointControl(const RobotModel& model) {
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  std::vector<JointControl> controls;
  controls.reserve(model.dof());
  for (size_t index : model.dof_joints) {
    const RobotJoint& joint = model.joints[index];
    JointControl control;
    control.kp = 400.0f;
    control.kd = 40.0f;
    control.inverse_inertia = 1.0f;
    control.effort_limit =
        joint.effort_limit > 0.0 ? static_cast<float>(joint.effort_limit) : kInfinity;
    control.velocity_limit =
        joint.velocity_limit > 0.0 ? static_cast<float>(joint.velocity_limit) : kInfinity;
    control.lower = joint.has_position_limits ? static_cast<float>(joint.lower) : -kInfinity;
    control.upper = joint.has_position_limits ? static_cast<float>(joint.upper) : kInfinity;
    controls.push_back(control);
  }
  return controls;
}

namespace {

// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped; other
// bytes (UTF-8 included) pass through unchanged.
std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string JsonStringArray(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : ", ") + JsonString(items[i]);
  return out + "]";
}

}  // namespace

std::string RobotModelJson(const RobotModel& model) {
  return "{\"name\": " + JsonString(model.name) +
         ", \"joints\": " + JsonStringArray(model.QNames()) +
         ", \"links\": " + JsonStringArray(model.links) +
         ", \"dof\": " + std::to_string(model.dof()) +
         ", \"floating_base\": " + (model.floating_base ? "true" : "false") + "}";
}

}  // namespace swarm
