// Robots touching the world through their collision shapes (TorqueModeConfig::world_contacts,
// engine/robots/world_contacts.h) against MuJoCo 2.2.2 stepping the same scenes:
// - a quadruped standing from its keyframe under its position actuators (the Menagerie's Go2 and
//   ANYmal C on their scenes' floor, the 2.2.2-compatible copies of mjcf_peer.h): the base height
//   after 2 s within 1 cm of MuJoCo's;
// - a free cube (the batch's robot is the cube) resting on the floor and on a table (a world
//   box): the normal forces sum to m g within 1% (1e-6 measured), it stays put (no drift over
//   the second second: 1e-6 m) and rests as deep as MuJoCo's within 0.2 mm (0.1 mm on the table,
//   where MuJoCo's box-box distance is the less exact);
// - the cube sliding under a constant push (gravity tilted: the same force on a lone body): the
//   distance after 1 s within 10% of MuJoCo's (0.05% measured) and within 1% of Coulomb's
//   (a = push - mu g; 0.23%);
// - a capsule rolling down a 15 degree slope (a tilted plane): the distance after 1 s within 10% of
//   MuJoCo's (0.02%) and within 1% of rolling without slipping (a = g sin(slope) / (1 + I / m r^2);
//   0.08%).
// Measured: the quadrupeds' base heights after 2 s differ from MuJoCo's by 7.5 mm (Go2) and
// 8.9 mm (ANYmal C), both standing higher (MuJoCo's feet creep outward under its soft friction).
// MuJoCo runs its solver to convergence (100 iterations: the Menagerie's MJX files set 1) with an
// elliptic cone in the scenes written here, which is Coulomb's; swarm's contacts are elliptic.
#include <mujoco/mujoco.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/robot_batch.h"
#include "tests/engine/robots/coupled_gripper_scene.h"
#include "tests/engine/robots/mjcf_peer.h"

