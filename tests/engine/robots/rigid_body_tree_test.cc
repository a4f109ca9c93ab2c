// Tests for swarm/robots/rigid_body_tree.h and the loader's reading of <inertial> and
// <dynamics>: hand-computed tensors for rotated inertial frames and fixed-joint folding (parallel
// axis theorem), the validation errors, and, for every real-world file, the whole robot's mass,
// centre of mass and inertia about it in random poses, computed once from the folded bodies and
// once from the URDF text alone (tinyxml2 and the specification's forward kinematics,
// urdf_reference_model.h).
#include "swarm/robots/rigid_body_tree.h"

#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <random>
#include <string>

#include "swarm/robots/robot_model.h"
#include "tests/engine/robots/urdf_reference_model.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;
using test::Matrix3d;
using test::Vector3d;

RobotModel Load(const std::string& xml, bool floating_base = false) {
  UrdfOptions options;
  options.floating_base = floating_base;
  Result<RobotModel> model = LoadUrdfString(xml, options);
  if (!model.ok()) FAIL(model.status().message());
  return std::move(model).value();
}

// An <inertial>; `tensor` lists any of the six entries, the others are written as 0 (urdfdom
// ignores an <inertia> that lacks one of them).
std::string Inertial(const std::string& mass, const std::string& origin,
                     const std::string& tensor) {
  std::string entries = tensor;
  for (const char* name : {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"}) {
    if (tensor.find(std::string(name) + "=") == std::string::npos) {
      entries += std::string(" ") + name + "=\"0\"";
    }
  }
  return "<inertial><mass value=\"" + mass + "\"/><origin " + origin + "/><inertia " + entries +
         "/></inertial>";
}

// Two links on a revolute joint; the child's inertial and the joint's extra elements vary.
std::string Arm(const std::string& child_inertial, const std::string& joint_extra = "") {
  return R"(<robot name="arm"><link name="base"/>
  <link name="arm">)" +
         child_inertial + R"(</link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="12" velocity="2"/>)" +
         joint_extra + R"(</joint></robot>)";
}

TEST_CASE("inertials are read into the link frame: origin as the centre of mass, tensor rotated",
          "[urdf][dynamics]") {
  // diag(1, 2, 3) in a frame turned 90 degrees about z: the link frame sees diag(2, 1, 3).
  const RobotModel model =
      Load(Arm(Inertial("2.5", "xyz=\"0.1 -0.2 0.3\" rpy=\"0 0 1.5707963267948966\"",
                        "ixx=\"1\" iyy=\"2\" izz=\"3\" ixy=\"0\" ixz=\"0\" iyz=\"0\""),
               "<dynamics damping=\"0.7\" friction=\"0.05\"/>"));
  REQUIRE(model.inertials.size() == 2);
  CHECK_FALSE(model.inertials[0].present);
  const LinkInertial& arm = model.inertials[1];
  CHECK(arm.present);
  CHECK(arm.mass == 2.5);
  CHECK(arm.com == std::array<double, 3>{0.1, -0.2, 0.3});
  const std::array<double, 9> expected{2, 0, 0, 0, 1, 0, 0, 0, 3};
  for (int i = 0; i < 9; ++i) CHECK(arm.inertia[i] == Approx(expected[i]).margin(1e-12));
  CHECK(model.joints[0].damping == 0.7);
  CHECK(model.joints[0].friction == 0.05);
  CHECK(model.joints[0].effort_limit == 12);
}

