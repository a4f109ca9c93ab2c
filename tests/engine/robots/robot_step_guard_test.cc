// Tests for the guard around RobotBatch's steps (engine/robots/step_guard.h): a step whose finite
// but extreme inputs overflow (a velocity of 3e38, a PD error of 6e38) fails naming the first
// non-finite value of the lowest robot that has one, and leaves every robot as it was: every array
// the step writes bit for bit, the link poses those of forward kinematics at the restored q, and
// the next step after the caller's fix the same bits as a batch that never failed. The reference is
// that batch, stepped alongside; the same robot is named on every SIMD target, thread count and
// tile size. Steps of a day or of 1e30 s are refused up front.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

RobotModel LoadShared(const char* name) {
  Result<RobotModel> model = LoadUrdfFile(std::string(SWARM_SHARED_URDF_DIR) + "/" + name, {});
  if (!model.ok()) FAIL(model.status().message());
  return std::move(model).value();
}

RobotBatch Create(MemoryAccountant& memory, const RobotModel& model, size_t robots, bool torque,
                  size_t tile) {
  RobotBatchConfig config;
  config.torque.enabled = torque;
  if (torque) config.torque.dynamics.armature.assign(model.dof(), 0.1);
  config.schedule.tile_elements = tile;
  config.torque.schedule.tile_elements = tile;
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, robots, config);
  if (!batch.ok()) FAIL(batch.status().message());
  return std::move(batch).value();
}

std::vector<float> Values(const ConstLanesView& view) {
  std::vector<float> values;
  for (size_t a = 0; a < view.arrays; ++a) {
    values.insert(values.end(), view.Array(a), view.Array(a) + view.count);
  }
  return values;
}

// Every robot somewhere else in its joint range, at rest.
void Seed(RobotBatch& batch) {
  for (size_t j = 0; j < batch.model().dof(); ++j) {
    for (size_t r = 0; r < batch.size(); ++r) {
      batch.q().Array(j)[r] = 0.3f * std::sin(0.7f * static_cast<float>(r) + 1.3f * j);
      batch.q_target().Array(j)[r] = 0.2f * std::cos(0.5f * static_cast<float>(r) + j);
    }
  }
}

TEST_CASE("a torque step that overflows restores every robot and names the lowest robot's value") {
  const RobotModel model = LoadShared("panda.urdf");
  constexpr size_t kRobots = 200;  // several tiles, the bad robots in different ones
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    for (size_t threads : {1, 2}) {
      for (size_t tile : {64, 128}) {  // multiples of every target's padding
        INFO("target " << target.name << ", " << threads << " threads, tiles of " << tile);
        MemoryAccountant memory;
        ThreadPool pool(threads);
        RobotBatch batch = Create(memory, model, kRobots, true, tile);
        RobotBatch reference = Create(memory, model, kRobots, true, tile);
        Seed(batch);
        Seed(reference);
        // Robots 130 and 9 spin joint 1 at 3e38 rad/s: the Coriolis terms overflow.
        batch.qd().Array(1)[130] = 3e38f;
        batch.qd().Array(1)[9] = 3e38f;
        batch.ForwardKinematics(pool);
        const std::vector<float> q = Values(batch.q());
        const std::vector<float> qd = Values(batch.qd());
        const Status status = batch.TorqueStep(pool, 0.002f, TorqueController::kPdGravity);
        REQUIRE(status.code() == ErrorCode::kInvalidArgument);
        CHECK_THAT(status.message(),
                   StartsWith("RobotBatch::TorqueStep: the step overflowed from finite inputs: ") &&
                       Contains("of robot 9, column") &&
                       Contains("every robot is back at its state before the step"));
        CHECK(Values(batch.q()) == q);
        CHECK(Values(batch.qd()) == qd);
        const std::vector<float> poses = Values(batch.link_poses());
        batch.ForwardKinematics(pool);
        CHECK(Values(batch.link_poses()) == poses);
        // Fixed, the batch steps to the bits of one that never failed.
        batch.qd().Array(1)[130] = 0.0f;
        batch.qd().Array(1)[9] = 0.0f;
        REQUIRE(batch.TorqueStep(pool, 0.002f, TorqueController::kPdGravity).ok());
        REQUIRE(reference.TorqueStep(pool, 0.002f, TorqueController::kPdGravity).ok());
        CHECK(Values(batch.q()) == Values(reference.q()));
        CHECK(Values(batch.qd()) == Values(reference.qd()));
        CHECK(batch.StateHash() == reference.StateHash());
      }
    }
  });
}

TEST_CASE("a control step that overflows restores every robot and names the torque") {
  // Continuous joints have no limits to clamp q or the targets to: a PD error of 6e38 overflows.
  const RobotModel model = LoadShared("double_pendulum_continuous.urdf");
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    for (size_t threads : {1, 2}) {
      INFO("target " << target.name << ", " << threads << " threads");
      MemoryAccountant memory;
      ThreadPool pool(threads);
      RobotBatch batch = Create(memory, model, 40, false, 64);
      Seed(batch);
      batch.q().Array(0)[21] = 3e38f;
      batch.q_target().Array(0)[21] = -3e38f;
      batch.q().Array(1)[3] = -3e38f;
      batch.q_target().Array(1)[3] = 3e38f;
      const std::vector<float> q = Values(batch.q());
      const std::vector<float> qd = Values(batch.qd());
      const Status status = batch.ControlStep(pool, 0.01f);
      REQUIRE(status.code() == ErrorCode::kInvalidArgument);
      CHECK_THAT(status.message(), Contains("overflowed from finite inputs: torque of robot 3, "
                                            "column 1 (joint 'joint2') is inf"));
      CHECK(Values(batch.q()) == q);
      CHECK(Values(batch.qd()) == qd);
    }
  });
}

TEST_CASE("steps longer than kMaxStepSeconds are refused before anything changes") {
  const RobotModel model = LoadShared("panda.urdf");
  MemoryAccountant memory;
  ThreadPool pool(1);
  RobotBatch batch = Create(memory, model, 8, true, 64);
  Seed(batch);
  const uint64_t before = batch.StateHash();
  for (float dt : {1.0001f, 86400.0f, 1e30f}) {
    INFO("dt " << dt);
    const Status status = batch.TorqueStep(pool, dt, TorqueController::kNone);
    CHECK_THAT(status.message(), Contains("dt must be finite, > 0 and at most 1 s, got "));
    CHECK(batch.StateHash() == before);
  }
  REQUIRE(batch.TorqueStep(pool, kMaxStepSeconds, TorqueController::kNone).ok());
}

}  // namespace
}  // namespace swarm