namespace swarm {
namespace {

const MjcfRobotKeyframe& Keyframe(const MjcfRobot& robot, const std::string& name) {
  for (const MjcfRobotKeyframe& key : robot.keyframes) {
    if (key.name == name) return key;
  }
  FAIL("no keyframe " << name);
  return robot.keyframes.front();
}

// One robot with its contacts (MjcfContactConfig) at q.
Result<RobotBatch> ContactBatch(MemoryAccountant& memory, const MjcfRobot& robot,
                                const std::vector<double>& q) {
  Result<RobotBatchConfig> config = MjcfContactConfig(robot);
  REQUIRE(config.ok());
  Result<RobotBatch> batch = RobotBatch::Create(memory, robot.model, 1, *config);
  if (!batch.ok()) FAIL(batch.status().message());
  for (size_t k = 0; k < q.size(); ++k) batch->q().Array(k)[0] = float(q[k]);
  return batch;
}

// Base heights of swarm's batch and MuJoCo after `seconds` from keyframe `key` held by its ctrl.
struct Heights {
  double swarm = 0.0, mujoco = 0.0;
};

Heights StandFromKeyframe(const test::MjcfPeer& peer, const std::string& key, double seconds) {
  const MjcfRobot& robot = peer.robot;
  mjModel* m = peer.mujoco.get();
  m->opt.iterations = 100;  // converged: the files' one iteration is MJX's setting
  test::MujocoData data(mj_makeData(m));
  const int key_id = mj_name2id(m, mjOBJ_KEY, key.c_str());
  REQUIRE(key_id >= 0);
  mj_resetDataKeyframe(m, data.get(), key_id);
  const MjcfRobotKeyframe& frame = Keyframe(robot, key);
  MemoryAccountant memory;
  ThreadPool pool(1);
  Result<RobotBatch> batch = ContactBatch(memory, robot, frame.q);
  for (size_t a = 0; a < frame.ctrl.size(); ++a) batch->ctrl().Array(a)[0] = float(frame.ctrl[a]);
  const float dt = static_cast<float>(robot.timestep);
  const int steps = static_cast<int>(std::lround(seconds / robot.timestep));
  for (int step = 0; step < steps; ++step) {
    const Status status = batch->TorqueStep(pool, dt, TorqueController::kActuators);
    if (!status.ok()) FAIL(status.message());
    mj_step(m, data.get());
  }
  return {batch->q().Array(2)[0], data->qpos[2]};
}

// A scene written to the build folder, loaded by swarm and MuJoCo alike.
struct Scene {
  MjcfRobot robot;
  test::MujocoModel mujoco;
};

Scene WriteScene(const std::string& name, const std::string& xml) {
  std::filesystem::create_directories(SWARM_MUJOCO_SCENE_DIR);
  const std::string path = std::string(SWARM_MUJOCO_SCENE_DIR) + "/" + name + ".xml";
  std::ofstream(path) << xml;
  Result<MjcfRobot> robot = LoadMjcfFile(path);
  if (!robot.ok()) FAIL(robot.status().message());
  return {std::move(robot).value(), test::LoadMujoco(path)};
}

// A world of a floor (and what `world` adds) with one free body `object` (its geoms), gravity
// `gravity`, friction `friction`.
std::string ObjectScene(const std::string& world, const std::string& object,
                        const std::string& gravity, double friction) {
  return "<mujoco model=\"object\">\n"
         "  <option timestep=\"0.002\" cone=\"elliptic\" gravity=\"" +
         gravity +
         "\"/>\n"
         "  <default><geom friction=\"" +
         std::to_string(friction) +
         " 0.005 0.0001\"/></default>\n"
         "  <worldbody>\n"
         "    <geom name=\"floor\" type=\"plane\" size=\"0 0 0.05\"/>\n" +
         world + "    " + object +
         "\n"
         "  </worldbody>\n"
         "</mujoco>\n";
}

// The lone body's state after `seconds` in swarm and MuJoCo (x y z of its origin), and swarm's
// normal forces summed over its contacts at the end and its position one second before.
struct Motion {
  double swarm[3] = {0, 0, 0}, mujoco[3] = {0, 0, 0}, swarm_before[3] = {0, 0, 0};
  double normal_force = 0.0;
};

Motion Simulate(const Scene& scene, double seconds) {
  const MjcfRobot& robot = scene.robot;
  const mjModel* m = scene.mujoco.get();
  test::MujocoData data(mj_makeData(m));
  mj_forward(m, data.get());
  MemoryAccountant memory;
  ThreadPool pool(1);
  Result<RobotBatch> batch = ContactBatch(memory, robot, robot.q0);
  const float dt = static_cast<float>(robot.timestep);
  const int steps = static_cast<int>(std::lround(seconds / robot.timestep));
  const int second_before = steps - static_cast<int>(std::lround(1.0 / robot.timestep));
  Motion motion;
  for (int step = 0; step < steps; ++step) {
    if (step == second_before) {
      for (int k = 0; k < 3; ++k) motion.swarm_before[k] = batch->q().Array(k)[0];
    }
    const Status status = batch->TorqueStep(pool, dt, TorqueController::kNone);
    if (!status.ok()) FAIL(status.message());
    mj_step(m, data.get());
  }
  for (int k = 0; k < 3; ++k) {
    motion.swarm[k] = batch->q().Array(k)[0];
    motion.mujoco[k] = data->qpos[k];
  }
  const ConstLanesView forces = batch->contact_forces();
  for (size_t c = 0; c < forces.arrays; ++c) motion.normal_force += forces.Array(c)[0];
  return motion;
}

}  // namespace

TEST_CASE("world contacts: a cube rests on the floor and on a table with m g and no drift",
          "[mujoco]") {
  const std::string cube =
      "<body pos=\"0.1 0.2 Z\"><freejoint/>"
      "<geom type=\"box\" size=\"0.05 0.05 0.05\" mass=\"1\"/></body>";
  const std::string table =
      "<geom name=\"table\" type=\"box\" pos=\"0 0 0.4\" size=\"0.5 0.5 0.4\"/>\n";
  for (bool on_table : {false, true}) {
    INFO((on_table ? "on the table" : "on the floor"));
    std::string body = cube;
    body.replace(body.find('Z'), 1, on_table ? "0.85" : "0.05");
    const Scene scene = WriteScene(on_table ? "cube_on_table" : "cube_on_floor",
                                   ObjectScene(on_table ? table : "", body, "0 0 -9.81", 1.0));
    const Motion motion = Simulate(scene, 2.0);
    INFO("normal force " << motion.normal_force << " N; height swarm " << motion.swarm[2]
                         << " MuJoCo " << motion.mujoco[2]);
    CHECK(std::abs(motion.normal_force - 9.81) < 0.01 * 9.81);
    for (int k = 0; k < 3; ++k) {
      INFO("axis " << k << " moved " << motion.swarm[k] - motion.swarm_before[k]);
      CHECK(std::abs(motion.swarm[k] - motion.swarm_before[k]) < 1e-6);
    }
    CHECK(std::abs(motion.swarm[0] - 0.1) < 1e-5);
    CHECK(std::abs(motion.swarm[1] - 0.2) < 1e-5);
    CHECK(std::abs(motion.swarm[2] - motion.mujoco[2]) < 2e-4);
  }
}

TEST_CASE("world contacts: a pushed cube slides as MuJoCo's and as Coulomb's", "[mujoco]") {
  // Friction 0.3 against a push of 4 m/s^2 per kg: a = 4 - 0.3 g.
  const Scene scene = WriteScene(
      "cube_pushed", ObjectScene("",
                                 "<body pos=\"0 0 0.05\"><freejoint/>"
                                 "<geom type=\"box\" size=\"0.05 0.05 0.05\" mass=\"1\"/></body>",
                                 "4 0 -9.81", 0.3));
  const Motion motion = Simulate(scene, 1.0);
  const double coulomb = 0.5 * (4.0 - 0.3 * 9.81);
  INFO("distance after 1 s: swarm " << motion.swarm[0] << " m, MuJoCo " << motion.mujoco[0]
                                    << " m, Coulomb " << coulomb << " m");
  CHECK(std::abs(motion.swarm[0] - motion.mujoco[0]) < 0.1 * motion.mujoco[0]);
  CHECK(std::abs(motion.swarm[0] - coulomb) < 0.01 * coulomb);
  CHECK(std::abs(motion.swarm[1]) < 1e-4);
}

TEST_CASE("world contacts: a capsule rolls down a slope as MuJoCo's and without slipping",
          "[mujoco]") {
  // A slope of 15 degrees about y (down towards +x); the capsule's axis along y, resting on it.
  const double slope = 15.0 * std::numbers::pi / 180.0, radius = 0.05, half = 0.1;
  const double normal[3] = {std::sin(slope), 0.0, std::cos(slope)};
  std::string slope_geom =
      "<geom name=\"slope\" type=\"plane\" size=\"0 0 0.05\" pos=\"0 0 1\" "
      "euler=\"0 15 0\"/>\n";
  std::string capsule = "<body pos=\"" + std::to_string(radius * normal[0]) + " 0 " +
                        std::to_string(1.0 + radius * normal[2]) +
                        "\"><freejoint/><geom type=\"capsule\" size=\"" + std::to_string(radius) +
                        " " + std::to_string(half) + "\" euler=\"90 0 0\" mass=\"1\"/></body>";
  const Scene scene =
      WriteScene("capsule_on_slope", ObjectScene(slope_geom, capsule, "0 0 -9.81", 1.0));
  const Motion motion = Simulate(scene, 1.0);
  // Rolling without slipping: a = g sin / (1 + I / (m r^2)), I about the axis of a cylinder of
  // length 2 half and two hemispheres of the capsule's density.
  const double cylinder = std::numbers::pi * radius * radius * 2.0 * half;
  const double ball = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  const double share = cylinder / (cylinder + ball);
  const double inertia = share * 0.5 * radius * radius + (1.0 - share) * 0.4 * radius * radius;
  const double along = 0.5 * 9.81 * std::sin(slope) / (1.0 + inertia / (radius * radius));
  const auto distance = [&](const double* end) {
    return std::hypot(end[0] - radius * normal[0], end[2] - (1.0 + radius * normal[2]));
  };
  INFO("distance after 1 s: swarm " << distance(motion.swarm) << " m, MuJoCo "
                                    << distance(motion.mujoco) << " m, rolling " << along << " m");
  CHECK(std::abs(distance(motion.swarm) - distance(motion.mujoco)) < 0.1 * distance(motion.mujoco));
  CHECK(std::abs(distance(motion.swarm) - along) < 0.01 * along);
  CHECK(std::abs(motion.swarm[1]) < 1e-4);
}

TEST_CASE("world contacts: quadrupeds stand from their keyframes as MuJoCo's do", "[mujoco]") {
  for (const auto& [folder, file] : {std::pair{"unitree_go2", "scene_mjx.xml"},
                                     std::pair{"anybotics_anymal_c", "scene_mjx.xml"}}) {
    INFO(folder);
    const test::MjcfPeer peer = test::PrepareMjcfPeer(folder, file);
    const Heights heights = StandFromKeyframe(peer, peer.robot.keyframes.front().name, 2.0);
    INFO("base height after 2 s: swarm " << heights.swarm << " m, MuJoCo " << heights.mujoco
                                         << " m");
    CHECK(std::abs(heights.swarm - heights.mujoco) < 0.01);
  }
}

}  // namespace swarm

namespace swarm {

TEST_CASE("world contacts: a gripper rests on its coupled fingers as MuJoCo's", "[mujoco]") {
  // A tree with couplings (tests/engine/robots/coupled_gripper_scene.h).
  const std::string xml = test::kCoupledGripperScene;
  const Scene scene = WriteScene("gripper_on_fingers", xml);
  REQUIRE(std::any_of(scene.robot.model.joints.begin(), scene.robot.model.joints.end(),
                      [](const RobotJoint& joint) { return joint.is_mimic; }));
  const Motion motion = Simulate(scene, 2.0);
  INFO("normal force " << motion.normal_force << " N; height swarm " << motion.swarm[2]
                       << " MuJoCo " << motion.mujoco[2]);
  CHECK(std::abs(motion.normal_force - 0.7 * 9.81) < 0.01 * 0.7 * 9.81);
  for (int k = 0; k < 3; ++k) {
    INFO("axis " << k << " moved " << motion.swarm[k] - motion.swarm_before[k]);
    CHECK(std::abs(motion.swarm[k] - motion.swarm_before[k]) < 1e-6);
  }
  CHECK(std::abs(motion.swarm[2] - motion.mujoco[2]) < 2e-4);
}

}  // namespace swarm
