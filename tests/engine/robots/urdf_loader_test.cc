// Tests for swarm/robots/robot_model.h on valid input: every shipped robot (assets/robots) and
// every real-world file in ../shared/urdf loads with the links, joints, degrees of freedom and root
// that an independent tinyxml2 reading of the same file gives (urdf_reference_model.h), each messy
// case the loader promises to handle (as an inline URDF), and the conversions to what the kernels
// and the command line read (KinematicTree, JointControl, JSON). Bad input: urdf_bad_input_test.cc.
#include <console_bridge/console.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "swarm/robots/robot_model.h"
#include "tests/engine/robots/urdf_reference_model.h"

namespace swarm {
namespace {

using test::Matrix3d;
using test::ParseReferenceRobot;
using test::QuaternionMatrix;
using test::ReferenceJoint;
using test::ReferenceRobot;
using test::RotationAngleBetween;

RobotModel Load(const std::string& xml, const UrdfOptions& options = {}) {
  Result<RobotModel> model = LoadUrdfString(xml, options);
  INFO(model.status().message());
  REQUIRE(model.ok());
  return std::move(model).value();
}

const RobotJoint& JointNamed(const RobotModel& model, const std::string& name) {
  for (const RobotJoint& joint : model.joints)
    if (joint.name == name) return joint;
  FAIL("no joint " << name);
  return model.joints.front();
}

Matrix3d RpyMatrix(const test::Vector3d& rpy) {
  return test::Multiply(test::RotationZ(rpy[2]),
                        test::Multiply(test::RotationY(rpy[1]), test::RotationX(rpy[0])));
}

Matrix3d OriginMatrix(const RobotJoint& joint) {
  const auto& q = joint.origin_quat;  // x y z w
  return QuaternionMatrix(q[3], q[0], q[1], q[2]);
}

// Everything the model says that the XML says too, read without urdfdom.
void CheckAgainstReference(const RobotModel& model, const ReferenceRobot& reference) {
  CHECK(model.name == reference.name);
  REQUIRE(model.links.size() == reference.links.size());
  REQUIRE(model.joints.size() == reference.joints.size());
  CHECK(model.links.front() == reference.Root());
  CHECK(std::set<std::string>(model.links.begin(), model.links.end()) ==
        std::set<std::string>(reference.links.begin(), reference.links.end()));
  size_t independent = 0;
  for (const ReferenceJoint& joint : reference.joints)
    independent += joint.moves() && joint.mimic.empty();
  CHECK(model.dof() == independent);
  CHECK(model.q_count() == independent);

  for (size_t i = 0; i < model.joints.size(); ++i) {
    const RobotJoint& joint = model.joints[i];
    INFO("joint " << joint.name);
    const ReferenceJoint* expected = reference.Joint(joint.name);
    REQUIRE(expected != nullptr);
    CHECK(joint.child_link == i + 1);
    CHECK(joint.parent_link < i + 1);  // topological: parents first
    CHECK(model.links[joint.parent_link] == expected->parent);
    CHECK(model.links[joint.child_link] == expected->child);
    CHECK(std::string(RobotJointTypeName(joint.type)) == expected->type);
    for (int k = 0; k < 3; ++k) CHECK(joint.origin_xyz[k] == expected->xyz[k]);
    CHECK(RotationAngleBetween(OriginMatrix(joint), RpyMatrix(expected->rpy)) < 1e-12);
    if (!expected->moves()) {
      CHECK(joint.q_index == -1);
      continue;
    }
    const double length = std::hypot(expected->axis[0], expected->axis[1], expected->axis[2]);
    for (int k = 0; k < 3; ++k)
      CHECK(joint.axis[k] == Approx(expected->axis[k] / length).margin(1e-15));
    const bool limited =
        expected->type != "continuous" && expected->has_limit && expected->lower != expected->upper;
    CHECK(joint.has_position_limits == limited);
    if (limited) {
      CHECK(joint.lower == expected->lower);
      CHECK(joint.upper == expected->upper);
    }
    CHECK(joint.is_mimic == !expected->mimic.empty());
    if (joint.is_mimic) {
      const ReferenceJoint* master = reference.Joint(expected->mimic);
      REQUIRE(master != nullptr);
      REQUIRE(master->mimic.empty());  // the shared files have no mimic chains
      CHECK(joint.q_index == JointNamed(model, master->name).q_index);
      CHECK(joint.mimic_multiplier == expected->multiplier);
      CHECK(joint.mimic_offset == expected->offset);
    } else {
      REQUIRE(joint.q_index >= 0);
      REQUIRE(static_cast<size_t>(joint.q_index) < model.dof());
      CHECK(model.dof_joints[joint.q_index] == i);
    }
  }
  // q columns in pose order.
  for (size_t k = 1; k < model.dof_joints.size(); ++k)
    CHECK(model.dof_joints[k - 1] < model.dof_joints[k]);
}

struct RobotFile {
  std::string path;
  size_t dof, links;
  std::string root;
};

const std::vector<RobotFile>& RobotFiles() {
  static const std::vector<RobotFile> files = {
      {SWARM_ROBOT_ASSETS_DIR "/ur5.urdf", 6, 8, "base_link"},
      {SWARM_ROBOT_ASSETS_DIR "/panda_arm.urdf", 7, 11, "panda_link0"},
      {SWARM_ROBOT_ASSETS_DIR "/quadruped.urdf", 12, 17, "trunk"},
      {SWARM_SHARED_URDF_DIR "/ur5_robot.urdf", 6, 11, "world"},
      {SWARM_SHARED_URDF_DIR "/panda.urdf", 8, 13, "panda_link0"},
      {SWARM_SHARED_URDF_DIR "/xarm7.urdf", 7, 10, "world"},
      {SWARM_SHARED_URDF_DIR "/z1.urdf", 7, 10, "world"},
      {SWARM_SHARED_URDF_DIR "/so100.urdf", 6, 7, "base"},
      {SWARM_SHARED_URDF_DIR "/solo12.urdf", 12, 17, "base_link"},
      {SWARM_SHARED_URDF_DIR "/double_pendulum.urdf", 2, 3, "base_link"},
      {SWARM_SHARED_URDF_DIR "/double_pendulum_continuous.urdf", 2, 3, "base_link"},
  };
  return files;
}

TEST_CASE("every shipped and real-world URDF loads as its XML describes", "[urdf]") {
  for (const RobotFile& file : RobotFiles()) {
    INFO(file.path);
    Result<RobotModel> model = LoadUrdfFile(file.path);
    INFO(model.status().message());
    REQUIRE(model.ok());
    CHECK(model->dof() == file.dof);
    CHECK(model->links.size() == file.links);
    CHECK(model->links.front() == file.root);
    CheckAgainstReference(*model, ParseReferenceRobot(test::ReadFileText(file.path)));
  }
}

TEST_CASE("shipped robots have the published parameters in q order", "[urdf]") {
  Result<RobotModel> ur5 = LoadUrdfFile(SWARM_ROBOT_ASSETS_DIR "/ur5.urdf");
  REQUIRE(ur5.ok());
  CHECK(ur5->QNames() == std::vector<std::string>{"shoulder_pan_joint", "shoulder_lift_joint",
                                                  "elbow_joint", "wrist_1_joint", "wrist_2_joint",
                                                  "wrist_3_joint"});
  CHECK(ur5->links[ur5->DefaultEndEffector()] == "tool0");
  const double efforts[] = {150, 150, 150, 28, 28, 28};
  for (size_t k = 0; k < 6; ++k) {
    const RobotJoint& joint = ur5->joints[ur5->dof_joints[k]];
    CHECK(joint.effort_limit == efforts[k]);
    CHECK(joint.velocity_limit == 3.15);
    CHECK(joint.lower == -2 * M_PI);
    CHECK(joint.upper == 2 * M_PI);
  }

  Result<RobotModel> panda = LoadUrdfFile(SWARM_ROBOT_ASSETS_DIR "/panda_arm.urdf");
  REQUIRE(panda.ok());
  CHECK(panda->dof() == 7);
  CHECK(panda->links[panda->DefaultEndEffector()] == "panda_hand_tcp");
  CHECK(panda->joints[panda->dof_joints[3]].upper == -0.0698);

  // Depth first from the trunk, children in document order: legs stay contiguous.
  Result<RobotModel> quadruped = LoadUrdfFile(SWARM_ROBOT_ASSETS_DIR "/quadruped.urdf");
  REQUIRE(quadruped.ok());
  std::vector<std::string> expected;
  for (const char* leg : {"FL", "FR", "RL", "RR"}) {
    for (const char* joint : {"_hip_joint", "_thigh_joint", "_calf_joint"}) {
      expected.push_back(std::string(leg) + joint);
    }
  }
  CHECK(quadruped->QNames() == expected);
  CHECK(quadruped->links[1] == "FL_hip");
  CHECK(quadruped->links[4] == "FL_foot");
  CHECK(quadruped->links[quadruped->DefaultEndEffector()] == "FL_foot");
}

TEST_CASE("real-world files: CRLF, shared names, mimic fingers, world roots", "[urdf]") {
  const std::string so100_text = test::ReadFileText(SWARM_SHARED_URDF_DIR "/so100.urdf");
  REQUIRE(so100_text.find("\r\n") != std::string::npos);
  Result<RobotModel> so100 = LoadUrdfFile(SWARM_SHARED_URDF_DIR "/so100.urdf");
  REQUIRE(so100.ok());
  // "gripper" names both a joint and a link.
  CHECK(so100->FindLink("gripper").ok());
  CHECK(JointNamed(*so100, "gripper").type == RobotJointType::kRevolute);
  // The same file with LF endings gives the same model.
  std::string lf_text = so100_text;
  lf_text.erase(std::remove(lf_text.begin(), lf_text.end(), '\r'), lf_text.end());
  const RobotModel so100_lf = Load(lf_text);
  CHECK(so100_lf.links == so100->links);
  CHECK(so100_lf.QNames() == so100->QNames());

  Result<RobotModel> panda = LoadUrdfFile(SWARM_SHARED_URDF_DIR "/panda.urdf");
  REQUIRE(panda.ok());
  const RobotJoint& finger1 = JointNamed(*panda, "panda_finger_joint1");
  const RobotJoint& finger2 = JointNamed(*panda, "panda_finger_joint2");
  CHECK(!finger1.is_mimic);
  CHECK(finger2.is_mimic);
  CHECK(finger2.q_index == finger1.q_index);
  CHECK(finger2.type == RobotJointType::kPrismatic);
  const std::vector<std::string> names = panda->QNames();
  CHECK(std::find(names.begin(), names.end(), "panda_finger_joint2") == names.end());
  CHECK(names.back() == "panda_finger_joint1");

  Result<RobotModel> xarm = LoadUrdfFile(SWARM_SHARED_URDF_DIR "/xarm7.urdf");
  REQUIRE(xarm.ok());
  CHECK(xarm->links.front() == "world");
  CHECK(xarm->joints.front().type == RobotJointType::kFixed);
  CHECK(xarm->links[xarm->DefaultEndEffector()] == "link_eef");
}

// A two-link chain: a -- j (revolute) --> b, with `joint_body` inside <joint>.
std::string OneJoint(const std::string& joint_body, const std::string& type = "revolute") {
  return "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><joint name=\"j\" type=\"" + type +
         "\"><parent link=\"a\"/><child link=\"b\"/>" + joint_body + "</joint></robot>";
}
const std::string kLimit = "<limit lower=\"-1\" upper=\"1\" effort=\"5\" velocity=\"2\"/>";

TEST_CASE("joints before links and out of order are put in pose order", "[urdf]") {
  const RobotModel model = Load(R"(<robot name="chain">
    <joint name="j3" type="continuous"><parent link="l2"/><child link="l3"/></joint>
    <joint name="j1" type="continuous"><parent link="l0"/><child link="l1"/></joint>
    <joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/></joint>
    <link name="l3"/><link name="l1"/><link name="l0"/><link name="l2"/>
  </robot>)");
  CHECK(model.links == std::vector<std::string>{"l0", "l1", "l2", "l3"});
  CHECK(model.QNames() == std::vector<std::string>{"j1", "j2", "j3"});
  for (size_t i = 0; i < 3; ++i) CHECK(model.joints[i].parent_link == i);
}

TEST_CASE("branches are visited depth first in document order", "[urdf]") {
  const RobotModel model = Load(R"(<robot name="tree">
    <link name="body"/><link name="a1"/><link name="a2"/><link name="b1"/><link name="b2"/>
    <joint name="b_root" type="continuous"><parent link="body"/><child link="b1"/></joint>
    <joint name="a_tip" type="continuous"><parent link="a1"/><child link="a2"/></joint>
    <joint name="a_root" type="continuous"><parent link="body"/><child link="a1"/></joint>
    <joint name="b_tip" type="continuous"><parent link="b1"/><child link="b2"/></joint>
  </robot>)");
  CHECK(model.links == std::vector<std::string>{"body", "b1", "b2", "a1", "a2"});
  CHECK(model.QNames() == std::vector<std::string>{"b_root", "b_tip", "a_root", "a_tip"});
  CHECK(model.DefaultEndEffector() == 2);  // b2: first of the two deepest links
}

TEST_CASE("a root link named world and fixed joints with limits", "[urdf]") {
  const RobotModel model = Load(R"(<robot name="r">
    <link name="world"/><link name="base"/><link name="arm"/>
    <joint name="mount" type="fixed"><parent link="world"/><child link="base"/>
      <origin xyz="0 0 0.5"/><limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
    <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
      <limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
  </robot>)");
  CHECK(model.links.front() == "world");
  CHECK(model.dof() == 1);
  CHECK(model.joints[0].type == RobotJointType::kFixed);
  CHECK(model.joints[0].q_index == -1);
  CHECK(!model.joints[0].has_position_limits);
  CHECK(model.joints[0].origin_xyz == std::array<double, 3>{0, 0, 0.5});
  CHECK(model.QNames() == std::vector<std::string>{"shoulder"});
}

TEST_CASE("revolute lower == upper is unlimited; continuous ignores position limits", "[urdf]") {
  const RobotModel zero =
      Load(OneJoint("<limit lower=\"0\" upper=\"0\" effort=\"3\" velocity=\"4\"/>"));
  CHECK(!zero.joints[0].has_position_limits);
  CHECK(zero.joints[0].effort_limit == 3);
  CHECK(zero.joints[0].velocity_limit == 4);
  const std::vector<JointControl> control = DefaultJointControl(zero);
  REQUIRE(control.size() == 1);
  CHECK(control[0].lower == -std::numeric_limits<float>::infinity());
  CHECK(control[0].upper == std::numeric_limits<float>::infinity());
  CHECK(control[0].effort_limit == 3.0f);
  CHECK(control[0].velocity_limit == 4.0f);

  const RobotModel continuous = Load(OneJoint(kLimit, "continuous"));
  CHECK(continuous.joints[0].type == RobotJointType::kContinuous);
  CHECK(!continuous.joints[0].has_position_limits);
  CHECK(continuous.joints[0].effort_limit == 5);

  const RobotModel bare = Load(OneJoint("", "continuous"));  // no <limit>: everything unlimited
  const std::vector<JointControl> bare_control = DefaultJointControl(bare);
  CHECK(bare_control[0].effort_limit == std::numeric_limits<float>::infinity());
  CHECK(bare_control[0].velocity_limit == std::numeric_limits<float>::infinity());

  const RobotModel limited = Load(OneJoint(kLimit));
  CHECK(limited.joints[0].has_position_limits);
  CHECK(limited.joints[0].lower == -1);
  CHECK(limited.joints[0].upper == 1);
}

TEST_CASE("negative and non-unit axes are normalised", "[urdf]") {
  const RobotModel model = Load(OneJoint("<axis xyz=\"0 0 -2\"/>" + kLimit));
  CHECK(model.joints[0].axis == std::array<double, 3>{0, 0, -1});
  const RobotModel skew = Load(OneJoint("<axis xyz=\"3 -4 0\"/>" + kLimit, "prismatic"));
  CHECK(skew.joints[0].axis[0] == Approx(0.6).margin(1e-15));
  CHECK(skew.joints[0].axis[1] == Approx(-0.8).margin(1e-15));
  CHECK(skew.joints[0].axis[2] == 0);
}

TEST_CASE("a joint and a link may share a name", "[urdf]") {
  const RobotModel model = Load(R"(<robot name="r"><link name="base"/><link name="elbow"/>
    <joint name="elbow" type="continuous"><parent link="base"/><child link="elbow"/></joint>
  </robot>)");
  CHECK(model.links == std::vector<std::string>{"base", "elbow"});
  CHECK(model.QNames() == std::vector<std::string>{"elbow"});
}

TEST_CASE("rpy with pitch at +-pi/2 keeps the rotation the file describes", "[urdf]") {
  // At pitch +-pi/2 roll and yaw act about the same axis: a round trip through roll-pitch-yaw
  // would fold them together and may not give back the same rotation.
  for (const test::Vector3d rpy :
       {test::Vector3d{0.3, M_PI / 2, -0.7}, test::Vector3d{-1.1, -M_PI / 2, 0.4},
        test::Vector3d{2.5, 1.5707963267948966, 2.9}}) {
    char origin[160];
    std::snprintf(origin, sizeof(origin), "<origin xyz=\"0.1 0.2 0.3\" rpy=\"%.17g %.17g %.17g\"/>",
                  rpy[0], rpy[1], rpy[2]);
    const RobotModel model = Load(OneJoint(origin + kLimit));
    INFO(origin);
    CHECK(RotationAngleBetween(OriginMatrix(model.joints[0]), RpyMatrix(rpy)) < 1e-12);
    const auto& q = model.joints[0].origin_quat;
    CHECK(std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) ==
          Approx(1).margin(1e-15));
  }
}

TEST_CASE("joints inside transmission and ros2_control are not kinematic", "[urdf]") {
  const RobotModel model = Load(R"(<robot name="r"><link name="a"/><link name="b"/>
    <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
    <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
      <joint name="j"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
      <joint name="ghost"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
      <actuator name="m"><mechanicalReduction>1</mechanicalReduction></actuator>
    </transmission>
    <ros2_control name="hw" type="system">
      <joint name="other"><command_interface name="position"/></joint>
    </ros2_control>
  </robot>)");
  CHECK(model.joints.size() == 1);
  CHECK(model.QNames() == std::vector<std::string>{"j"});
}

TEST_CASE("CRLF line endings load like LF", "[urdf]") {
  const std::string lf =
      "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n<link name=\"a\"/>\n"
      "<link name=\"b\"/>\n<joint name=\"j\" type=\"revolute\">\n"
      "<parent link=\"a\"/>\n<child link=\"b\"/>\n<axis xyz=\"0 1 0\"/>\n" +
      kLimit + "\n</joint>\n</robot>\n";
  std::string crlf;
  for (char c : lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const RobotModel a = Load(lf), b = Load(crlf);
  CHECK(a.links == b.links);
  CHECK(a.joints[0].axis == b.joints[0].axis);
  CHECK(b.joints[0].upper == 1);
}

TEST_CASE("mimic chains resolve to the independent joint and compose", "[urdf]") {
  const RobotModel model = Load(R"(<robot name="r">
    <link name="l0"/><link name="l1"/><link name="l2"/><link name="l3"/>
    <joint name="c" type="continuous"><parent link="l2"/><child link="l3"/>
      <mimic joint="b" multiplier="2" offset="0.5"/></joint>
    <joint name="a" type="continuous"><parent link="l0"/><child link="l1"/></joint>
    <joint name="b" type="prismatic"><parent link="l1"/><child link="l2"/>
      <limit lower="-1" upper="1" effort="1" velocity="1"/>
      <mimic joint="a" multiplier="3" offset="-1"/></joint>
  </robot>)");
  REQUIRE(model.dof() == 1);
  CHECK(model.QNames() == std::vector<std::string>{"a"});
  const RobotJoint& b = JointNamed(model, "b");
  const RobotJoint& c = JointNamed(model, "c");
  CHECK(b.q_index == 0);
  CHECK(b.mimic_multiplier == 3);
  CHECK(b.mimic_offset == -1);
  // c = 2 b + 0.5 = 2 (3 a - 1) + 0.5 = 6 a - 1.5
  CHECK(c.q_index == 0);
  CHECK(c.mimic_multiplier == 6);
  CHECK(c.mimic_offset == -1.5);
}

TEST_CASE("a floating base adds 7 leading q values", "[urdf]") {
  UrdfOptions options;
  options.floating_base = true;
  const RobotModel model = Load(OneJoint(kLimit), options);
  CHECK(model.floating_base);
  CHECK(model.dof() == 1);
  CHECK(model.q_count() == 8);
  CHECK(model.QNames() == std::vector<std::string>{"base_x", "base_y", "base_z", "base_qw",
                                                   "base_qx", "base_qy", "base_qz", "j"});
  std::vector<KinematicJoint> joints;
  const KinematicTree tree = BuildKinematicTree(model, joints);
  CHECK(tree.floating_base);
  CHECK(tree.q_count == 8);
  CHECK(tree.joint_q_count() == 1);
  CHECK(DefaultJointControl(model).size() == 1);
}

TEST_CASE("BuildKinematicTree converts every joint to float", "[urdf]") {
  const RobotModel model = Load(R"(<robot name="r">
    <link name="l0"/><link name="l1"/><link name="l2"/><link name="l3"/>
    <joint name="a" type="continuous"><parent link="l0"/><child link="l1"/>
      <origin xyz="0.1 -0.2 0.3" rpy="0.4 0.5 0.6"/><axis xyz="0 2 0"/></joint>
    <joint name="f" type="fixed"><parent link="l1"/><child link="l2"/><origin xyz="1 2 3"/></joint>
    <joint name="p" type="prismatic"><parent link="l2"/><child link="l3"/>
      <limit lower="-1" upper="1" effort="1" velocity="1"/>
      <mimic joint="a" multiplier="-0.5" offset="0.25"/></joint>
  </robot>)");
  std::vector<KinematicJoint> joints;
  const KinematicTree tree = BuildKinematicTree(model, joints);
  REQUIRE(tree.joint_count == 3);
  CHECK(tree.joints == joints.data());
  CHECK(tree.link_count() == 4);
  CHECK(tree.q_count == 1);
  CHECK(!tree.floating_base);
  CHECK(joints[0].motion == JointMotion::kRevolute);
  CHECK(joints[0].q_index == 0);
  CHECK(joints[0].axis[1] == 1.0f);
  CHECK(joints[0].origin_translation[1] == -0.2f);
  for (int k = 0; k < 4; ++k)
    CHECK(joints[0].origin_rotation[k] == static_cast<float>(model.joints[0].origin_quat[k]));
  CHECK(joints[1].motion == JointMotion::kFixed);
  CHECK(joints[1].q_index == -1);
  CHECK(joints[1].parent_link == 1);
  CHECK(joints[2].motion == JointMotion::kPrismatic);
  CHECK(joints[2].q_index == 0);
  CHECK(joints[2].multiplier == -0.5f);
  CHECK(joints[2].offset == 0.25f);
}

TEST_CASE("default gains are critically damped for unit inertia", "[urdf]") {
  Result<RobotModel> model = LoadUrdfFile(SWARM_ROBOT_ASSETS_DIR "/panda_arm.urdf");
  REQUIRE(model.ok());
  const std::vector<JointControl> control = DefaultJointControl(*model);
  REQUIRE(control.size() == 7);
  for (size_t k = 0; k < 7; ++k) {
    const RobotJoint& joint = model->joints[model->dof_joints[k]];
    CHECK(control[k].kd * control[k].kd == Approx(4 * control[k].kp / control[k].inverse_inertia));
    CHECK(control[k].lower == static_cast<float>(joint.lower));
    CHECK(control[k].upper == static_cast<float>(joint.upper));
    CHECK(control[k].effort_limit == static_cast<float>(joint.effort_limit));
    CHECK(control[k].velocity_limit == static_cast<float>(joint.velocity_limit));
  }
}

TEST_CASE("FindLink names the missing link and lists the links", "[urdf]") {
  const RobotModel model = Load(OneJoint(kLimit));
  REQUIRE(model.FindLink("b").ok());
  CHECK(model.FindLink("b").value() == 1);
  const Result<size_t> missing = model.FindLink("hand");
  REQUIRE(!missing.ok());
  CHECK_THAT(missing.status().message(),
             Catch::Contains("'hand'") && Catch::Contains("'r'") && Catch::Contains("a, b"));
}

TEST_CASE("RobotModelJson escapes names", "[urdf]") {
  const RobotModel model = Load(R"(<robot name="say &quot;hi&quot;\now"><link name="a"/>
    <link name="b&#9;c"/><joint name="j" type="continuous"><parent link="a"/><child link="b&#9;c"/>
    </joint></robot>)");
  CHECK(RobotModelJson(model) ==
        R"({"name": "say \"hi\"\\now", "joints": ["j"], "links": ["a", "b\tc"], "dof": 1, )"
        R"("floating_base": false})");
  UrdfOptions options;
  options.floating_base = true;
  const RobotModel floating = Load(OneJoint(kLimit), options);
  CHECK(RobotModelJson(floating) ==
        R"({"name": "r", "joints": ["base_x", "base_y", "base_z", "base_qw", "base_qx", )"
        R"("base_qy", "base_qz", "j"], "links": ["a", "b"], "dof": 1, "floating_base": true})");
}

// urdfdom reports through console_bridge's process-wide log: loading must neither print through
// the application's handler nor leave its own in place.
class RecordingHandler : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel, const char*, int) override {
    messages.push_back(text);
  }
  std::vector<std::string> messages;
};

