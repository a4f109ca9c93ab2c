// Contacts of link shapes with world shapes in the torque step (TorqueModeConfig::world_contacts,
// engine/robots/world_contacts.h), on the Menagerie's Go2 on its scene's floor and small scenes
// written here:
//   - what the batch reports: the ground contacts first, then one contact per slot of each world
//     pair (world_contact_pairs), each slot's geometry with the normal pushing the robot (+z from
//     the floor, whichever of the pair's shapes is the robot's), its link and body;
//   - determinism: a Go2 batch under random actuator inputs falling onto the floor gives the
//     golden bits, the same on every SIMD target and thread count, and robot r alone those of
//     robot r among 24;
//   - steady-state steps allocate nothing;
//   - configurations the step cannot model are errors naming the problem.
// The physics against MuJoCo is tests/engine/robots/world_contacts_mujoco_test.cc.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/robot_batch.h"
#include "tests/engine/robots/coupled_gripper_scene.h"
#include "tests/support/for_each_target.h"
#include "tests/support/golden.h"

namespace swarm {
namespace {

constexpr float kDt = 0.002f;

MjcfRobot LoadGo2Scene() {
  Result<MjcfRobot> robot =
      LoadMjcfFile(std::string(SWARM_SHARED_MJCF_DIR) + "/unitree_go2/scene_mjx.xml");
  if (!robot.ok()) FAIL(robot.status().message());
  return std::move(robot).value();
}

MjcfRobot LoadScene(const std::string& xml) {
  Result<MjcfRobot> robot = LoadMjcfString(xml, "scene.xml");
  if (!robot.ok()) FAIL(robot.status().message());
  return std::move(robot).value();
}

RobotBatch Create(MemoryAccountant& memory, const MjcfRobot& robot, size_t robots,
                  const RobotBatchConfig& config) {
  Result<RobotBatch> batch = RobotBatch::Create(memory, robot.model, robots, config);
  if (!batch.ok()) FAIL(batch.status().message());
  return std::move(batch).value();
}

RobotBatchConfig ContactConfig(const MjcfRobot& robot) {
  Result<RobotBatchConfig> config = MjcfContactConfig(robot);
  if (!config.ok()) FAIL(config.status().message());
  return std::move(config).value();
}

// The Go2 on waves of 4 cm (a heightfield of 81 x 81 points over 4 m x 4 m, a formula of x and
// y), written beside the build's other test files.
MjcfRobot LoadGo2OnWaves() {
  std::string heights;
  for (int r = 0; r < 81; ++r) {
    for (int c = 0; c < 81; ++c) {
      heights += std::to_string(std::sin(0.31 * c) * std::cos(0.23 * r + 0.5)) + " ";
    }
  }
  const std::string path =
      (std::filesystem::temp_directory_path() / "swarm_go2_on_waves.xml").string();
  std::ofstream(path) << "<mujoco><include file=\"" SWARM_SHARED_MJCF_DIR
                         "/unitree_go2/go2_mjx.xml\"/><asset><hfield name=\"waves\" "
                         "nrow=\"81\" ncol=\"81\" size=\"2 2 0.04 0.1\" elevation=\""
                      << heights
                      << "\"/></asset><worldbody><geom type=\"hfield\" hfield=\"waves\" "
                         "pos=\"0 0 -0.02\"/></worldbody></mujoco>";
  Result<MjcfRobot> robot = LoadMjcfFile(path);
  if (!robot.ok()) FAIL(robot.status().message());
  return std::move(robot).value();
}

// Go2s from their keyframe, robot r dropped from (r % 5) cm above it with its own ctrl (a
// deterministic spread over each actuator's range), and with `spread` moved to its own place
// (r % 4 steps of 30 cm along x, r / 4 % 3 of 25 cm along y), stepped `steps` times.
RobotBatch DropGo2s(MemoryAccountant& memory, const MjcfRobot& robot, size_t robots, size_t first,
                    size_t threads, int steps, bool spread = false) {
  RobotBatch batch = Create(memory, robot, robots, ContactConfig(robot));
  const MjcfRobotKeyframe& key = robot.keyframes.front();
  for (size_t r = 0; r < robots; ++r) {
    const size_t index = first + r;
    for (size_t k = 0; k < key.q.size(); ++k) batch.q().Array(k)[r] = float(key.q[k]);
    batch.q().Array(2)[r] += 0.01f * float(index % 5);
    if (spread) {
      batch.q().Array(0)[r] += 0.3f * float(index % 4);
      batch.q().Array(1)[r] += 0.25f * float(index / 4 % 3);
    }
    for (size_t a = 0; a < robot.actuators.size(); ++a) {
      const MjcfRobotActuator& actuator = robot.actuators[a];
      const double phase = std::sin(1.7 * double(index) + 0.9 * double(a));
      batch.ctrl().Array(a)[r] = float(
          key.ctrl[a] + 0.4 * phase * (actuator.ctrl_range[1] - actuator.ctrl_range[0]) * 0.5);
    }
  }
  ThreadPool pool(threads);
  for (int step = 0; step < steps; ++step) {
    const Status status = batch.TorqueStep(pool, kDt, TorqueController::kActuators);
    if (!status.ok()) FAIL(status.message());
  }
  return batch;
}

// Robot r's q, velocities and contact forces, bit for bit.
std::vector<float> RobotState(const RobotBatch& batch, size_t r) {
  std::vector<float> state;
  for (const ConstLanesView& view :
       {batch.q(), batch.qd(), batch.base_velocity(), batch.contact_forces(),
        batch.contact_friction_forces(), batch.contact_geometry()}) {
    for (size_t k = 0; k < view.arrays; ++k) state.push_back(view.Array(k)[r]);
  }
  return state;
}

// A free box on a table (a world box) above the floor plane, 1 kg, friction 0.5, with a small
// sphere inside it (the sphere comes first in its pairs with the world's boxes: their normals are
// turned).
constexpr const char* kBoxOnTable = R"(<mujoco model="box on table">
  <option timestep="0.002" cone="elliptic"/>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 0.05"/>
    <geom name="table" type="box" pos="0 0 0.4" size="0.5 0.5 0.4" friction="0.5"/>
    <body name="box" pos="0.1 0 0.85"><freejoint/>
      <geom name="cube" type="box" size="0.05 0.05 0.05" mass="1" friction="0.5"/>
      <geom name="nub" type="sphere" size="0.04" mass="0.001"/>
    </body>
  </worldbody>
</mujoco>
)";

}  // namespace

