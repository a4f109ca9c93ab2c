// Test fixture for the robot kernels (swarm/kernels/robots/robot_kinematics.h and the kernels that
// use its poses): padded SoA lane arrays like the engine's robot buffers, hand-built kinematic
// trees that exercise every joint formula (kernels/robots/robot_joint_plan.h), seeded random
// configurations, and a double-precision forward kinematics written straight from the URDF
// definitions with 4x4 matrices (T_child = T_parent T_origin T_motion), independent of the kernels'
// quaternion code.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_kinematics.h"

namespace swarm::test {

// `arrays` lane arrays of stride RoundUpToVector(count) floats in one 64-byte-aligned block;
// elements [count, stride) of every array are padding, filled with `padding`.
class RobotLanes {
 public:
  RobotLanes(size_t count, size_t arrays, float padding = 0.0f)
      : count_(count), arrays_(arrays), stride_(RoundUpToVector<float>(count)) {
    const size_t floats = std::max<size_t>(arrays_ * stride_, kPadFloats);
    storage_.resize(floats + kPadFloats);
    const uintptr_t address = reinterpret_cast<uintptr_t>(storage_.data());
    offset_ = ((kAlignBytes - address % kAlignBytes) % kAlignBytes) / sizeof(float);
    std::fill(storage_.begin(), storage_.end(), padding);
  }
  RobotLanes(const RobotLanes& other) : RobotLanes(other.count_, other.arrays_) {
    std::copy(other.data(), other.data() + arrays_ * stride_, data());
  }
  RobotLanes& operator=(const RobotLanes&) = delete;

  float* data() { return storage_.data() + offset_; }
  const float* data() const { return storage_.data() + offset_; }
  size_t count() const { return count_; }
  size_t arrays() const { return arrays_; }
  size_t stride() const { return stride_; }
  float& At(size_t array, size_t robot) { return data()[array * stride_ + robot]; }
  float At(size_t array, size_t robot) const { return data()[array * stride_ + robot]; }
  LanesView view() { return {data(), count_, stride_, arrays_}; }
  ConstLanesView view() const { return {data(), count_, stride_, arrays_}; }
  // Fills the valid elements (not the padding) with `value`.
  void FillValid(float value) {
    for (size_t a = 0; a < arrays_; ++a)
      std::fill(data() + a * stride_, data() + a * stride_ + count_, value);
  }
  // "array A element i" of the first padding float whose bits differ from `padding`, or "".
  std::string PaddingMismatch(float padding) const {
    for (size_t a = 0; a < arrays_; ++a) {
      for (size_t i = count_; i < stride_; ++i) {
        if (std::memcmp(&data()[a * stride_ + i], &padding, sizeof(float)) != 0) {
          return "array " + std::to_string(a) + " element " + std::to_string(i);
        }
      }
    }
    return "";
  }

 private:
  size_t count_, arrays_, stride_;
  size_t offset_ = 0;
  std::vector<float> storage_;
};

// "array A robot r: got X want Y" for the first element whose bits differ, or "".
inline std::string FirstBitDifference(const RobotLanes& got, const RobotLanes& want,
                                      size_t got_first_robot = 0, size_t want_first_robot = 0,
                                      size_t robots = SIZE_MAX) {
  robots =
      std::min(robots, std::min(got.count() - got_first_robot, want.count() - want_first_robot));
  for (size_t a = 0; a < got.arrays(); ++a) {
    for (size_t r = 0; r < robots; ++r) {
      const float g = got.At(a, got_first_robot + r), w = want.At(a, want_first_robot + r);
      if (std::memcmp(&g, &w, sizeof(float)) != 0) {
        return "array " + std::to_string(a) + " robot " + std::to_string(r) + ": got " +
               std::to_string(g) + " want " + std::to_string(w);
      }
    }
  }
  return "";
}

// A model the tests own: the joints and the tree that points at them.
struct TestRobot {
  std::string name;
  std::vector<KinematicJoint> joints;
  size_t dof = 0;
  bool floating_base = false;

