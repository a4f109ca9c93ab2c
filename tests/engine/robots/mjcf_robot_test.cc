// MJCF files as swarm robots (swarm/robots/mjcf_robot.h): the Menagerie files of ../shared/mjcf
// with the layout MuJoCo 2.2.2 compiles for them (degrees of freedom, q and velocity counts,
// actuators and keyframes; robot_mujoco_peer_test compares every value with MuJoCo), the mapping
// rules on small models (several joints in a body, joint anchors, refs, joint equalities,
// inertia from geoms against the solids' formulas) and every refusal, naming file and line.
#include "swarm/robots/mjcf_robot.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "swarm/robots/dynamics_model.h"
#include "tests/support/scratch_files.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;

const std::string kMjcf = SWARM_SHARED_MJCF_DIR;

MjcfRobot Load(const std::string& path) {
  Result<MjcfRobot> robot = LoadMjcfFile(path);
  if (!robot.ok()) FAIL(robot.status().message());
  return std::move(robot).value();
}

MjcfRobot LoadText(const std::string& name, const std::string& xml) {
  const std::string path = test::ScratchPath("mjcf_robot_test", name);
  std::ofstream(path) << xml;
  return Load(path);
}

Status LoadError(const std::string& name, const std::string& xml) {
  const std::string path = test::ScratchPath("mjcf_robot_test", name);
  std::ofstream(path) << xml;
  Result<MjcfRobot> robot = LoadMjcfFile(path);
  REQUIRE_FALSE(robot.ok());
  return robot.status();
}

}  // namespace

TEST_CASE("MJCF robots: the Menagerie files load with MuJoCo's layout") {
  struct Case {
    const char* file;
    bool floating;
    size_t dof, actuators, keyframes;
  };
  // MuJoCo 2.2.2 on the compatible copies: nv 18 (ANYmal, Go2: 6 + 12), 35 (G1: 6 + 29), 9 (the
  // Panda: its second finger follows the first through an equality, one column here).
  const Case cases[] = {{"anybotics_anymal_c/anymal_c_mjx.xml", true, 12, 12, 1},
                        {"anybotics_anymal_c/scene_mjx.xml", true, 12, 12, 1},
                        {"unitree_go2/go2_mjx.xml", true, 12, 12, 1},
                        {"unitree_go2/scene_mjx.xml", true, 12, 12, 1},
                        {"unitree_g1/g1_mjx.xml", true, 29, 29, 0},
                        {"unitree_g1/scene_mjx.xml", true, 29, 29, 2},
                        {"franka_emika_panda/mjx_panda.xml", false, 8, 8, 0},
                        {"franka_emika_panda/mjx_scene.xml", false, 8, 8, 0}};
  for (const Case& c : cases) {
    INFO(c.file);
    const MjcfRobot robot = Load(kMjcf + "/" + c.file);
    CHECK(robot.model.floating_base == c.floating);
    CHECK(robot.model.dof() == c.dof);
    CHECK(robot.actuators.size() == c.actuators);
    CHECK(robot.keyframes.size() == c.keyframes);
    CHECK(robot.armature.size() == c.dof);
    CHECK(robot.q0.size() == robot.model.q_count());
    for (const MjcfRobotKeyframe& key : robot.keyframes) {
      CHECK(key.q.size() == robot.model.q_count());
      CHECK(key.velocities.size() == robot.model.velocity_count());
      CHECK(key.ctrl.size() == robot.actuators.size());
    }
    CHECK(robot.link_body.size() == robot.model.links.size());
  }
}

}  // namespace swarm

