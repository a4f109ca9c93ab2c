// RobotBatch's actuators (TorqueModeConfig::actuators, TorqueController::kActuators, ctrl()) on an
// MJCF robot (the Go2 of ../shared/mjcf through MjcfTorqueConfig): the torques a step applies are
// the actuators' (each actuator's force from its ctrl, position and velocity, clamped, through its
// gear: computed here in double from the file's values); a step's bits for robot r alone equal
// its bits among 100 robots at any thread count and on every SIMD target, and the
// cross-architecture golden value; and bad actuators or calls are refused.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/robot_batch.h"
#include "tests/support/for_each_target.h"
#include "tests/support/golden.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;

MjcfRobot Go2() {
  Result<MjcfRobot> robot =
      LoadMjcfFile(std::string(SWARM_SHARED_MJCF_DIR) + "/unitree_go2/go2_mjx.xml");
  if (!robot.ok()) FAIL(robot.status().message());
  return std::move(robot).value();
}

RobotBatch Create(MemoryAccountant& memory, const MjcfRobot& robot, size_t robots,
                  const RobotBatchConfig& config) {
  Result<RobotBatch> batch = RobotBatch::Create(memory, robot.model, robots, config);
  if (!batch.ok()) FAIL(batch.status().message());
  return std::move(batch).value();
}

// Robot r starts at the keyframe, its ctrl a sine about the keyframe's.
void Start(const MjcfRobot& robot, RobotBatch& batch, size_t first) {
  const MjcfRobotKeyframe& home = robot.keyframes.at(0);
  for (size_t r = 0; r < batch.size(); ++r) {
    for (size_t k = 0; k < home.q.size(); ++k) batch.q().Array(k)[r] = float(home.q[k]);
    for (size_t a = 0; a < home.ctrl.size(); ++a) {
      batch.ctrl().Array(a)[r] = float(home.ctrl[a] + 0.4 * std::sin(double(first + r) + a));
    }
  }
}

}  // namespace

TEST_CASE("RobotBatch actuators: the step applies the actuators' torques", "[dynamics]") {
  const MjcfRobot robot = Go2();
  const RobotBatchConfig config = MjcfTorqueConfig(robot);
  MemoryAccountant memory;
  RobotBatch batch = Create(memory, robot, 20, config);
  REQUIRE(batch.ctrl().arrays == robot.actuators.size());
  Start(robot, batch, 0);
  for (size_t r = 0; r < batch.size(); ++r) {  // some lanes far beyond the ctrl range
    if (r % 3 == 0) batch.ctrl().Array(r % robot.actuators.size())[r] = 50.0f;
  }
  ThreadPool pool(1);
  // Two steps, so that the joints move; the torques are those of the second step's start.
  REQUIRE(batch.TorqueStep(pool, 0.002f, TorqueController::kActuators).ok());
  std::vector<std::vector<double>> q(batch.size()), qd(batch.size());
  for (size_t r = 0; r < batch.size(); ++r) {
    for (size_t j = 0; j < robot.model.dof(); ++j) {
      q[r].push_back(batch.q().Array(kFloatingBaseArrays + j)[r]);
      qd[r].push_back(batch.qd().Array(j)[r]);
    }
  }
  REQUIRE(batch.TorqueStep(pool, 0.002f, TorqueController::kActuators).ok());
  for (size_t r = 0; r < batch.size(); ++r) {
    std::vector<double> want(robot.model.dof(), 0.0);
    for (size_t a = 0; a < robot.actuators.size(); ++a) {
      const MjcfRobotActuator& u = robot.actuators[a];
      double ctrl = batch.ctrl().Array(a)[r];
      if (u.ctrl_limited) ctrl = std::clamp(ctrl, u.ctrl_range[0], u.ctrl_range[1]);
      double force = u.gain * ctrl + u.bias[0] + u.bias[1] * u.gear * q[r][u.dof] +
                     u.bias[2] * u.gear * qd[r][u.dof];
      if (u.force_limited) force = std::clamp(force, u.force_range[0], u.force_range[1]);
      want[u.dof] += u.gear * force;
    }
    for (size_t j = 0; j < robot.model.dof(); ++j) {
      INFO("robot " << r << " joint " << j);
      CHECK(std::abs(batch.torque().Array(j)[r] - want[j]) <= 1e-5 * (1.0 + std::abs(want[j])));
    }
  }
}

TEST_CASE("RobotBatch actuators: golden bits of robot r alone, among 100, any threads and target",
          "[dynamics]") {
  const MjcfRobot robot = Go2();
  MemoryAccountant memory;
  const auto run = [&](size_t robots, size_t threads, size_t first) {
    RobotBatchConfig config = MjcfTorqueConfig(robot);
    config.torque.schedule.tile_elements = 64;
    RobotBatch batch = Create(memory, robot, robots, config);
    Start(robot, batch, first);
    ThreadPool pool(threads);
    for (int step = 0; step < 50; ++step) {
      REQUIRE(batch.TorqueStep(pool, 0.002f, TorqueController::kActuators).ok());
    }
    return batch;
  };
  RobotBatch reference = run(100, 1, 0);
  test::CheckGolden("robots.actuators.go2.100_robots.50_steps", reference.StateHash());
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    INFO("target " << target.name);
    for (size_t threads : {size_t{1}, size_t{2}}) {
      CHECK(run(100, threads, 0).StateHash() == reference.StateHash());
    }
    for (size_t r : {size_t{0}, size_t{63}, size_t{99}}) {
      RobotBatch alone = run(1, 1, r);
      for (size_t k = 0; k < reference.q().arrays; ++k) {
        CHECK(alone.q().Array(k)[0] == reference.q().Array(k)[r]);
      }
      for (size_t k = 0; k < reference.qd().arrays; ++k) {
        CHECK(alone.qd().Array(k)[0] == reference.qd().Array(k)[r]);
      }
    }
  });
}

TEST_CASE("RobotBatch actuators: bad actuators and calls are refused", "[dynamics]") {
  const MjcfRobot robot = Go2();
  MemoryAccountant memory;
  RobotBatchConfig config = MjcfTorqueConfig(robot);
  config.torque.actuators.clear();
  RobotBatch without = Create(memory, robot, 4, config);
  CHECK(without.ctrl().arrays == 0);
  ThreadPool pool(1);
  const Status refused = without.TorqueStep(pool, 0.002f, TorqueController::kActuators);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.message(), Contains("needs config.torque.actuators"));
  const auto create_error = [&](JointActuator actuator) {
    RobotBatchConfig bad = MjcfTorqueConfig(robot);
    bad.torque.actuators.push_back(actuator);
    Result<RobotBatch> batch = RobotBatch::Create(memory, robot.model, 4, bad);
    REQUIRE_FALSE(batch.ok());
    return batch.status().message();
  };
  JointActuator beyond;
  beyond.dof = 12;
  CHECK_THAT(create_error(beyond), Contains("config.torque.actuators[12]"));
  JointActuator pushing;
  pushing.bias_velocity = 1.0f;  // a velocity gain that adds energy
  CHECK_THAT(create_error(pushing), Contains("config.torque.actuators[12]"));
  JointActuator inverted;
  inverted.ctrl_lower = 1.0f, inverted.ctrl_upper = -1.0f;
  CHECK_THAT(create_error(inverted), Contains("lower <= upper"));
}

}  // namespace swarm