TEST_CASE("World contacts: one contact per slot of each world pair, pushing the robot out",
          "[dynamics]") {
  const MjcfRobot robot = LoadScene(kBoxOnTable);
  const RobotBatchConfig config = ContactConfig(robot);
  MemoryAccountant memory;
  RobotBatch batch = Create(memory, robot, 3, config);
  for (size_t r = 0; r < 3; ++r) {
    for (size_t k = 0; k < robot.q0.size(); ++k) batch.q().Array(k)[r] = float(robot.q0[k]);
  }
  ThreadPool pool(1);
  for (int step = 0; step < 200; ++step) {
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kNone).ok());
  }
  // The cube and the nub with the floor (plane-box: 4 slots, plane-sphere: 1) and the table
  // (box-box: 4, sphere-box: 1).
  CHECK(batch.ground_contact_count() == 0);
  REQUIRE(batch.contact_points().size() == 10);
  REQUIRE(batch.world_contact_pairs().size() == 10);
  const std::vector<ContactPair>& pairs = config.collisions.pairs;
  double table_force = 0.0;
  size_t turned = 0;
  for (size_t c = 0; c < 10; ++c) {
    INFO("contact " << c);
    const ContactPair& pair = pairs[batch.world_contact_pairs()[c]];
    const std::vector<CollisionShape>& shapes = config.collisions.shapes;
    const bool robot_first = shapes[pair.shape1].link >= 0;
    turned += robot_first;
    const std::string& other = shapes[robot_first ? pair.shape2 : pair.shape1].name;
    const std::string& own = shapes[robot_first ? pair.shape1 : pair.shape2].name;
    CHECK(robot.model.links[batch.contact_points()[c].link] == "box");
    const ConstLanesView geometry = batch.contact_geometry();
    for (size_t r = 0; r < 3; ++r) {
      const float distance = geometry.Array(kContactArrays * c)[r];
      if (other == "floor") {
        CHECK(distance > 0.75f);  // the floor is 0.8 m below
        CHECK(batch.contact_forces().Array(c)[r] == 0.0f);
        continue;
      }
      CHECK(other == "table");
      // The cube rests on the table; the nub, inside it, is 1 cm above.
      CHECK(std::abs(distance - (own == "nub" ? 0.01f : 0.0f)) < 1e-3f);
      // The table's normal at its top pushes the box up, whichever shape the pair lists first.
      CHECK(geometry.Array(kContactArrays * c + 4)[r] == Approx(0.0f).margin(1e-6));
      CHECK(geometry.Array(kContactArrays * c + 5)[r] == Approx(0.0f).margin(1e-6));
      CHECK(geometry.Array(kContactArrays * c + 6)[r] == Approx(1.0f).margin(1e-6));
      if (r == 0) table_force += batch.contact_forces().Array(c)[r];
    }
  }
  CHECK(turned == 1);  // the nub with the table
  CHECK(table_force == Approx(9.81).epsilon(0.01));
}