namespace swarm {

TEST_CASE("MJCF robots: what would change the physics and is not read is refused") {
  struct Case {
    const char* what;
    const char* body;  // inside <mujoco>, after a one-joint robot unless it replaces it
    const char* message;
  };
  const std::string robot = R"(<worldbody><body name="b"><joint name="j"/>
    <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/></body></worldbody>)";
  const Case cases[] = {
      {"a tendon", "<tendon><fixed name=\"t\"><joint joint=\"j\" coef=\"1\"/></fixed></tendon>",
       "<tendon> is not supported"},
      {"an unknown attribute", "<option timestep=\"0.01\" noise=\"1\"/>",
       "<option> attribute noise is not supported"},
      {"fluid forces", "<option density=\"1.2\"/>", "density other than 0 is not supported"},
      {"an unknown integrator", "<option integrator=\"Leapfrog\"/>", "integrator \"Leapfrog\""},
      {"a disabled flag swarm does not honour", "<option><flag frictionloss=\"disable\"/></option>",
       "flag frictionloss=\"disable\" is not supported"},
      {"a velocity actuator", "<actuator><velocity joint=\"j\"/></actuator>",
       "<velocity> is not supported"},
      {"a tendon transmission", "<actuator><motor tendon=\"t\"/></actuator>",
       "attribute tendon is not supported"},
      {"a muscle", "<actuator><general joint=\"j\" dyntype=\"muscle\"/></actuator>",
       "dyntype \"muscle\" is not supported"},
      {"a weld", "<equality><weld body1=\"b\"/></equality>", "<weld> is not supported"},
      {"an actuator on a missing joint", "<actuator><motor joint=\"nope\"/></actuator>",
       "names joint 'nope'"},
      {"a keyframe of the wrong length", "<keyframe><key qpos=\"1 2\"/></keyframe>",
       "qpos has more than 1 values, the model 1"},
      {"keyframe activations", "<keyframe><key act=\"1\"/></keyframe>",
       "<key> act is not supported"},
      {"a position actuator with negative kp",
       "<actuator><position joint=\"j\" kp=\"-1\"/></actuator>", "kp must be >= 0"},
      {"inheritrange on an unlimited joint",
       "<actuator><position joint=\"j\" inheritrange=\"1\"/></actuator>",
       "inheritrange needs a limited joint"},
      {"an exclude of a missing body", "<contact><exclude body1=\"b\" body2=\"c\"/></contact>",
       "body2 names body 'c'"},
      {"a pair of a missing geom", "<contact><pair geom1=\"g\" geom2=\"h\"/></contact>",
       "geom1 names geom 'g'"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const Status status = LoadError("refused.xml", "<mujoco>" + robot + c.body + "</mujoco>");
    CHECK_THAT(status.message(), Contains(c.message));
    CHECK_THAT(status.message(), Contains("refused.xml:"));
  }

  const Case models[] = {
      {"a ball joint",
       "<worldbody><body><joint type=\"ball\"/><geom size=\"0.1\"/></body></worldbody>",
       "is a ball joint"},
      {"a joint spring",
       "<worldbody><body><joint stiffness=\"10\"/><geom size=\"0.1\"/></body></worldbody>",
       "joint springs are not supported"},
      {"a free joint below another body",
       "<worldbody><body><geom size=\"0.1\"/><body><freejoint/><geom size=\"0.1\"/></body>"
       "</body></worldbody>",
       "free joint in a body that is not a child of the world body"},
      {"an object beside the robot",
       "<worldbody><body name=\"arm\"><joint/><geom size=\"0.1\"/></body>"
       "<body name=\"cube\"><freejoint/><geom type=\"box\" size=\"0.1 0.1 0.1\"/></body>"
       "</worldbody>",
       "body 'cube' is a second tree with joints"},
      {"nothing that moves", "<worldbody><body><geom size=\"0.1\"/></body></worldbody>",
       "the model has no joints"},
      {"a mesh that would give inertia",
       "<worldbody><body><joint/><geom type=\"mesh\" mesh=\"m\"/></body></worldbody>",
       "is a mesh whose volume would give its body's inertia"},
      {"a nonlinear equality",
       "<worldbody><body name=\"a\"><joint name=\"j1\"/><geom size=\"0.1\"/><body><joint "
       "name=\"j2\"/><geom size=\"0.1\"/></body></body></worldbody><equality><joint "
       "joint1=\"j1\" joint2=\"j2\" polycoef=\"0 1 0.5 0 0\"/></equality>",
       "polycoef must be linear"},
      {"an equality of a joint with itself (found by the fuzzer)",
       "<worldbody><body><joint name=\"j\"/><geom size=\"0.1\"/></body></worldbody><equality>"
       "<joint joint1=\"j\" joint2=\"j\"/></equality>",
       "couples joint 'j' with itself"},
      {"joint limits of two softnesses",
       "<worldbody><body><joint range=\"-1 1\" solreflimit=\"0.01 1\"/><geom size=\"0.1\"/>"
       "<body><joint range=\"-1 1\"/><geom size=\"0.1\"/></body></body></worldbody>",
       "has its own solreflimit or solimplimit"},
      {"a gravity-compensated body",
       "<worldbody><body gravcomp=\"1\"><joint/><geom size=\"0.1\"/></body></worldbody>",
       "gravcomp is not supported"},
  };
  for (const Case& c : models) {
    INFO(c.what);
    const Status status =
        LoadError("refused_model.xml", std::string("<mujoco>") + c.body + "</mujoco>");
    CHECK_THAT(status.message(), Contains(c.message));
    CHECK_THAT(status.message(), Contains("refused_model.xml"));
  }
}

TEST_CASE("MJCF robots: purely visual elements are ignored") {
  const MjcfRobot robot = LoadText("visual.xml", R"(<mujoco model="shown">
    <visual><headlight diffuse="0.6 0.6 0.6"/><global azimuth="120"/></visual>
    <statistic center="0 0 0.3" extent="1"/>
    <asset><texture type="skybox" builtin="gradient" width="8" height="8"/>
      <material name="m" rgba="1 0 0 1"/><mesh name="shape" file="missing.obj"/></asset>
    <default><material specular="0.5"/><mesh scale="2 2 2"/></default>
    <worldbody><light pos="0 0 2"/><camera name="c" pos="0 -1 0"/>
      <body name="b"><joint name="j"/><geom size="0.1" material="m" rgba="0 1 0 1"/>
        <geom type="mesh" mesh="shape" contype="0" conaffinity="0" group="2" mass="0"/>
        <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/><camera name="d"/></body>
    </worldbody>
    <sensor><jointpos joint="j"/></sensor>
    <custom><numeric name="n" data="1"/></custom>
  </mujoco>)");
  CHECK(robot.model.name == "shown");
  CHECK(robot.model.dof() == 1);
}

TEST_CASE("MJCF robots: a joint between two joints may be massless, coaxial ones may not") {
  // A universal joint: the cross between the two hinges has no mass; the bodies beyond it do.
  const MjcfRobot universal = LoadText("universal.xml", R"(<mujoco><worldbody>
    <body name="arm"><joint name="x" axis="1 0 0"/><joint name="y" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05"/></body></worldbody></mujoco>)");
  CHECK(universal.model.links.size() == 3);  // world, the cross "arm/x", arm
  CHECK(universal.model.links[1] == "arm/x");
  CHECK(universal.model.inertials[1].mass == 0.0);
  DynamicsOptions options;
  options.armature = universal.armature;
  CHECK(DynamicsModel::Build(universal.model, options).ok());

  // Two hinges about the same axis turn the same mass the same way: M is singular.
  const MjcfRobot coaxial = LoadText("coaxial.xml", R"(<mujoco><worldbody>
    <body name="arm"><joint name="a" axis="0 0 1"/><joint name="b" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/></body></worldbody></mujoco>)");
  Result<DynamicsModel> singular = DynamicsModel::Build(coaxial.model, {});
  REQUIRE_FALSE(singular.ok());
  CHECK_THAT(singular.status().message(), Contains("joint 'b' moves no mass"));
  // Armature gives the second column a mass of its own, as in MuJoCo.
  options.armature = {0.0, 0.01};
  CHECK(DynamicsModel::Build(coaxial.model, options).ok());
}

}  // namespace swarm

