// Forward kinematics of whole robots, end to end: swarm's URDF loader + BuildKinematicTree + the
// batched ForwardKinematics kernel (swarm/kernels/robots/robot_kinematics.h) against an independent
// double-precision implementation straight from the URDF specification, which reads the XML
// itself with tinyxml2 (urdf_reference_model.h). Every shipped robot and every real-world file in
// ../shared/urdf, 100 seeded random configurations within the joint limits each, fixed and
// floating base, on every compiled SIMD target, with bitwise-equal results across targets.
// The shipped arms are also checked against the Denavit-Hartenberg parameters they were written
// from.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "swarm/kernels/robots/robot_kinematics.h"
#include "swarm/robots/robot_model.h"
#include "tests/engine/robots/urdf_reference_model.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::Matrix3d;
using test::TargetUnderTest;
using test::Transform;
using test::Vector3d;

// Tolerances of the float kernel against the double reference. A link pose is a chain of at most
// ~12 float rigid transforms of magnitude <= ~3 m (floating base included): a few dozen roundings
// of relative size 2^-24 each, so errors of a few 1e-7 m and rad are expected (measured: below
// 1e-6); the URDF-level promise is 1e-5.
constexpr double kPositionTolerance = 1e-5;  // metres
constexpr double kRotationTolerance = 1e-5;  // radians
constexpr size_t kRobots = 100;

// `arrays` padded float arrays of `count` robots in one zeroed, vector-aligned allocation.
class Lanes {
 public:
  Lanes(size_t count, size_t arrays)
      : count_(count),
        stride_(RoundUpToVector<float>(count)),
        arrays_(arrays),
        data_(static_cast<float*>(std::aligned_alloc(kAlignBytes, Bytes())), &std::free) {
    std::memset(data_.get(), 0, Bytes());
  }
  LanesView view() const { return {data_.get(), count_, stride_, arrays_}; }
  float& at(size_t array, size_t robot) { return data_[array * stride_ + robot]; }
  bool BitwiseEqual(const Lanes& other) const {
    return std::memcmp(data_.get(), other.data_.get(), Bytes()) == 0;
  }

 private:
  size_t Bytes() const { return std::max<size_t>(stride_ * arrays_, kPadFloats) * sizeof(float); }
  size_t count_, stride_, arrays_;
  std::unique_ptr<float[], void (*)(void*)> data_;
};

// Random joint values within the limits (unlimited: +-2 pi rad or +-1 m), and for a floating
// base a position within +-2 m and a quaternion of random length (the kernel normalises it);
// robot 0's base quaternion is zero, which the kernel reads as the identity.
Lanes RandomConfigurations(const RobotModel& model, std::mt19937& rng) {
  Lanes q(kRobots, model.q_count());
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const size_t first = model.floating_base ? kFloatingBaseArrays : 0;
  for (size_t r = 0; r < kRobots; ++r) {
    if (model.floating_base) {
      for (size_t k = 0; k < 3; ++k) q.at(k, r) = static_cast<float>(2.0 * unit(rng));
      const double scale = r == 0 ? 0.0 : 0.5 + 0.75 * (unit(rng) + 1.0);
      for (size_t k = 3; k < 7; ++k) q.at(k, r) = static_cast<float>(scale * unit(rng));
    }
    for (size_t k = 0; k < model.dof(); ++k) {
      const RobotJoint& joint = model.joints[model.dof_joints[k]];
      const double t = 0.5 * (unit(rng) + 1.0);
      double value;
      if (joint.has_position_limits) {
        value = joint.lower + t * (joint.upper - joint.lower);
      } else {
        const double range = joint.type == RobotJointType::kPrismatic ? 1.0 : 2 * M_PI;
        value = range * (2 * t - 1);
      }
      q.at(first + k, r) = static_cast<float>(value);
    }
  }
  return q;
}