TEST_CASE("loading leaves the application's console_bridge handler alone", "[urdf]") {
  console_bridge::OutputHandler* const original = console_bridge::getOutputHandler();
  const console_bridge::LogLevel original_level = console_bridge::getLogLevel();
  RecordingHandler handler;
  console_bridge::useOutputHandler(&handler);  // and `original` becomes the previous handler
  console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_DEBUG);
  CHECK(!LoadUrdfString(OneJoint("", "hinge")).ok());  // urdfdom logs errors for this one
  CHECK(LoadUrdfString(OneJoint(kLimit)).ok());        // and debug messages for this one
  CHECK(handler.messages.empty());
  CHECK(console_bridge::getOutputHandler() == &handler);
  CHECK(console_bridge::getLogLevel() == console_bridge::CONSOLE_BRIDGE_LOG_DEBUG);
  console_bridge::log(__FILE__, __LINE__, console_bridge::CONSOLE_BRIDGE_LOG_ERROR, "after");
  CHECK(handler.messages == std::vector<std::string>{"after"});
  console_bridge::restorePreviousOutputHandler();
  CHECK(console_bridge::getOutputHandler() == original);
  console_bridge::useOutputHandler(original);  // no pointer to `handler` survives the test
  console_bridge::setLogLevel(original_level);
}

}  // namespace
}  // namespace swarm
