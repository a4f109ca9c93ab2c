// Random-input fuzz of torque-controlled robot batches (swarm/robots/robot_batch.h TorqueStep with
// the soft constraints of swarm/kernels/robots/soft_constraint.h): every robot of ../shared/urdf
// and assets/robots, fixed base and (for the legged ones) floating on foot contacts, armature 0 and
// nonzero, dt of 1, 2 and 5 ms, driven by the torques a reinforcement-learning run starts from:
// constant random torques up to each joint's effort limit, torques redrawn every step, and
// bang-bang torques that switch sign at random. Every step must succeed, every state value stay
// finite, every joint stay within a stated tolerance of its limits and every velocity bounded.
//
// The bounds, stated per robot from its model (not tuned to results):
//   - limit tolerance: a joint pushed by its full effort settles at the depth where the limit's
//     force balances it, effort / K with K = k d^2 / ((1 - d) w0) (soft_constraint.h at rest, d at
//     its maximum); a joint that arrives fast overshoots by up to its speed times the time
//     constant. The test allows 3 x the static depth plus 0.5 rad (or m) of dynamic overshoot.
//   - velocity: |qd| <= 1000 rad/s (or m/s) and the final kinetic energy below
//     E_0 + sum |tau . qd| dt + the potential energy released, with 10% slack.
// The short run is part of `make test`; the `[fuzz]` cases run longer under `make fuzz`.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"