// The reference's input for robot r: the float q values it was given, by joint name.
std::map<std::string, double> JointValues(const RobotModel& model, Lanes& q, size_t r) {
  std::map<std::string, double> values;
  const size_t first = model.floating_base ? kFloatingBaseArrays : 0;
  for (size_t k = 0; k < model.dof(); ++k) {
    values[model.joints[model.dof_joints[k]].name] = q.at(first + k, r);
  }
  return values;
}

Transform RootPose(const RobotModel& model, Lanes& q, size_t r) {
  Transform root;
  if (!model.floating_base) return root;
  root.translation = {q.at(0, r), q.at(1, r), q.at(2, r)};
  const double w = q.at(3, r), x = q.at(4, r), y = q.at(5, r), z = q.at(6, r);
  if (w != 0 || x != 0 || y != 0 || z != 0) root.rotation = test::QuaternionMatrix(w, x, y, z);
  return root;
}

// FK of `model` (loaded from `xml`) on every target against the reference; bitwise equal across
// targets.
void CheckForwardKinematics(const std::string& xml, const UrdfOptions& options, uint32_t seed) {
  Result<RobotModel> loaded = LoadUrdfString(xml, options);
  INFO(loaded.status().message());
  REQUIRE(loaded.ok());
  const RobotModel& model = *loaded;
  const test::ReferenceRobot reference = test::ParseReferenceRobot(xml);
  std::vector<KinematicJoint> joints;
  const KinematicTree tree = BuildKinematicTree(model, joints);
  std::mt19937 rng(seed);
  Lanes q = RandomConfigurations(model, rng);

  std::vector<std::map<std::string, Transform>> expected;
  for (size_t r = 0; r < kRobots; ++r) {
    expected.push_back(test::ReferenceForwardKinematics(reference, JointValues(model, q, r),
                                                        RootPose(model, q, r)));
  }

  std::unique_ptr<Lanes> first_target_poses;
  double worst_position = 0, worst_rotation = 0;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    auto poses = std::make_unique<Lanes>(kRobots, kPoseArrays * model.links.size());
    ForwardKinematics(tree, q.view(), poses->view());
    for (size_t r = 0; r < kRobots; ++r) {
      for (size_t link = 0; link < model.links.size(); ++link) {
        const Transform& want = expected[r].at(model.links[link]);
        const size_t a = kPoseArrays * link;
        const Vector3d position{poses->at(a, r), poses->at(a + 1, r), poses->at(a + 2, r)};
        const double qx = poses->at(a + 3, r), qy = poses->at(a + 4, r), qz = poses->at(a + 5, r),
                     qw = poses->at(a + 6, r);
        const double position_error =
            std::hypot(position[0] - want.translation[0], position[1] - want.translation[1],
                       position[2] - want.translation[2]);
        const Matrix3d rotation = test::QuaternionMatrix(qw, qx, qy, qz);
        const double rotation_error = test::RotationAngleBetween(want.rotation, rotation);
        worst_position = std::max(worst_position, position_error);
        worst_rotation = std::max(worst_rotation, rotation_error);
        if (position_error > kPositionTolerance || rotation_error > kRotationTolerance ||
            std::abs(std::sqrt(qx * qx + qy * qy + qz * qz + qw * qw) - 1) > kRotationTolerance) {
          FAIL("robot " << r << " link " << model.links[link] << ": position error "
                        << position_error << " m, rotation error " << rotation_error
                        << " rad, |quaternion| "
                        << std::sqrt(qx * qx + qy * qy + qz * qz + qw * qw));
        }
      }
    }
    if (first_target_poses == nullptr) {
      first_target_poses = std::move(poses);
    } else {
      CHECK(poses->BitwiseEqual(*first_target_poses));
    }
  });
  REQUIRE(first_target_poses != nullptr);
  INFO("worst position error " << worst_position << " m, rotation error " << worst_rotation
                               << " rad");
  CHECK(worst_position <= kPositionTolerance);
  CHECK(worst_rotation <= kRotationTolerance);
}