TEST_CASE("fixed joints fold their links into the moving body by the parallel-axis theorem",
          "[urdf][dynamics]") {
  // Link "arm": 1 kg at its origin, tensor diag(0.1, 0.1, 0.1). Link "tool", fixed 1 m along x
  // and turned 90 degrees about z: 3 kg at (0, 0.5, 0) in its own frame, i.e. at (1, 0.5, 0)...
  // turned: its x axis is arm's y, so its (0, 0.5, 0) is arm's (-0.5, 0, 0) + (1, 0, 0).
  const std::string xml = R"(<robot name="folded"><link name="base"/>
  <link name="arm">)" + Inertial("1", "xyz=\"0 0 0\"", "ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\"") +
                          R"(</link>
  <link name="tool">)" + Inertial("3", "xyz=\"0 0.5 0\"", "ixx=\"0.2\" iyy=\"0.3\" izz=\"0.4\"") +
                          R"(</link>
  <link name="marker"/>
  <joint name="shoulder" type="continuous"><parent link="base"/><child link="arm"/></joint>
  <joint name="mount" type="fixed"><parent link="arm"/><child link="tool"/>
    <origin xyz="1 0 0" rpy="0 0 1.5707963267948966"/></joint>
  <joint name="tip" type="fixed"><parent link="tool"/><child link="marker"/>
    <origin xyz="0 0 0.25"/></joint>
</robot>)";
  const RobotModel model = Load(xml);
  Result<RigidBodyTree> tree = BuildRigidBodyTree(model);
  REQUIRE(tree.ok());
  REQUIRE(tree->bodies.size() == 2);  // the fixed root, and the arm with tool and marker
  const RigidBody& body = tree->bodies[1];
  CHECK(body.joint == 0);
  CHECK(body.parent == 0);
  CHECK(body.links.size() == 3);
  CHECK(tree->total_mass == 4);
  CHECK(body.mass == 4);
  // The tool's centre of mass in the arm frame: (1, 0, 0) + Rz(90) (0, 0.5, 0) = (0.5, 0, 0).
  // Combined: (1 * 0 + 3 * 0.5) / 4 = 0.375 along x.
  CHECK(body.com[0] == Approx(0.375).margin(1e-12));
  CHECK(body.com[1] == Approx(0).margin(1e-12));
  CHECK(body.com[2] == Approx(0).margin(1e-12));
  // Tensors in the arm frame: the arm's diag(0.1, 0.1, 0.1); the tool's diag(0.2, 0.3, 0.4) turned
  // about z, diag(0.3, 0.2, 0.4). Offsets from the combined centre: arm -0.375, tool +0.125 along
  // x, so m d^2 = 1 * 0.140625 + 3 * 0.015625 = 0.1875 on yy and zz.
  const std::array<double, 9> expected{0.1 + 0.3,         0, 0, 0, 0.1 + 0.2 + 0.1875, 0, 0, 0,
                                       0.1 + 0.4 + 0.1875};
  for (int i = 0; i < 9; ++i) CHECK(body.inertia[i] == Approx(expected[i]).margin(1e-12));
  // The marker's pose in the body frame: (1, 0, 0) + Rz(90) (0, 0, 0.25).
  CHECK(tree->body_of_link[3] == 1);
  CHECK(tree->link_xyz[3][0] == Approx(1).margin(1e-12));
  CHECK(tree->link_xyz[3][2] == Approx(0.25).margin(1e-12));
}

