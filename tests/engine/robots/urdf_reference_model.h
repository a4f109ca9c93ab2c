// An independent reading of URDF for the robot-model tests: the XML is parsed with tinyxml2 (not
// urdfdom, which swarm's loader uses) and forward kinematics is computed in double precision
// straight from the URDF specification (http://wiki.ros.org/urdf/XML/joint):
//   child link = parent link * Trans(origin xyz) * Rz(yaw) Ry(pitch) Rx(roll) * motion(value),
//   motion = rotation by value about the normalised axis (revolute, continuous) or translation by
//   value along it (prismatic); a mimic joint's value = multiplier * master's value + offset.
// Only what the specification says is used: no link ordering, no quaternions from the parser.
#pragma once

#include <tinyxml2.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace swarm::test {

// The bytes of a file (CRLF kept); throws when it cannot be opened, so a missing test file fails
// the test that reads it.
inline std::string ReadFileText(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file.good()) throw std::runtime_error("cannot open " + path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

using Vector3d = std::array<double, 3>;
using Matrix3d = std::array<std::array<double, 3>, 3>;  // [row][column]

struct Transform {
  Matrix3d rotation{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  Vector3d translation{0, 0, 0};
};

inline Matrix3d Multiply(const Matrix3d& a, const Matrix3d& b) {
  Matrix3d c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[i][j] += a[i][k] * b[k][j];
  return c;
}

inline Vector3d Apply(const Matrix3d& a, const Vector3d& v) {
  Vector3d out{};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) out[i] += a[i][k] * v[k];
  return out;
}

inline Transform Compose(const Transform& a, const Transform& b) {
  Transform out;
  out.rotation = Multiply(a.rotation, b.rotation);
  const Vector3d moved = Apply(a.rotation, b.translation);
  for (int i = 0; i < 3; ++i) out.translation[i] = a.translation[i] + moved[i];
  return out;
}

inline Matrix3d RotationX(double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {{{1, 0, 0}, {0, c, -s}, {0, s, c}}};
}
inline Matrix3d RotationY(double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {{{c, 0, s}, {0, 1, 0}, {-s, 0, c}}};
}
inline Matrix3d RotationZ(double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}};
}

// Rotation by `angle` about the unit vector `axis` (Rodrigues' formula).
inline Matrix3d AxisAngle(const Vector3d& axis, double angle) {
  const double c = std::cos(angle), s = std::sin(angle), t = 1 - c;
  const double x = axis[0], y = axis[1], z = axis[2];
  return {{{t * x * x + c, t * x * y - s * z, t * x * z + s * y},
           {t * x * y + s * z, t * y * y + c, t * y * z - s * x},
           {t * x * z - s * y, t * y * z + s * x, t * z * z + c}}};
}