const char* const kShippedRobotFiles[] = {
    SWARM_ROBOT_ASSETS_DIR "/ur5.urdf",
    SWARM_ROBOT_ASSETS_DIR "/panda_arm.urdf",
    SWARM_ROBOT_ASSETS_DIR "/quadruped.urdf",
};

// Everything the loader normalises, in one tree: joints before links and out of order, a world
// root, a fixed joint with <limit>, pitch at +-pi/2, negative and non-unit axes, prismatic
// joints, lower == upper (unlimited), a mimic chain with multipliers and offsets, two branches.
const char* const kMessyRobot = R"(<?xml version="1.0"?>
<robot name="messy">
  <joint name="tip" type="revolute"><parent link="forearm"/><child link="hand"/>
    <origin xyz="0.3 -0.05 0.02" rpy="0.7 -1.5707963267948966 -0.4"/><axis xyz="0 -3 4"/>
    <limit lower="0" upper="0" effort="1" velocity="1"/></joint>
  <joint name="mount" type="fixed"><parent link="world"/><child link="base"/>
    <origin xyz="0.1 0.2 0.5" rpy="0 0 0.3"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="elbow" type="continuous"><parent link="upper"/><child link="forearm"/>
    <origin xyz="0 0 0.4" rpy="1.2 1.5707963267948966 0.5"/><axis xyz="-1 0 0"/></joint>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0.1 0.2" rpy="0.1 0.2 0.3"/><axis xyz="0.2 0.3 -0.9"/>
    <limit lower="-2" upper="2.5" effort="1" velocity="1"/></joint>
  <joint name="slide" type="prismatic"><parent link="base"/><child link="rail"/>
    <origin xyz="-0.2 0 0" rpy="0 0.5 0"/><axis xyz="0 0 -1"/>
    <limit lower="-0.3" upper="0.6" effort="1" velocity="1"/></joint>
  <joint name="finger_a" type="prismatic"><parent link="hand"/><child link="finger_a"/>
    <origin xyz="0 0.02 0.1"/><axis xyz="0 1 0"/>
    <limit lower="0" upper="0.04" effort="1" velocity="1"/></joint>
  <joint name="finger_b" type="prismatic"><parent link="hand"/><child link="finger_b"/>
    <origin xyz="0 -0.02 0.1"/><axis xyz="0 -1 0"/>
    <limit lower="0" upper="0.04" effort="1" velocity="1"/>
    <mimic joint="finger_a" multiplier="1" offset="0"/></joint>
  <joint name="follower" type="revolute"><parent link="rail"/><child link="follower"/>
    <origin xyz="0 0 0.1" rpy="0 -1.5707963267948966 0"/><axis xyz="0 2 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="finger_b" multiplier="-7.5" offset="0.25"/></joint>
  <link name="follower"/><link name="finger_b"/><link name="finger_a"/><link name="rail"/>
  <link name="hand"/><link name="forearm"/><link name="upper"/><link name="base"/>
  <link name="world"/>
</robot>
)";

TEST_CASE("forward kinematics matches the URDF specification for every robot", "[urdf][fk]") {
  uint32_t seed = 1;
  const auto check = [&](const char* path) {
    INFO(path);
    CheckForwardKinematics(test::ReadFileText(path), {}, seed++);
  };
  for (const char* path : kShippedRobotFiles) check(path);
  for (const char* path : test::kRealWorldUrdfFiles) check(path);
}

TEST_CASE("forward kinematics of every normalisation the loader makes", "[urdf][fk]") {
  CheckForwardKinematics(kMessyRobot, {}, 11);
}

TEST_CASE("forward kinematics with a floating base", "[urdf][fk]") {
  UrdfOptions options;
  options.floating_base = true;
  CheckForwardKinematics(test::ReadFileText(SWARM_ROBOT_ASSETS_DIR "/quadruped.urdf"), options, 21);
  CheckForwardKinematics(test::ReadFileText(SWARM_SHARED_URDF_DIR "/solo12.urdf"), options, 22);
  CheckForwardKinematics(test::ReadFileText(SWARM_ROBOT_ASSETS_DIR "/ur5.urdf"), options, 23);
  CheckForwardKinematics(kMessyRobot, options, 24);
}