TEST_CASE("World contacts: golden bits of robot r alone, among 24, any threads and target",
          "[dynamics]") {
  // On the scene's floor, and spread over rough ground (a heightfield).
  for (const bool waves : {false, true}) {
    INFO((waves ? "on waves" : "on the floor"));
    const MjcfRobot robot = waves ? LoadGo2OnWaves() : LoadGo2Scene();
    MemoryAccountant memory;
    constexpr size_t kRobots = 24;
    constexpr int kSteps = 150;
    const auto drop = [&](size_t robots, size_t first, size_t threads) {
      return DropGo2s(memory, robot, robots, first, threads, kSteps, waves);
    };
    const RobotBatch reference = drop(kRobots, 0, 1);
    size_t touching = 0;
    for (size_t c = 0; c < reference.contact_points().size(); ++c) {
      for (size_t r = 0; r < kRobots; ++r) {
        touching += reference.contact_forces().Array(c)[r] > 0.0f;
      }
    }
    CHECK(touching > 2 * kRobots);  // the contacts are what this exercises
    test::CheckGolden(waves
                          ? "robots.world_contacts.go2_on_waves.24_robots.actuators_euler_150_steps"
                          : "robots.world_contacts.go2.24_robots.actuators_euler_150_steps",
                      reference.StateHash());
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      INFO("target " << target.name);
      for (size_t threads : {size_t{1}, size_t{2}, size_t{3}}) {
        CHECK(drop(kRobots, 0, threads).StateHash() == reference.StateHash());
      }
      for (size_t r : {size_t{0}, size_t{13}, size_t{23}}) {
        CHECK(RobotState(drop(1, r, 1), 0) == RobotState(reference, r));
      }
    });
  }
}

TEST_CASE("World contacts: steady-state steps allocate nothing", "[dynamics]") {
  const MjcfRobot robot = LoadGo2Scene();
  MemoryAccountant memory;
  RobotBatch batch = DropGo2s(memory, robot, 200, 0, 2, 1);
  ThreadPool pool(2);
  const CategoryStats before = memory.Total();
  for (int step = 0; step < 20; ++step) {
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kActuators).ok());
  }
  const CategoryStats after = memory.Total();
  CHECK(after.allocations == before.allocations);
  CHECK(after.bytes_in_use == before.bytes_in_use);
}