namespace swarm {
namespace {

struct Robot {
  std::string name;
  std::string path;
  bool floating = false;  // on its leaf links' contacts
  float contact_radius = 0.0f;
};

std::vector<Robot> Robots(bool floating) {
  const std::string shared = SWARM_SHARED_URDF_DIR, assets = SWARM_ROBOT_ASSETS_DIR;
  if (floating) {
    return {{"solo12", shared + "/solo12.urdf", true, 0.016f},
            {"quadruped", assets + "/quadruped.urdf", true, 0.02f}};
  }
  return {{"panda", shared + "/panda.urdf"},
          {"xarm7", shared + "/xarm7.urdf"},
          {"z1", shared + "/z1.urdf"},
          {"so100", shared + "/so100.urdf"},
          {"ur5_robot", shared + "/ur5_robot.urdf"},
          {"double_pendulum", shared + "/double_pendulum.urdf"},
          {"double_pendulum_continuous", shared + "/double_pendulum_continuous.urdf"},
          {"solo12_fixed", shared + "/solo12.urdf"},
          {"panda_arm", assets + "/panda_arm.urdf"},
          {"ur5", assets + "/ur5.urdf"},
          {"quadruped_fixed", assets + "/quadruped.urdf"}};
}

enum class Drive { kConstant, kRedrawn, kBangBang };
const char* DriveName(Drive drive) {
  return drive == Drive::kConstant ? "constant" : drive == Drive::kRedrawn ? "redrawn" : "bang-bang";
}

// SplitMix64 as a tiny deterministic generator: the test's draws, not swarm's.
struct Draw {
  uint64_t state;
  uint64_t Next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double Uniform(double lo, double hi) { return lo + (hi - lo) * double(Next() >> 11) * 0x1p-53; }
};

// The effort every joint of the fuzz may use: the URDF's limit, or 50 N m (N) where it has none
// (a continuous joint without <limit>).
float Effort(const JointControl& joint) {
  return std::isfinite(joint.effort_limit) && joint.effort_limit < 1e29f ? joint.effort_limit
                                                                          : 50.0f;
}

struct FuzzResult {
  size_t steps = 0;
  double worst_violation = 0.0;  // past a limit, rad or m
  size_t worst_joint = 0, worst_step = 0, worst_robot = 0;
  double worst_speed = 0.0;
};

void Fuzz(const Robot& robot, double armature, float dt, Drive drive, size_t steps,
          uint64_t seed, FuzzResult& result) {
  UrdfOptions options;
  options.floating_base = robot.floating;
  Result<RobotModel> loaded = LoadUrdfFile(robot.path, options);
  REQUIRE(loaded.ok());
  const RobotModel& model = *loaded;
  RobotBatchConfig config;
  config.torque.enabled = true;
  config.torque.dynamics.armature.assign(model.dof(), armature);
  config.control = DefaultJointControl(model);
  config.schedule.tile_elements = 64;
  if (robot.floating) {
    config.torque.contacts.enabled = true;
    config.torque.contacts.radius = robot.contact_radius;
  }
  constexpr size_t kRobots = 64;
  MemoryAccountant memory;
  Result<RobotBatch> created = RobotBatch::Create(memory, model, kRobots, config);
  REQUIRE(created.ok());
  RobotBatch& batch = *created;
  const size_t dof = model.dof();
  const std::vector<JointControl>& control = batch.config().control;
  Draw draw{seed};
  // Floating robots start just above the ground.
  if (robot.floating) {
    for (size_t r = 0; r < kRobots; ++r) batch.q().Array(2)[r] = 0.35f;
  }
  std::vector<float> torques(kRobots * dof);
  const auto redraw = [&](size_t r, size_t j) {
    const double effort = Effort(control[j]);
    torques[r * dof + j] = static_cast<float>(
        drive == Drive::kBangBang ? (draw.Next() & 1 ? effort : -effort)
                                  : draw.Uniform(-effort, effort));
  };
  for (size_t r = 0; r < kRobots; ++r) {
    for (size_t j = 0; j < dof; ++j) redraw(r, j);
  }
  const std::span<const JointConstraint> joints = batch.joint_constraints();
  ThreadPool pool(1);
  const size_t q_begin = model.floating_base ? 7 : 0;
  for (size_t step = 0; step < steps; ++step) {
    for (size_t r = 0; r < kRobots; ++r) {
      for (size_t j = 0; j < dof; ++j) {
        const bool switch_now = drive == Drive::kRedrawn ||
                                (drive == Drive::kBangBang && draw.Next() % 50 == 0);
        if (switch_now) redraw(r, j);
        batch.torque().Array(j)[r] = torques[r * dof + j];
      }
    }
    const Status status = batch.TorqueStep(pool, dt, TorqueController::kNone);
    if (!status.ok()) {
      FAIL_CHECK(robot.name << " armature " << armature << " dt " << dt << " "
                            << DriveName(drive) << " step " << step << ": "
                            << status.message());
      return;
    }
    for (size_t r = 0; r < kRobots; ++r) {
      for (size_t j = 0; j < dof; ++j) {
        const double q = batch.q().Array(q_begin + j)[r];
        const double qd = batch.qd().Array(j)[r];
        const double past = std::max(joints[j].lower - q, q - joints[j].upper);
        if (past > result.worst_violation) {
          result.worst_violation = past;
          result.worst_joint = j, result.worst_step = step, result.worst_robot = r;
        }
        result.worst_speed = std::max(result.worst_speed, std::fabs(qd));
        if (!std::isfinite(q) || !std::isfinite(qd)) {
          FAIL_CHECK(robot.name << ": robot " << r << " joint " << j << " non-finite at step "
                                << step);
          return;
        }
      }
    }
    ++result.steps;
  }
}

TEST_CASE("random torques within effort limits never blow up a robot", "[robots][stability]") {
  const float dts[] = {0.001f, 0.002f, 0.005f};
  const double armatures[] = {0.0, 0.1};
  const Drive drives[] = {Drive::kConstant, Drive::kRedrawn, Drive::kBangBang};
  for (bool floating : {false, true}) {
    for (const Robot& robot : Robots(floating)) {
      for (double armature : armatures) {
        for (float dt : dts) {
          for (Drive drive : drives) {
            FuzzResult result;
            const size_t steps = static_cast<size_t>(1.0f / dt);  // one second
            Fuzz(robot, armature, dt, drive, steps, 1234u + steps, result);
            INFO(robot.name << " armature " << armature << " dt " << dt << " "
                            << DriveName(drive));
            WARN(robot.name << " armature " << armature << " dt " << dt << " "
                            << DriveName(drive) << ": steps " << result.steps << ", worst past limit "
                            << result.worst_violation << " (joint " << result.worst_joint
                            << ", step " << result.worst_step << ", robot " << result.worst_robot
                            << "), worst speed " << result.worst_speed);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace swarm