// --- The shipped arms against the Denavit-Hartenberg parameters they were written from. ---

Transform Rotation(const Matrix3d& rotation) {
  Transform out;
  out.rotation = rotation;
  return out;
}
Transform Translation(double x, double y, double z) {
  Transform out;
  out.translation = {x, y, z};
  return out;
}

void CheckAgainstDh(const std::string& path, const std::string& end_link,
                    Transform (*dh_forward)(const std::vector<double>& q)) {
  Result<RobotModel> model = LoadUrdfFile(path);
  REQUIRE(model.ok());
  const test::ReferenceRobot reference = test::ParseReferenceRobot(test::ReadFileText(path));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<double> q;
    std::map<std::string, double> values;
    for (size_t joint : model->dof_joints) {
      const RobotJoint& j = model->joints[joint];
      q.push_back(j.lower + unit(rng) * (j.upper - j.lower));
      values[j.name] = q.back();
    }
    const Transform urdf = test::ReferenceForwardKinematics(reference, values).at(end_link);
    const Transform dh = dh_forward(q);
    for (int k = 0; k < 3; ++k)
      CHECK(urdf.translation[k] == Approx(dh.translation[k]).margin(1e-12));
    CHECK(test::RotationAngleBetween(urdf.rotation, dh.rotation) < 1e-12);
  }
}

// UR5, standard DH: T_i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i).
Transform Ur5Dh(const std::vector<double>& q) {
  const double d[] = {0.089159, 0, 0, 0.10915, 0.09465, 0.0823};
  const double a[] = {0, -0.425, -0.39225, 0, 0, 0};
  const double alpha[] = {M_PI / 2, 0, 0, M_PI / 2, -M_PI / 2, 0};
  Transform pose;
  for (int i = 0; i < 6; ++i) {
    pose = test::Compose(pose, Rotation(test::RotationZ(q[i])));
    pose = test::Compose(pose, Translation(a[i], 0, d[i]));
    pose = test::Compose(pose, Rotation(test::RotationX(alpha[i])));
  }
  return pose;
}

// Panda, modified DH: T_i = Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i) Tz(d_i); then the flange.
Transform PandaDh(const std::vector<double>& q) {
  const double a[] = {0, 0, 0, 0.0825, -0.0825, 0, 0.088, 0};
  const double d[] = {0.333, 0, 0.316, 0, 0.384, 0, 0, 0.107};
  const double alpha[] = {0, -M_PI / 2, M_PI / 2, M_PI / 2, -M_PI / 2, M_PI / 2, M_PI / 2, 0};
  Transform pose;
  for (int i = 0; i < 8; ++i) {
    pose = test::Compose(pose, Rotation(test::RotationX(alpha[i])));
    pose = test::Compose(pose, Translation(a[i], 0, 0));
    pose = test::Compose(pose, Rotation(test::RotationZ(i < 7 ? q[i] : 0.0)));
    pose = test::Compose(pose, Translation(0, 0, d[i]));
  }
  return pose;
}

TEST_CASE("shipped arms match their published DH parameters", "[urdf][fk]") {
  CheckAgainstDh(SWARM_ROBOT_ASSETS_DIR "/ur5.urdf", "tool0", &Ur5Dh);
  CheckAgainstDh(SWARM_ROBOT_ASSETS_DIR "/panda_arm.urdf", "panda_link8", &PandaDh);
  // The UR5's well-known zero pose: (a2 + a3, -(d4 + d6), d1 - d5).
  const Transform zero = Ur5Dh(std::vector<double>(6, 0.0));
  CHECK(zero.translation[0] == Approx(-0.81725).margin(1e-12));
  CHECK(zero.translation[1] == Approx(-0.19145).margin(1e-12));
  CHECK(zero.translation[2] == Approx(-0.005491).margin(1e-12));
}

}  // namespace
}  // namespace swarm