TEST_CASE("World contacts: configurations the step cannot model give errors naming them",
          "[dynamics]") {
  const MjcfRobot robot = LoadScene(kBoxOnTable);
  MemoryAccountant memory;
  const auto refused = [&](const RobotBatchConfig& config) {
    Result<RobotBatch> batch = RobotBatch::Create(memory, robot.model, 2, config);
    REQUIRE_FALSE(batch.ok());
    CHECK(memory.Total().bytes_in_use == 0);
    return batch.status().message();
  };
  const RobotBatchConfig good = ContactConfig(robot);
  RobotBatchConfig config = good;
  config.torque.integrator = TorqueIntegrator::kRungeKutta4;
  CHECK_THAT(refused(config), Catch::Contains("euler integrator"));
  config = good;
  config.collisions.pairs[0].solref = {-1000.0, -10.0};
  CHECK_THAT(refused(config), Catch::Contains("contact pair 0") && Catch::Contains("solref"));
  config = good;
  config.collisions.pairs[1].solimp[4] = 2.5;
  CHECK_THAT(refused(config), Catch::Contains("contact pair 1") && Catch::Contains("power"));
  config = good;
  config.collisions.pairs[0].condim = 2;
  CHECK_THAT(refused(config), Catch::Contains("condim 2"));
  config = good;
  config.collisions.pairs[0].friction[0] = -1.0;
  CHECK_THAT(refused(config), Catch::Contains("friction"));
  config = good;
  config.torque.contacts.ground.soft.max_mass_ratio = 0.0f;
  config.torque.contacts.enabled = true;
  config.torque.contacts.links = {"box"};
  CHECK_THAT(refused(config), Catch::Contains("max_mass_ratio"));
  // Without world contacts the same pairs are only detected (DetectContacts).
  config = good;
  config.torque.world_contacts = false;
  config.collisions.pairs[0].solref = {-1000.0, -10.0};
  CHECK(RobotBatch::Create(memory, robot.model, 2, config).ok());
}

}  // namespace swarm

namespace swarm {
namespace {

// Grippers dropped from (r % 7) cm, tilted by robot, their fingers pushed apart by r % 5 N,
// stepped 200 times.
RobotBatch DropGrippers(MemoryAccountant& memory, const MjcfRobot& robot, size_t robots,
                        size_t first, size_t threads) {
  RobotBatch batch = Create(memory, robot, robots, ContactConfig(robot));
  for (size_t r = 0; r < robots; ++r) {
    const size_t index = first + r;
    for (size_t k = 0; k < robot.q0.size(); ++k) batch.q().Array(k)[r] = float(robot.q0[k]);
    batch.q().Array(2)[r] += 0.01f * float(index % 7);
    const float tilt = 0.05f * std::sin(float(index));
    batch.q().Array(3)[r] = std::cos(tilt);  // qw, then qx: a roll
    batch.q().Array(4)[r] = std::sin(tilt);
    batch.torque().Array(0)[r] = float(index % 5);
  }
  ThreadPool pool(threads);
  for (int step = 0; step < 200; ++step) {
    const Status status = batch.TorqueStep(pool, kDt, TorqueController::kNone);
    if (!status.ok()) FAIL(status.message());
  }
  return batch;
}

}  // namespace

TEST_CASE("World contacts on a tree with mimic joints: golden bits, any threads and target",
          "[dynamics]") {
  const MjcfRobot robot = LoadScene(test::kCoupledGripperScene);
  MemoryAccountant memory;
  constexpr size_t kRobots = 24;
  const RobotBatch reference = DropGrippers(memory, robot, kRobots, 0, 1);
  size_t touching = 0;
  for (size_t c = 0; c < reference.contact_points().size(); ++c) {
    for (size_t r = 0; r < kRobots; ++r) touching += reference.contact_forces().Array(c)[r] > 0.0f;
  }
  CHECK(touching > 2 * kRobots);
  test::CheckGolden("robots.world_contacts.mimic_gripper.24_robots.euler_200_steps",
                    reference.StateHash());
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    INFO("target " << target.name);
    for (size_t threads : {size_t{1}, size_t{2}, size_t{3}}) {
      CHECK(DropGrippers(memory, robot, kRobots, 0, threads).StateHash() == reference.StateHash());
    }
    for (size_t r : {size_t{0}, size_t{11}, size_t{23}}) {
      CHECK(RobotState(DropGrippers(memory, robot, 1, r, 1), 0) == RobotState(reference, r));
    }
  });
}

}  // namespace swarm
