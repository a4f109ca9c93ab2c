// MJCF joints (engine/robots/mjcf_joint.h) against MuJoCo 2.2.2's compiled models of the
// Menagerie files (jnt_type, jnt_limited, jnt_range, jnt_axis, dof_damping, dof_armature,
// dof_frictionloss, as mj_loadXML gives them for the 2.2.2-compatible copies; printed to 5-6
// significant digits, hence the 1e-4 relative tolerance), and MuJoCo's unit and limit rules on
// small models.
#include "engine/robots/mjcf_joint.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "tests/support/scratch_files.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;

MjcfDocument Read(const std::string& path) {
  Result<MjcfDocument> document = ReadMjcfFile(path);
  if (!document.ok()) FAIL(document.status().message());
  return std::move(document).value();
}

// Every <joint> and <freejoint> of the worldbody, in document order.
std::vector<uint32_t> Joints(const MjcfDocument& document) {
  std::vector<uint32_t> found, stack{document.Children(0, "worldbody").at(0)};
  while (!stack.empty()) {
    const uint32_t e = stack.back();
    stack.pop_back();
    const std::string& tag = document.elements[e].tag;
    if (tag == "joint" || tag == "freejoint") found.push_back(e);
    const std::vector<uint32_t>& children = document.elements[e].children;
    for (size_t k = children.size(); k-- > 0;) stack.push_back(children[k]);
  }
  return found;
}

std::vector<MjcfJoint> ReadJoints(const MjcfDocument& document) {
  Result<MjcfCompiler> compiler = ReadMjcfCompiler(document);
  REQUIRE(compiler.ok());
  std::vector<MjcfJoint> joints;
  for (uint32_t e : Joints(document)) {
    Result<MjcfJoint> joint = ReadMjcfJoint(document, e, *compiler);
    if (!joint.ok()) FAIL(joint.status().message());
    joints.push_back(*joint);
  }
  return joints;
}

bool Near(double a, double b) { return std::abs(a - b) <= 1e-4 * std::max(1.0, std::abs(b)); }

struct Compiled {
  size_t id;
  MjcfJointType type;
  bool limited;
  double lower, upper;
  std::array<double, 3> axis;
  double damping, armature, frictionloss;
};

void CheckJoints(const std::string& file, const std::vector<Compiled>& expected) {
  INFO(file);
  const std::vector<MjcfJoint> joints =
      ReadJoints(Read(std::string(SWARM_SHARED_MJCF_DIR) + "/" + file));
  for (const Compiled& c : expected) {
    INFO("joint " << c.id << " " << joints.at(c.id).name);
    const MjcfJoint& j = joints.at(c.id);
    CHECK(j.type == c.type);
    CHECK(j.limited == c.limited);
    CHECK(Near(j.range[0], c.lower));
    CHECK(Near(j.range[1], c.upper));
    for (int k = 0; k < 3; ++k) CHECK(Near(j.axis[k], c.axis[k]));
    CHECK(Near(j.damping, c.damping));
    CHECK(Near(j.armature, c.armature));
    CHECK(Near(j.frictionloss, c.frictionloss));
  }
}

}  // namespace

TEST_CASE("MJCF joints: the Menagerie models' joints as MuJoCo 2.2.2 compiles them") {
  using enum MjcfJointType;
  CheckJoints("unitree_go2/go2_mjx.xml",
              {{0, kFree, false, 0, 0, {0, 0, 1}, 0, 0, 0},
               {1, kHinge, true, -1.0472, 1.0472, {1, 0, 0}, 2, 0.01, 0},
               {2, kHinge, true, -1.5708, 3.4907, {0, 1, 0}, 2, 0.01, 0},
               {3, kHinge, true, -2.7227, -0.83776, {0, 1, 0}, 2, 0.01, 0},
               {8, kHinge, true, -0.5236, 4.5379, {0, 1, 0}, 2, 0.01, 0}});
  CheckJoints("anybotics_anymal_c/anymal_c_mjx.xml",
              {{0, kFree, false, 0, 0, {0, 0, 1}, 0, 0, 0},
               {1, kHinge, true, -0.72, 0.49, {1, 0, 0}, 1, 0, 0},
               {2, kHinge, true, -9.42478, 9.42478, {1, 0, 0}, 1, 0, 0}});
  // No autolimits in the G1's file: MuJoCo 3's default (true) limits its ranged joints.
  CheckJoints("unitree_g1/g1_mjx.xml",
              {{0, kFree, false, 0, 0, {0, 0, 1}, 0, 0, 0},
               {1, kHinge, true, -2.5307, 2.8798, {0, 1, 0}, 0, 0.0101775, 0.1},
               {2, kHinge, true, -0.5236, 2.9671, {1, 0, 0}, 0, 0.0251019, 0.1},
               {4, kHinge, true, -0.087267, 2.8798, {0, 1, 0}, 0, 0.0251019, 0.1}});
  CheckJoints("franka_emika_panda/mjx_panda.xml",
              {{6, kHinge, true, -2.8973, 2.8973, {0, 0, 1}, 2, 0.1, 0},
               {7, kSlide, true, 0, 0.04, {0, 1, 0}, 10, 0.1, 0}});
}