namespace swarm {

TEST_CASE("MJCF robots: colliding geoms become collision shapes, visual ones do not") {
  // The Go2's 23 collision spheres and its scene's floor; the ANYmal's four feet and the floor
  // (robots_mujoco_peer_test compares every shape with MuJoCo's geoms).
  const MjcfRobot go2 = Load(kMjcf + "/unitree_go2/scene_mjx.xml");
  CHECK(go2.collision_shapes.size() == 24);
  const MjcfRobot anymal = Load(kMjcf + "/anybotics_anymal_c/scene_mjx.xml");
  REQUIRE(anymal.collision_shapes.size() == 5);
  CHECK(anymal.collision_excludes.size() == 10);
  const CollisionShape& floor = anymal.collision_shapes[0];
  CHECK(floor.type == CollisionShapeType::kPlane);
  CHECK(floor.link == -1);
  for (size_t s = 1; s < 5; ++s) {
    CHECK(anymal.collision_shapes[s].type == CollisionShapeType::kSphere);
    CHECK(anymal.model.links[size_t(anymal.collision_shapes[s].link)].find("SHANK") !=
          std::string::npos);
  }
  // A static body's shape sits in the world where the file puts it: a box on a turned table.
  const MjcfRobot table = LoadText("table.xml", R"(<mujoco><compiler angle="degree"/><worldbody>
    <body name="table" pos="1 2 0.5" euler="0 0 90"><geom type="box" size="0.5 0.3 0.02"
      pos="0.1 0 0"/></body>
    <body name="arm"><joint/><geom size="0.1" contype="0" conaffinity="0"/></body>
  </worldbody></mujoco>)");
  REQUIRE(table.collision_shapes.size() == 1);  // the arm's sphere is visual
  const CollisionShape& top = table.collision_shapes[0];
  CHECK(top.link == -1);
  CHECK(std::abs(top.position[0] - 1.0) < 1e-12);  // x 0.1 turned 90 degrees: along y
  CHECK(std::abs(top.position[1] - 2.1) < 1e-12);
  CHECK(std::abs(top.position[2] - 0.5) < 1e-12);
  CHECK(std::abs(std::abs(top.quaternion[2]) - std::sqrt(0.5)) < 1e-12);
  // Colliding meshes and heightfields are not read yet.
  const Status mesh = LoadError("mesh.xml", R"(<mujoco><worldbody><body><joint/>
    <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><geom type="mesh" mesh="m"/>
    </body></worldbody></mujoco>)");
  CHECK_THAT(mesh.message(), Contains("collides but is a mesh"));
  CHECK_THAT(mesh.message(), Contains("mesh.xml:1"));
}

TEST_CASE("MJCF robots: <flag limit=\"disable\"> frees every joint") {
  const MjcfRobot robot = LoadText("no_limits.xml", R"(<mujoco>
    <option><flag limit="disable"/></option>
    <worldbody><body><joint range="-1 1"/><geom size="0.1"/></body></worldbody></mujoco>)");
  CHECK_FALSE(robot.limits_enabled);
  const RobotBatchConfig config = MjcfTorqueConfig(robot);
  REQUIRE(config.control.size() == 1);
  CHECK(std::isinf(config.control[0].lower));
  CHECK(std::isinf(config.control[0].upper));
  const RobotBatchConfig limited = MjcfTorqueConfig(LoadText("limits.xml", R"(<mujoco>
    <worldbody><body><joint range="-1 1"/><geom size="0.1"/></body></worldbody></mujoco>)"));
  CHECK(limited.control.empty());  // the model's own limits (DefaultJointControl)
}

}  // namespace swarm