  KinematicTree tree() const {
    return {joints.data(), joints.size(), dof + (floating_base ? kFloatingBaseArrays : 0),
            floating_base};
  }
};

// URDF origin rotation R = Rz(yaw) Ry(pitch) Rx(roll) as a float quaternion x y z w.
inline void RpyToQuaternion(double roll, double pitch, double yaw, float out[4]) {
  const glm::dquat q = glm::angleAxis(yaw, glm::dvec3(0, 0, 1)) *
                       glm::angleAxis(pitch, glm::dvec3(0, 1, 0)) *
                       glm::angleAxis(roll, glm::dvec3(1, 0, 0));
  out[0] = static_cast<float>(q.x);
  out[1] = static_cast<float>(q.y);
  out[2] = static_cast<float>(q.z);
  out[3] = static_cast<float>(q.w);
}

struct JointSpec {
  uint32_t parent = 0;
  JointMotion motion = JointMotion::kFixed;
  int q_index = -1;
  glm::dvec3 xyz{0.0};
  glm::dvec3 rpy{0.0};
  glm::dvec3 axis{1, 0, 0};  // normalised here, as the URDF loader does
  float multiplier = 1.0f, offset = 0.0f;
};

inline KinematicJoint MakeJoint(const JointSpec& spec) {
  KinematicJoint joint;
  joint.parent_link = spec.parent;
  joint.motion = spec.motion;
  joint.q_index = spec.q_index;
  joint.multiplier = spec.multiplier;
  joint.offset = spec.offset;
  if (spec.rpy != glm::dvec3(0.0)) {
    RpyToQuaternion(spec.rpy.x, spec.rpy.y, spec.rpy.z, joint.origin_rotation);
  }
  const glm::dvec3 axis = glm::normalize(spec.axis);
  for (int k = 0; k < 3; ++k) {
    joint.origin_translation[k] = static_cast<float>(spec.xyz[k]);
    joint.axis[k] = static_cast<float>(axis[k]);
  }
  return joint;
}

constexpr double kPi = std::numbers::pi;
constexpr JointMotion kRevolute = JointMotion::kRevolute;
constexpr JointMotion kPrismatic = JointMotion::kPrismatic;
constexpr JointMotion kFixed = JointMotion::kFixed;

// A serial chain that takes every joint formula: axes +x, +y, +z, -y, -z and oblique; origin
// rotations identity, about one axis, general, and at pitch pi/2; zero and nonzero origin
// translations; prismatic joints on coordinate and oblique axes; fixed joints at the root, in the
// middle and at the tip.
inline TestRobot ChainRobot() {
  TestRobot robot{"chain", {}, 9, false};
  auto add = [&](JointSpec spec) { robot.joints.push_back(MakeJoint(spec)); };
  add({0, kFixed, -1, {0.1, -0.2, 0.3}, {0.0, 0.0, 0.4}});
  add({1, kRevolute, 0, {0.0, 0.0, 0.089}, {}, {0, 0, 1}});
  add({2, kRevolute, 1, {0.0, 0.136, 0.0}, {0.0, kPi / 2, 0.0}, {0, 1, 0}});
  add({3, kRevolute, 2, {0.0, -0.12, 0.425}, {0.3, -0.2, 0.7}, {1, 0, 0}});
  add({4, kPrismatic, 3, {0.05, 0.0, 0.0}, {}, {0, 0, 1}});
  add({5, kRevolute, 4, {}, {-0.5, 0.0, 0.0}, {0, -1, 0}});
  add({6, kFixed, -1, {0.0, 0.0, 0.2}, {0.1, 0.2, 0.3}});
  add({7, kRevolute, 5, {0.02, 0.03, 0.04}, {0.0, 0.0, -1.2}, {1, 2, -2}});
  add({8, kPrismatic, 6, {0.0, 0.1, 0.0}, {0.0, 0.6, 0.0}, {-1, 1, 0.5}});
  add({9, kRevolute, 7, {0.0, 0.0, 0.1}, {}, {0, 0, -1}});
  add({10, kRevolute, 8, {0.0, 0.09, 0.0}, {kPi / 2, kPi / 2, 0.0}, {-1, 0, 0}});
  add({11, kFixed, -1, {0.0, 0.08, 0.0}, {0.0, 0.0, kPi / 2}});
  return robot;
}

// UR5 from its published kinematic parameters (ur_description's ur5_robot.urdf).
inline TestRobot Ur5Robot() {
  TestRobot robot{"ur5", {}, 6, false};
  auto add = [&](JointSpec spec) { robot.joints.push_back(MakeJoint(spec)); };
  add({0, kRevolute, 0, {0.0, 0.0, 0.089159}, {}, {0, 0, 1}});
  add({1, kRevolute, 1, {0.0, 0.13585, 0.0}, {0.0, kPi / 2, 0.0}, {0, 1, 0}});
  add({2, kRevolute, 2, {0.0, -0.1197, 0.425}, {}, {0, 1, 0}});
  add({3, kRevolute, 3, {0.0, 0.0, 0.39225}, {0.0, kPi / 2, 0.0}, {0, 1, 0}});
  add({4, kRevolute, 4, {0.0, 0.093, 0.0}, {}, {0, 0, 1}});
  add({5, kRevolute, 5, {0.0, 0.0, 0.09465}, {}, {0, 1, 0}});
  add({6, kFixed, -1, {0.0, 0.0823, 0.0}, {0.0, 0.0, kPi / 2}});
  return robot;
}

// A quadruped on a floating base: trunk, then four legs (hip about x, thigh and knee about y, a
// fixed foot), so the tree branches at the trunk.
inline TestRobot QuadrupedRobot() {
  TestRobot robot{"quadruped", {}, 12, true};
  auto add = [&](JointSpec spec) { robot.joints.push_back(MakeJoint(spec)); };
  add({0, kFixed, -1, {0.0, 0.0, 0.05}});  // link 1: trunk
  for (int leg = 0; leg < 4; ++leg) {
    const double x = leg < 2 ? 0.19 : -0.19, y = leg % 2 == 0 ? 0.05 : -0.05;
    const uint32_t hip_link = static_cast<uint32_t>(robot.joints.size() + 1);
    add({1, kRevolute, 3 * leg, {x, y, 0.0}, {}, {1, 0, 0}});
    add({hip_link, kRevolute, 3 * leg + 1, {0.0, y > 0 ? 0.08 : -0.08, 0.0}, {}, {0, 1, 0}});
    add({hip_link + 1, kRevolute, 3 * leg + 2, {0.0, 0.0, -0.2}, {}, {0, 1, 0}});
    add({hip_link + 2, kFixed, -1, {0.0, 0.0, -0.2}});
  }
  return robot;
}

// A gripper with mimic joints: a wrist, a finger joint (column 1), a second finger mirroring it
// (multiplier -1) on a branch, and a distal joint on the first finger that follows the wrist
// (multiplier 0.5, offset 0.1), so a mimic adds into a master column that is also on the path.
inline TestRobot MimicRobot() {
  TestRobot robot{"mimic", {}, 2, false};
  auto add = [&](JointSpec spec) { robot.joints.push_back(MakeJoint(spec)); };
  add({0, kRevolute, 0, {0.0, 0.0, 0.1}, {}, {0, 0, 1}});                            // link 1
  add({1, kPrismatic, 1, {0.0, 0.02, 0.05}, {}, {0, 1, 0}});                         // link 2
  add({1, kPrismatic, 1, {0.0, -0.02, 0.05}, {}, {0, 1, 0}, -1.0f, 0.0f});           // link 3
  add({2, kRevolute, 0, {0.0, 0.0, 0.04}, {0.2, 0.0, 0.0}, {1, 0, 1}, 0.5f, 0.1f});  // link 4
  return robot;
}

// Planar two-link arm in the x-y plane (both axes +z), links of l1 and l2 metres.
inline constexpr double kPlanarL1 = 0.7, kPlanarL2 = 0.45;
inline TestRobot PlanarRobot() {
  TestRobot robot{"planar", {}, 2, false};
  auto add = [&](JointSpec spec) { robot.joints.push_back(MakeJoint(spec)); };
  add({0, kRevolute, 0, {}, {}, {0, 0, 1}});
  add({1, kRevolute, 1, {kPlanarL1, 0.0, 0.0}, {}, {0, 0, 1}});
  add({2, kFixed, -1, {kPlanarL2, 0.0, 0.0}});
  return robot;
}

inline std::vector<TestRobot> AllTestRobots() {
  return {ChainRobot(), Ur5Robot(), QuadrupedRobot(), MimicRobot(), PlanarRobot()};
}

// Seeded random configurations: floating base position in [-2, 2] and a random (non-unit)
// quaternion with components in [-1, 1]; revolute values in [-pi, pi], prismatic in [-0.5, 0.5].
inline RobotLanes RandomQ(const TestRobot& robot, size_t count, uint32_t seed,
                          float padding = 0.0f) {
  const KinematicTree tree = robot.tree();
  RobotLanes q(count, tree.q_count, padding);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<bool> prismatic(tree.joint_q_count(), false);
  for (const KinematicJoint& joint : robot.joints) {
    if (joint.motion == JointMotion::kPrismatic && joint.multiplier == 1.0f) {
      prismatic[static_cast<size_t>(joint.q_index)] = true;
    }
  }
  for (size_t r = 0; r < count; ++r) {
    for (size_t a = 0; a < tree.q_count; ++a) {
      const float u = unit(rng);
      if (a < tree.joint_q_begin()) {
        q.At(a, r) = a < 3 ? 2.0f * u : u;
      } else {
        q.At(a, r) = prismatic[a - tree.joint_q_begin()] ? 0.5f * u : static_cast<float>(kPi) * u;
      }
    }
  }
  return q;
}

// --- Double-precision forward kinematics from the definitions -----------------------------------

inline glm::dmat4 OriginMatrix(const KinematicJoint& joint) {
  const glm::dquat rotation =
      glm::normalize(glm::dquat(joint.origin_rotation[3], joint.origin_rotation[0],
                                joint.origin_rotation[1], joint.origin_rotation[2]));
  glm::dmat4 m(glm::mat3_cast(rotation));
  m[3] = glm::dvec4(joint.origin_translation[0], joint.origin_translation[1],
                    joint.origin_translation[2], 1.0);
  return m;
}

// World transform of every link for one robot's q (q_count doubles).
inline std::vector<glm::dmat4> DoubleForwardKinematics(const TestRobot& robot,
                                                       const std::vector<double>& q) {
  const KinematicTree tree = robot.tree();
  std::vector<glm::dmat4> links(tree.link_count(), glm::dmat4(1.0));
  if (tree.floating_base) {
    glm::dquat rotation(q[3], q[4], q[5], q[6]);
    const double length = glm::length(rotation);
    rotation = length == 0.0 ? glm::dquat(1, 0, 0, 0) : rotation / length;
    links[0] = glm::translate(glm::dmat4(1.0), glm::dvec3(q[0], q[1], q[2])) *
               glm::dmat4(glm::mat3_cast(rotation));
  }
  for (size_t i = 0; i < tree.joint_count; ++i) {
    const KinematicJoint& joint = robot.joints[i];
    glm::dmat4 motion(1.0);
    if (joint.motion != JointMotion::kFixed) {
      const double value =
          double{joint.multiplier} * q[tree.joint_q_begin() + static_cast<size_t>(joint.q_index)] +
          double{joint.offset};
      const glm::dvec3 axis =
          glm::normalize(glm::dvec3(joint.axis[0], joint.axis[1], joint.axis[2]));
      motion = joint.motion == JointMotion::kRevolute
                   ? glm::rotate(glm::dmat4(1.0), value, axis)
                   : glm::translate(glm::dmat4(1.0), value * axis);
    }
    links[i + 1] = links[joint.parent_link] * OriginMatrix(joint) * motion;
  }
  return links;
}

inline std::vector<double> RobotQ(const RobotLanes& q, size_t robot) {
  std::vector<double> values(q.arrays());
  for (size_t a = 0; a < q.arrays(); ++a) values[a] = q.At(a, robot);
  return values;
}

// The float pose of link `link` of robot r (arrays px py pz qx qy qz qw) as a double matrix.
inline glm::dmat4 PoseMatrix(const RobotLanes& poses, size_t link, size_t r) {
  const size_t b = kPoseArrays * link;
  const glm::dquat rotation(poses.At(b + 6, r), poses.At(b + 3, r), poses.At(b + 4, r),
                            poses.At(b + 5, r));
  glm::dmat4 m(glm::mat3_cast(rotation));
  m[3] = glm::dvec4(poses.At(b, r), poses.At(b + 1, r), poses.At(b + 2, r), 1.0);
  return m;
}

// Rotation vector (axis * angle) of a rotation matrix, for angles below pi.
inline glm::dvec3 RotationLog(const glm::dmat3& m) {
  // m[c][r] is column c, row r: the skew part gives sin(angle) * axis.
  const glm::dvec3 vee(m[1][2] - m[2][1], m[2][0] - m[0][2], m[0][1] - m[1][0]);
  const double sine = 0.5 * glm::length(vee);
  const double cosine = 0.5 * (m[0][0] + m[1][1] + m[2][2] - 1.0);
  const double angle = std::atan2(sine, cosine);
  if (sine < 1e-300) return glm::dvec3(0.0);
  return vee * (0.5 * angle / sine);
}

}  // namespace swarm::test