// The rotation of a quaternion (w, x, y, z), normalised first.
inline Matrix3d QuaternionMatrix(double w, double x, double y, double z) {
  const double norm = std::sqrt(w * w + x * x + y * y + z * z);
  w /= norm, x /= norm, y /= norm, z /= norm;
  return {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
           {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
           {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
}

// Angle in radians of the rotation a^T b (0 when a == b), well conditioned near 0.
inline double RotationAngleBetween(const Matrix3d& a, const Matrix3d& b) {
  Matrix3d at{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) at[i][j] = a[j][i];
  const Matrix3d e = Multiply(at, b);
  const double sx = e[2][1] - e[1][2], sy = e[0][2] - e[2][0], sz = e[1][0] - e[0][1];
  const double sine = 0.5 * std::sqrt(sx * sx + sy * sy + sz * sz);
  const double cosine = 0.5 * (e[0][0] + e[1][1] + e[2][2] - 1);
  return std::atan2(sine, cosine);
}

struct ReferenceJoint {
  std::string name, type, parent, child;
  Vector3d xyz{0, 0, 0}, rpy{0, 0, 0};
  Vector3d axis{1, 0, 0};  // as written (the URDF default when absent)
  bool has_limit = false;
  double lower = 0, upper = 0;
  std::string mimic;  // master joint name, empty if none
  double multiplier = 1, offset = 0;

  bool moves() const { return type == "revolute" || type == "continuous" || type == "prismatic"; }
};

// The real-world robot descriptions of ../shared/urdf (robots_model_test defines the folder).
inline const char* const kRealWorldUrdfFiles[] = {
    SWARM_SHARED_URDF_DIR "/ur5_robot.urdf",
    SWARM_SHARED_URDF_DIR "/panda.urdf",
    SWARM_SHARED_URDF_DIR "/xarm7.urdf",
    SWARM_SHARED_URDF_DIR "/z1.urdf",
    SWARM_SHARED_URDF_DIR "/so100.urdf",
    SWARM_SHARED_URDF_DIR "/solo12.urdf",
    SWARM_SHARED_URDF_DIR "/double_pendulum.urdf",
    SWARM_SHARED_URDF_DIR "/double_pendulum_continuous.urdf",
};

// A link's <inertial> as written: mass, origin and the six tensor entries in the inertial frame.
struct ReferenceInertial {
  double mass = 0;
  Vector3d xyz{0, 0, 0}, rpy{0, 0, 0};
  double ixx = 0, ixy = 0, ixz = 0, iyy = 0, iyz = 0, izz = 0;
};

struct ReferenceRobot {
  std::string name;
  std::vector<std::string> links;                      // document order
  std::map<std::string, ReferenceInertial> inertials;  // links that have an <inertial>
  std::vector<ReferenceJoint> joints;  // document order; only <joint> directly inside <robot>

  const ReferenceJoint* Joint(const std::string& joint_name) const {
    for (const ReferenceJoint& joint : joints)
      if (joint.name == joint_name) return &joint;
    return nullptr;
  }
  // The link no joint has as its child.
  std::string Root() const {
    for (const std::string& link : links) {
      bool is_child = false;
      for (const ReferenceJoint& joint : joints) is_child = is_child || joint.child == link;
      if (!is_child) return link;
    }
    return "";
  }
};

inline Vector3d ParseTriple(const char* text, const Vector3d& fallback) {
  if (text == nullptr) return fallback;
  std::istringstream stream(text);
  Vector3d out;
  for (double& value : out) {
    std::string word;
    stream >> word;
    value = std::strtod(word.c_str(), nullptr);
  }
  return out;
}

inline ReferenceRobot ParseReferenceRobot(const std::string& xml) {
  tinyxml2::XMLDocument document;
  if (document.Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS) {
    throw std::runtime_error(std::string("tinyxml2: ") + document.ErrorStr());
  }
  const tinyxml2::XMLElement* robot = document.FirstChildElement("robot");
  if (robot == nullptr) throw std::runtime_error("no <robot>");
  ReferenceRobot out;
  out.name = robot->Attribute("name") ? robot->Attribute("name") : "";
  for (const tinyxml2::XMLElement* link = robot->FirstChildElement("link"); link != nullptr;
       link = link->NextSiblingElement("link")) {
    out.links.push_back(link->Attribute("name"));
    if (const tinyxml2::XMLElement* inertial = link->FirstChildElement("inertial")) {
      ReferenceInertial in;
      if (const tinyxml2::XMLElement* mass = inertial->FirstChildElement("mass")) {
        in.mass = mass->DoubleAttribute("value", 0.0);
      }
      if (const tinyxml2::XMLElement* origin = inertial->FirstChildElement("origin")) {
        in.xyz = ParseTriple(origin->Attribute("xyz"), {0, 0, 0});
        in.rpy = ParseTriple(origin->Attribute("rpy"), {0, 0, 0});
      }
      if (const tinyxml2::XMLElement* tensor = inertial->FirstChildElement("inertia")) {
        in.ixx = tensor->DoubleAttribute("ixx", 0.0);
        in.ixy = tensor->DoubleAttribute("ixy", 0.0);
        in.ixz = tensor->DoubleAttribute("ixz", 0.0);
        in.iyy = tensor->DoubleAttribute("iyy", 0.0);
        in.iyz = tensor->DoubleAttribute("iyz", 0.0);
        in.izz = tensor->DoubleAttribute("izz", 0.0);
      }
      out.inertials[link->Attribute("name")] = in;
    }
  }
  for (const tinyxml2::XMLElement* element = robot->FirstChildElement("joint"); element != nullptr;
       element = element->NextSiblingElement("joint")) {
    ReferenceJoint joint;
    joint.name = element->Attribute("name");
    joint.type = element->Attribute("type");
    joint.parent = element->FirstChildElement("parent")->Attribute("link");
    joint.child = element->FirstChildElement("child")->Attribute("link");
    if (const tinyxml2::XMLElement* origin = element->FirstChildElement("origin")) {
      joint.xyz = ParseTriple(origin->Attribute("xyz"), {0, 0, 0});
      joint.rpy = ParseTriple(origin->Attribute("rpy"), {0, 0, 0});
    }
    if (const tinyxml2::XMLElement* axis = element->FirstChildElement("axis")) {
      joint.axis = ParseTriple(axis->Attribute("xyz"), {1, 0, 0});
    }
    if (const tinyxml2::XMLElement* limit = element->FirstChildElement("limit")) {
      joint.has_limit = true;
      joint.lower = limit->DoubleAttribute("lower", 0.0);
      joint.upper = limit->DoubleAttribute("upper", 0.0);
    }
    if (const tinyxml2::XMLElement* mimic = element->FirstChildElement("mimic")) {
      joint.mimic = mimic->Attribute("joint");
      joint.multiplier = mimic->DoubleAttribute("multiplier", 1.0);
      joint.offset = mimic->DoubleAttribute("offset", 0.0);
    }
    out.joints.push_back(joint);
  }
  return out;
}

// A joint's value: its own entry of `values` or, for a mimic joint, from its master's.
inline double JointValue(const ReferenceRobot& robot, const ReferenceJoint& joint,
                         const std::map<std::string, double>& values) {
  if (joint.mimic.empty()) return values.at(joint.name);
  return joint.multiplier * JointValue(robot, *robot.Joint(joint.mimic), values) + joint.offset;
}

// World transform of every link, given the root's transform and the value of every independent
// moving joint by name.
inline std::map<std::string, Transform> ReferenceForwardKinematics(
    const ReferenceRobot& robot, const std::map<std::string, double>& values,
    const Transform& root_pose = {}) {
  std::map<std::string, Transform> world;
  world[robot.Root()] = root_pose;
  // Joints may come in any order: sweep until every child is placed (each sweep places at
  // least one link of a valid tree).
  for (size_t placed = 1; placed < robot.links.size();) {
    const size_t before = placed;
    for (const ReferenceJoint& joint : robot.joints) {
      if (world.count(joint.child) || !world.count(joint.parent)) continue;
      Transform origin;
      origin.translation = joint.xyz;
      origin.rotation = Multiply(RotationZ(joint.rpy[2]),
                                 Multiply(RotationY(joint.rpy[1]), RotationX(joint.rpy[0])));
      Transform motion;
      if (joint.moves()) {
        const double length =
            std::sqrt(joint.axis[0] * joint.axis[0] + joint.axis[1] * joint.axis[1] +
                      joint.axis[2] * joint.axis[2]);
        const Vector3d axis{joint.axis[0] / length, joint.axis[1] / length, joint.axis[2] / length};
        const double value = JointValue(robot, joint, values);
        if (joint.type == "prismatic") {
          motion.translation = {axis[0] * value, axis[1] * value, axis[2] * value};
        } else {
          motion.rotation = AxisAngle(axis, value);
        }
      }
      world[joint.child] = Compose(Compose(world.at(joint.parent), origin), motion);
      ++placed;
    }
    if (placed == before) throw std::runtime_error("the reference robot is not a tree");
  }
  return world;
}

}  // namespace swarm::test