TEST_CASE("MJCF joints: angle units, limits and types follow MuJoCo's rules") {
  const std::string path = test::ScratchPath("mjcf_joint_test", "rules.xml");
  std::ofstream(path) << R"(<mujoco><compiler autolimits="true"/>
    <default><joint damping="0.5"/></default>
    <worldbody><body><freejoint/>
      <joint name="degrees" range="-90 45" ref="30" axis="0 0 2"/>
      <joint name="slide" type="slide" range="-0.5 0.25" ref="0.1"/>
      <joint name="ball" type="ball" range="0 60"/>
      <joint name="off" range="-1 1" limited="false"/>
      <joint name="free" type="hinge"/>
    </body></worldbody></mujoco>)";
  const std::vector<MjcfJoint> joints = ReadJoints(Read(path));
  REQUIRE(joints.size() == 6);
  const double degree = std::numbers::pi / 180.0;
  CHECK(joints[0].type == MjcfJointType::kFree);
  CHECK(joints[0].damping == 0.0);  // <freejoint> takes no defaults
  CHECK(joints[1].limited);
  CHECK(std::abs(joints[1].range[0] + 90 * degree) < 1e-15);
  CHECK(std::abs(joints[1].range[1] - 45 * degree) < 1e-15);
  CHECK(std::abs(joints[1].ref - 30 * degree) < 1e-15);
  CHECK(joints[1].axis == std::array<double, 3>{0, 0, 1});
  CHECK(joints[1].damping == 0.5);
  CHECK(joints[2].range == std::array<double, 2>{-0.5, 0.25});  // metres: no angle unit
  CHECK(joints[2].ref == 0.1);
  CHECK(joints[3].type == MjcfJointType::kBall);
  CHECK(std::abs(joints[3].range[1] - 60 * degree) < 1e-15);
  CHECK_FALSE(joints[4].limited);
  CHECK_FALSE(joints[5].limited);
}

TEST_CASE("MJCF joints: bad joints name the rule, element, file and line") {
  struct Case {
    const char* joint;
    const char* expected;
  };
  const Case cases[] = {
      {R"(<joint type="screw"/>)", "type \"screw\": expected hinge, slide, ball or free"},
      {R"(<joint axis="0 0 0"/>)", "axis is zero"},
      {R"(<joint range="1 -1" limited="true"/>)", "needs lower < upper"},
      {R"(<joint type="ball" range="10 60" limited="true"/>)", "must start at 0"},
      {R"(<joint damping="-1"/>)", "damping must be >= 0"},
      {R"(<joint limited="maybe"/>)", "limited \"maybe\""},
  };
  for (const Case& bad : cases) {
    INFO(bad.joint);
    const std::string path = test::ScratchPath("mjcf_joint_test", "bad.xml");
    std::ofstream(path) << "<mujoco><worldbody><body>\n"
                        << bad.joint << "</body></worldbody></mujoco>";
    const MjcfDocument document = Read(path);
    Result<MjcfJoint> joint = ReadMjcfJoint(document, Joints(document).at(0), MjcfCompiler{});
    REQUIRE_FALSE(joint.ok());
    CHECK_THAT(joint.status().message(), Contains("bad.xml:2: <joint> "));
    CHECK_THAT(joint.status().message(), Contains(bad.expected));
  }
  // A range without limited, with autolimits false: MuJoCo 2.2.2's compile error.
  const std::string path = test::ScratchPath("mjcf_joint_test", "autolimits.xml");
  std::ofstream(path) << R"(<mujoco><compiler autolimits="false"/><worldbody><body>
    <joint range="-1 1"/></body></worldbody></mujoco>)";
  const MjcfDocument document = Read(path);
  Result<MjcfCompiler> compiler = ReadMjcfCompiler(document);
  REQUIRE(compiler.ok());
  Result<MjcfJoint> joint = ReadMjcfJoint(document, Joints(document).at(0), *compiler);
  REQUIRE_FALSE(joint.ok());
  CHECK_THAT(joint.status().message(), Contains("neither limited nor compiler autolimits"));
}

}  // namespace swarm