TEST_CASE("bodies that cannot move a mass are refused naming the joint and links",
          "[urdf][dynamics]") {
  struct Case {
    std::string inertial, expected;
  };
  const Case cases[] = {
      {"", "the body of joint 'shoulder' (link 'arm') has no mass"},
      {Inertial("0", "xyz=\"0 0 0\"", "ixx=\"1\" iyy=\"1\" izz=\"1\""), "has no mass"},
      {Inertial("1", "xyz=\"0 0 0\"", "ixx=\"1\" iyy=\"1\" izz=\"0\""), "not positive definite"},
      {Inertial("1", "xyz=\"0 0 0\"", "ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"2\""),
       "not positive definite"},
      {Inertial("1", "xyz=\"0 0 0\"", "ixx=\"1\" iyy=\"1\" izz=\"3\""),
       "violates the triangle inequality"},
  };
  for (const Case& bad : cases) {
    INFO(bad.expected);
    const RobotModel model = Load(Arm(bad.inertial));
    Result<RigidBodyTree> tree = BuildRigidBodyTree(model);
    REQUIRE_FALSE(tree.ok());
    CHECK(tree.status().code() == ErrorCode::kInvalidArgument);
    CHECK_THAT(tree.status().message(), Contains("arm: ") && Contains(bad.expected));
  }
  // A thin rod is the limiting case I1 + I2 = I3, accepted (within rounding of the decimals).
  CHECK(CheckInertiaTensor({0.5, 0, 0, 0, 0.5, 0, 0, 0, 1.0}).empty());
  CHECK(CheckInertiaTensor({0.3333333333, 0, 0, 0, 0.6666666667, 0, 0, 0, 1.0}).empty());
  CHECK_FALSE(CheckInertiaTensor({0.5, 0, 0, 0, 0.5, 0, 0, 0, 1.001}).empty());
  // A floating base's root must have mass too; a fixed base's root never moves.
  const std::string inertial = Inertial("1", "xyz=\"0 0 0\"", "ixx=\"1\" iyy=\"1\" izz=\"1\"");
  CHECK(BuildRigidBodyTree(Load(Arm(inertial))).ok());
  Result<RigidBodyTree> floating = BuildRigidBodyTree(Load(Arm(inertial), true));
  REQUIRE_FALSE(floating.ok());
  CHECK_THAT(floating.status().message(), Contains("the root body (link 'base') has no mass"));
}

TEST_CASE("bad inertial and dynamics numbers are refused when the URDF is loaded",
          "[urdf][dynamics]") {
  const auto refused = [](const std::string& xml, const std::string& expected) {
    INFO(expected);
    Result<RobotModel> model = LoadUrdfString(xml);
    REQUIRE_FALSE(model.ok());
    CHECK_THAT(model.status().message(), Contains(expected));
  };
  refused(Arm(Inertial("-1", "xyz=\"0 0 0\"", "ixx=\"1\" iyy=\"1\" izz=\"1\"")),
          "link 'arm' has a negative mass (-1 kg)");
  refused(Arm(Inertial("1", "xyz=\"0 0 0\"", "ixx=\"1e39\" iyy=\"1\" izz=\"1\"")),
          "link 'arm' has an inertial value 1e+39 that is not a finite float");
  refused(Arm("", "<dynamics damping=\"-0.5\"/>"), "joint 'shoulder' has negative dynamics");
}

// The whole robot's mass, centre of mass and inertia about it, in the world frame.
struct MassProperties {
  double mass = 0;
  Vector3d com{0, 0, 0};
  Matrix3d inertia{};
};

// Adds a body of `mass` at world position `com` with world-frame tensor `tensor` (about its own
// centre of mass) to running sums of mass, first moment and second moment about the origin.
struct MassSums {
  double mass = 0;
  Vector3d first{0, 0, 0};
  Matrix3d about_origin{};
  void Add(double m, const Vector3d& c, const Matrix3d& tensor) {
    mass += m;
    const double c2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
    for (int a = 0; a < 3; ++a) {
      first[a] += m * c[a];
      for (int b = 0; b < 3; ++b) {
        about_origin[a][b] += tensor[a][b] + m * ((a == b ? c2 : 0.0) - c[a] * c[b]);
      }
    }
  }
  MassProperties Result() const {
    MassProperties out;
    out.mass = mass;
    for (int a = 0; a < 3; ++a) out.com[a] = first[a] / mass;
    const double c2 = out.com[0] * out.com[0] + out.com[1] * out.com[1] + out.com[2] * out.com[2];
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) {
        out.inertia[a][b] =
            about_origin[a][b] - mass * ((a == b ? c2 : 0.0) - out.com[a] * out.com[b]);
      }
    }
    return out;
  }
};

Matrix3d Transpose(const Matrix3d& m) {
  Matrix3d t{};
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) t[a][b] = m[b][a];
  }
  return t;
}
Matrix3d RotateTensor(const Matrix3d& r, const Matrix3d& tensor) {
  return test::Multiply(test::Multiply(r, tensor), Transpose(r));
}

// From the URDF text alone: every link's inertial placed by the specification's FK.
MassProperties ReferenceMassProperties(const test::ReferenceRobot& robot,
                                       const std::map<std::string, double>& values) {
  const auto world = test::ReferenceForwardKinematics(robot, values);
  MassSums sums;
  for (const auto& [link, in] : robot.inertials) {
    const test::Transform& pose = world.at(link);
    const Matrix3d frame =
        test::Multiply(test::RotationZ(in.rpy[2]),
                       test::Multiply(test::RotationY(in.rpy[1]), test::RotationX(in.rpy[0])));
    const Matrix3d tensor{
        {{in.ixx, in.ixy, in.ixz}, {in.ixy, in.iyy, in.iyz}, {in.ixz, in.iyz, in.izz}}};
    const Vector3d offset = test::Apply(pose.rotation, in.xyz);
    const Vector3d com{pose.translation[0] + offset[0], pose.translation[1] + offset[1],
                       pose.translation[2] + offset[2]};
    sums.Add(in.mass, com, RotateTensor(test::Multiply(pose.rotation, frame), tensor));
  }
  return sums.Result();
}

// From the folded bodies: each placed at its frame link's pose from the same FK.
MassProperties TreeMassProperties(const RobotModel& model, const RigidBodyTree& tree,
                                  const test::ReferenceRobot& robot,
                                  const std::map<std::string, double>& values) {
  const auto world = test::ReferenceForwardKinematics(robot, values);
  MassSums sums;
  for (const RigidBody& body : tree.bodies) {
    const test::Transform& pose = world.at(model.links[body.link]);
    const Vector3d offset = test::Apply(pose.rotation, body.com);
    const Vector3d com{pose.translation[0] + offset[0], pose.translation[1] + offset[1],
                       pose.translation[2] + offset[2]};
    Matrix3d tensor{};
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) tensor[a][b] = body.inertia[a * 3 + b];
    }
    sums.Add(body.mass, com, RotateTensor(pose.rotation, tensor));
  }
  return sums.Result();
}

TEST_CASE("folded bodies keep every real robot's mass, centre of mass and inertia in any pose",
          "[urdf][dynamics]") {
  std::mt19937 random(5);
  std::uniform_real_distribution<double> angle(-2.0, 2.0);
  for (const char* path : test::kRealWorldUrdfFiles) {
    INFO(path);
    const std::string xml = test::ReadFileText(path);
    const test::ReferenceRobot robot = test::ParseReferenceRobot(xml);
    const RobotModel model = Load(xml);
    Result<RigidBodyTree> tree = BuildRigidBodyTree(model);
    REQUIRE(tree.ok());
    CHECK(tree->bodies.size() == 1 + [&] {
      size_t moving = 0;
      for (const RobotJoint& joint : model.joints) moving += joint.type != RobotJointType::kFixed;
      return moving;
    }());
    for (int pose = 0; pose < 3; ++pose) {
      std::map<std::string, double> values;
      for (const test::ReferenceJoint& joint : robot.joints) {
        if (joint.moves() && joint.mimic.empty()) values[joint.name] = angle(random);
      }
      const MassProperties expected = ReferenceMassProperties(robot, values);
      const MassProperties got = TreeMassProperties(model, *tree, robot, values);
      REQUIRE(expected.mass > 0);
      CHECK(got.mass == Approx(expected.mass).epsilon(1e-12));
      double largest = 0;
      for (const auto& row : expected.inertia) {
        for (double value : row) largest = std::max(largest, std::fabs(value));
      }
      for (int a = 0; a < 3; ++a) {
        CHECK(got.com[a] == Approx(expected.com[a]).margin(1e-10));
        for (int b = 0; b < 3; ++b) {
          CHECK(got.inertia[a][b] == Approx(expected.inertia[a][b]).margin(1e-10 * largest));
        }
      }
    }
  }
}

}  // namespace
}  // namespace swarm
