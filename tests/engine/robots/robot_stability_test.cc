// Random-input fuzz of torque-controlled robot batches (swarm/robots/robot_batch.h TorqueStep with
// the soft constraints of swarm/kernels/robots/soft_constraint.h): every robot of ../shared/urdf
// and assets/robots, fixed base and (for the legged ones) floating on foot contacts, armature 0 and
// nonzero, dt of 1, 2 and 5 ms, driven by the torques a reinforcement-learning run starts from:
// constant random torques up to each joint's effort limit, torques redrawn every step, and
// bang-bang torques that switch sign at random. Every step must succeed, every state value stay
// finite, every joint stay within a stated tolerance of its limits and every velocity bounded.
//
// The bounds, stated from the configuration (not tuned to results):
//   - limits: a joint pushed by its whole effort settles within limit_tolerance of its limit
//     (TorqueModeConfig); one arriving at speed is stopped within the step, or caught before it
//     crosses, unless a step's solves do not settle which rows act (swarm/kernels/robots/
//     joint_constraints.h): allowed, limit_tolerance + 3 max_joint_speed dt past a limit (three
//     steps of travel at the speed cap).
//   - speed: every joint within max_joint_speed, a floating base's linear and angular speeds
//     below 100 m/s and rad/s;
//   - energy: the final kinetic energy at most the initial energy plus the work the torques can
//     have done, sum |tau qd| dt, plus the potential energy released, with 10% slack and 1 J
//     (limits only store and dissipate energy).
// Floating robots on their feet are held to the same bounds, and so are the MJCF robots of
// ../shared/mjcf driven by random inputs to their own actuators, on a stand, falling and on their
// scene's floor with every contact of their collision shapes with the world's.
// The short runs (one second per case) are part of `make test`; the `[.fuzz]` cases run ten seconds
// per case and four seeds under `make fuzz`. All of them run in native builds only ([native]:
// under qemu the short run alone takes over 15 minutes); the aarch64 runs hold the same steps to
// x86's bits through the golden values.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"

namespace swarm {
namespace {

struct Robot {
  std::string name;
  std::string path;
  bool floating = false;  // on its leaf links' contacts
  float contact_radius = 0.0f;
  // The joints' effort limit where the URDF's is a placeholder (0: the URDF's): the Solo12 file
  // states 1000 N m for motors that give 2.7 N m (its 0.025 N m/A motors at 12 A through 9:1
  // gears), a torque that throws a 2.5 kg robot around at hundreds of m/s.
  float effort = 0.0f;
};

std::vector<Robot> Robots(bool floating) {
  const std::string shared = SWARM_SHARED_URDF_DIR, assets = SWARM_ROBOT_ASSETS_DIR;
  if (floating) {
    return {{"solo12", shared + "/solo12.urdf", true, 0.016f, 2.7f},
            {"quadruped", assets + "/quadruped.urdf", true, 0.02f}};
  }
  return {{"panda", shared + "/panda.urdf"},
          {"xarm7", shared + "/xarm7.urdf"},
          {"z1", shared + "/z1.urdf"},
          {"so100", shared + "/so100.urdf"},
          {"ur5_robot", shared + "/ur5_robot.urdf"},
          {"double_pendulum", shared + "/double_pendulum.urdf"},
          {"double_pendulum_continuous", shared + "/double_pendulum_continuous.urdf"},
          {"solo12_fixed", shared + "/solo12.urdf", false, 0.0f, 2.7f},
          {"panda_arm", assets + "/panda_arm.urdf"},
          {"ur5", assets + "/ur5.urdf"},
          {"quadruped_fixed", assets + "/quadruped.urdf"}};
}

enum class Drive { kConstant, kRedrawn, kBangBang };
const char* DriveName(Drive drive) {
  return drive == Drive::kConstant  ? "constant"
         : drive == Drive::kRedrawn ? "redrawn"
                                    : "bang-bang";
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
  double energy_excess = 0.0;  // final kinetic energy over the bound, J (<= 0 passes)
  double worst_base_speed = 0.0;
  double worst_violation = 0.0;  // past a limit, rad or m
  size_t worst_joint = 0, worst_step = 0, worst_robot = 0;
  double worst_speed = 0.0;
};

// After a step: every joint's distance past its limits, its speed, the base's speed and the
// work of the torques (into budget, per robot); false (and a failed check) at a non-finite value.
bool RecordStep(const RobotBatch& batch, float dt, size_t step, std::vector<double>& budget,
                FuzzResult& result) {
  const std::span<const JointConstraint> joints = batch.joint_constraints();
  const size_t dof = batch.model().dof(), q_begin = batch.model().floating_base ? 7 : 0;
  for (size_t r = 0; r < batch.size(); ++r) {
    for (size_t j = 0; j < dof; ++j) {
      const double q = batch.q().Array(q_begin + j)[r];
      const double qd = batch.qd().Array(j)[r];
      const double past = std::max(joints[j].lower - q, q - joints[j].upper);
      if (past > result.worst_violation) {
        result.worst_violation = past;
        result.worst_joint = j, result.worst_step = step, result.worst_robot = r;
      }
      result.worst_speed = std::max(result.worst_speed, std::fabs(qd));
      budget[r] += std::fabs(double(batch.torque().Array(j)[r]) * qd) * dt;
      if (!std::isfinite(q) || !std::isfinite(qd)) {
        FAIL_CHECK(batch.model().name << ": robot " << r << " joint " << j << " non-finite at step "
                                      << step);
        return false;
      }
    }
    for (size_t k = 0; k < batch.base_velocity().arrays; ++k) {
      result.worst_base_speed =
          std::max(result.worst_base_speed, double(std::fabs(batch.base_velocity().Array(k)[r])));
    }
  }
  return true;
}

// Each robot's energy at the start (after forward kinematics): where the torques' work is added.
std::vector<double> InitialEnergy(RobotBatch& batch, ThreadPool& pool) {
  batch.ForwardKinematics(pool);
  std::vector<float> kinetic(batch.size()), potential(batch.size());
  batch.MeasureEnergy(pool, kinetic, potential);
  std::vector<double> budget(batch.size());
  for (size_t r = 0; r < batch.size(); ++r) budget[r] = double(kinetic[r]) + potential[r];
  return budget;
}

// The final kinetic energy against the bound: the initial energy plus the torques' work and the
// potential energy released, with 10% slack and 1 J.
void CheckEnergy(RobotBatch& batch, ThreadPool& pool, const std::vector<double>& budget,
                 FuzzResult& result) {
  std::vector<float> kinetic(batch.size()), potential(batch.size());
  batch.MeasureEnergy(pool, kinetic, potential);
  for (size_t r = 0; r < batch.size(); ++r) {
    const double bound = 1.1 * (budget[r] - potential[r]) + 1.0;
    result.energy_excess = std::max(result.energy_excess, double(kinetic[r]) - bound);
  }
}

void Fuzz(const Robot& robot, double armature, float dt, Drive drive, size_t steps, uint64_t seed,
          FuzzResult& result) {
  UrdfOptions options;
  options.floating_base = robot.floating;
  Result<RobotModel> loaded = LoadUrdfFile(robot.path, options);
  REQUIRE(loaded.ok());
  const RobotModel& model = *loaded;
  RobotBatchConfig config;
  config.torque.enabled = true;
  config.torque.dynamics.armature.assign(model.dof(), armature);
  config.control = DefaultJointControl(model);
  if (robot.effort > 0.0f) {
    for (JointControl& joint : config.control) joint.effort_limit = robot.effort;
  }
  config.torque.schedule.tile_elements = 64;
  if (robot.floating) {
    config.torque.contacts.enabled = true;
    config.torque.contacts.radius = robot.contact_radius;
  }
  constexpr size_t kRobots = 64;
  MemoryAccountant memory;
  Result<RobotBatch> created = RobotBatch::Create(memory, model, kRobots, config);
  if (!created.ok()) FAIL(created.status().message());
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
    torques[r * dof + j] =
        static_cast<float>(drive == Drive::kBangBang ? (draw.Next() & 1 ? effort : -effort)
                                                     : draw.Uniform(-effort, effort));
  };
  for (size_t r = 0; r < kRobots; ++r) {
    for (size_t j = 0; j < dof; ++j) redraw(r, j);
  }
  ThreadPool pool(1);
  std::vector<double> budget = InitialEnergy(batch, pool);
  for (size_t step = 0; step < steps; ++step) {
    for (size_t r = 0; r < kRobots; ++r) {
      for (size_t j = 0; j < dof; ++j) {
        const bool switch_now =
            drive == Drive::kRedrawn || (drive == Drive::kBangBang && draw.Next() % 50 == 0);
        if (switch_now) redraw(r, j);
        batch.torque().Array(j)[r] = torques[r * dof + j];
      }
    }
    const Status status = batch.TorqueStep(pool, dt, TorqueController::kNone);
    if (!status.ok()) {
      FAIL_CHECK(robot.name << " armature " << armature << " dt " << dt << " " << DriveName(drive)
                            << " step " << step << ": " << status.message());
      return;
    }
    if (!RecordStep(batch, dt, step, budget, result)) return;
    ++result.steps;
  }
  CheckEnergy(batch, pool, budget, result);
}

// Runs every robot, armature, time step and drive for `seconds` with `seeds` seeds and checks
// the bounds above.
void FuzzAll(double seconds, uint64_t seeds) {
  const float dts[] = {0.001f, 0.002f, 0.005f};
  const double armatures[] = {0.0, 0.1};
  const Drive drives[] = {Drive::kConstant, Drive::kRedrawn, Drive::kBangBang};
  const TorqueModeConfig defaults;
  for (bool floating : {false, true}) {
    for (const Robot& robot : Robots(floating)) {
      for (double armature : armatures) {
        for (float dt : dts) {
          for (Drive drive : drives) {
            for (uint64_t seed = 0; seed < seeds; ++seed) {
              FuzzResult result;
              const size_t steps = static_cast<size_t>(std::lround(seconds / dt));
              Fuzz(robot, armature, dt, drive, steps, 1234u + 7919u * seed + steps, result);
              INFO(robot.name << " armature " << armature << " dt " << dt << " " << DriveName(drive)
                              << " seed " << seed << ": steps " << result.steps
                              << ", worst past a limit " << result.worst_violation << " (joint "
                              << result.worst_joint << ", step " << result.worst_step << ", robot "
                              << result.worst_robot << "), worst speed " << result.worst_speed
                              << ", base " << result.worst_base_speed << ", energy over bound "
                              << result.energy_excess << " J");
              CHECK(result.steps == steps);
              const double speed_cap =
                  std::min<double>(defaults.max_joint_speed, defaults.max_step_turn / dt);
              CHECK(result.worst_speed <= speed_cap * 1.0001);
              CHECK(result.worst_base_speed < 100.0);
              CHECK(result.worst_violation <= defaults.limit_tolerance + 3.0 * speed_cap * dt);
              CHECK(result.energy_excess <= 0.0);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("random torques within effort limits never blow up a robot",
          "[native][robots][stability]") {
  FuzzAll(1.0, 1);
}

TEST_CASE("random torques within effort limits, long run", "[.fuzz][native][robots][stability]") {
  FuzzAll(10.0, 4);
}

// MJCF robots of ../shared/mjcf driven through their own actuators (TorqueController::kActuators,
// MjcfTorqueConfig): ctrl drawn over each actuator's ctrl range (its action space), constant,
// redrawn every step or switching between the range's ends, at the file's time step and at 1 and
// 5 ms. Legged robots run on a stand (the base welded where the keyframe puts it, as
// "solo12_fixed" above), falling freely (the model file alone) and on the floor of their scene
// with every contact of their shapes with the world's (MjcfContactConfig), and on rough terrain (a
// heightfield of random heights up to 5 cm in 4 cm cells, a new one per seed, in place of the
// floor); the Panda in its scene, whose floor its hand and fingers may hit.
enum class Mount { kStand, kFalling, kFloor, kTerrain };
const char* MountName(Mount mount) {
  return mount == Mount::kStand     ? " on a stand"
         : mount == Mount::kFalling ? " falling"
         : mount == Mount::kFloor   ? " on the floor"
                                    : " on rough terrain";
}

// A scene of the model file `model` (its absolute path) on random heights from `seed`: 101 x 101
// points over 4 m x 4 m, 0 to 5 cm, the surface's middle height at z = 0.
std::string RoughTerrainScene(const std::string& model, uint64_t seed) {
  Draw draw{seed};
  std::string heights;
  for (int i = 0; i < 101 * 101; ++i) heights += std::to_string(draw.Uniform(0.0, 1.0)) + " ";
  const std::string path =
      (std::filesystem::temp_directory_path() / ("swarm_terrain_" + std::to_string(seed) + ".xml"))
          .string();
  std::ofstream(path) << "<mujoco><include file=\"" << model
                      << "\"/><asset><hfield name=\"rough\" nrow=\"101\" ncol=\"101\" "
                         "size=\"2 2 0.05 0.1\" elevation=\""
                      << heights
                      << "\"/></asset><worldbody><geom type=\"hfield\" hfield=\"rough\" "
                         "pos=\"0 0 -0.025\"/></worldbody></mujoco>";
  return path;
}

void FuzzMjcf(const std::string& path, Mount mount, float dt, Drive drive, size_t steps,
              uint64_t seed, FuzzResult& result) {
  Result<MjcfRobot> loaded = LoadMjcfFile(path);
  REQUIRE(loaded.ok());
  MjcfRobot robot = *loaded;
  std::vector<double> start = robot.keyframes.empty() ? robot.q0 : robot.keyframes[0].q;
  if (mount == Mount::kStand && robot.model.floating_base) {
    robot.model.floating_base = false;  // the root link (the base) fixed at the origin
    start.erase(start.begin(), start.begin() + kFloatingBaseArrays);
  }
  RobotBatchConfig config = MjcfTorqueConfig(robot);
  if (mount == Mount::kFloor || mount == Mount::kTerrain) {
    Result<RobotBatchConfig> contacts = MjcfContactConfig(robot);
    REQUIRE(contacts.ok());
    config = *contacts;
    REQUIRE(config.torque.world_contacts);
  }
  config.torque.schedule.tile_elements = 64;
  constexpr size_t kRobots = 64;
  MemoryAccountant memory;
  Result<RobotBatch> created = RobotBatch::Create(memory, robot.model, kRobots, config);
  if (!created.ok()) FAIL(created.status().message());
  RobotBatch& batch = *created;
  for (size_t r = 0; r < kRobots; ++r) {
    for (size_t k = 0; k < start.size(); ++k) batch.q().Array(k)[r] = float(start[k]);
  }
  Draw draw{seed};
  const size_t nu = robot.actuators.size();
  const auto redraw = [&](size_t r, size_t a) {
    const MjcfRobotActuator& actuator = robot.actuators[a];
    const double lo = actuator.ctrl_limited ? actuator.ctrl_range[0] : -1.0;
    const double hi = actuator.ctrl_limited ? actuator.ctrl_range[1] : 1.0;
    const double middle = 0.5 * (lo + hi), half = 0.5 * (hi - lo);
    batch.ctrl().Array(a)[r] = static_cast<float>(
        drive == Drive::kBangBang ? (draw.Next() & 1 ? middle + half : middle - half)
                                  : draw.Uniform(middle - half, middle + half));
  };
  for (size_t r = 0; r < kRobots; ++r) {
    for (size_t a = 0; a < nu; ++a) redraw(r, a);
  }
  ThreadPool pool(1);
  std::vector<double> budget = InitialEnergy(batch, pool);
  for (size_t step = 0; step < steps; ++step) {
    for (size_t r = 0; r < kRobots; ++r) {
      for (size_t a = 0; a < nu; ++a) {
        if (drive == Drive::kRedrawn || (drive == Drive::kBangBang && draw.Next() % 50 == 0)) {
          redraw(r, a);
        }
      }
    }
    const Status status = batch.TorqueStep(pool, dt, TorqueController::kActuators);
    if (!status.ok()) {
      FAIL_CHECK(path << " dt " << dt << " " << DriveName(drive) << " step " << step << ": "
                      << status.message());
      return;
    }
    if (!RecordStep(batch, dt, step, budget, result)) return;
    ++result.steps;
  }
  CheckEnergy(batch, pool, budget, result);
}

// On a stand every bound of the URDF fuzz holds. Falling freely, a legged robot's limbs swung by
// full actuator forces spin its base (to 65 rad/s for the G1), whose centrifugal loads on a light
// wrist exceed the wrist's effort limit, which is what limit_tolerance is stated for: there every
// step still succeeds, stays finite, within the speed caps and the energy bound, and the joints'
// depth past their limits is reported, not bounded.
void FuzzAllMjcf(double seconds, uint64_t seeds) {
  const std::string shared = SWARM_SHARED_MJCF_DIR;
  const TorqueModeConfig defaults;
  // Each robot's model file, and its scene (the model on a floor).
  for (const auto& [model_file, scene_file] :
       {std::pair{"anybotics_anymal_c/anymal_c_mjx.xml", "anybotics_anymal_c/scene_mjx.xml"},
        std::pair{"unitree_go2/go2_mjx.xml", "unitree_go2/scene_mjx.xml"},
        std::pair{"unitree_g1/g1_mjx.xml", "unitree_g1/scene_mjx.xml"},
        std::pair{"franka_emika_panda/mjx_panda.xml", "franka_emika_panda/mjx_scene.xml"}}) {
    Result<MjcfRobot> robot = LoadMjcfFile(shared + "/" + model_file);
    REQUIRE(robot.ok());
    for (Mount mount : {Mount::kStand, Mount::kFalling, Mount::kFloor, Mount::kTerrain}) {
      if (mount == Mount::kFalling && !robot->model.floating_base) continue;
      if (mount == Mount::kTerrain && !robot->model.floating_base) continue;  // legged robots
      const std::string file = mount == Mount::kFloor ? scene_file : model_file;
      const bool on_stand = mount == Mount::kStand;
      for (float dt : {static_cast<float>(robot->timestep), 0.001f, 0.005f}) {
        for (Drive drive : {Drive::kConstant, Drive::kRedrawn, Drive::kBangBang}) {
          for (uint64_t seed = 0; seed < seeds; ++seed) {
            FuzzResult result;
            const size_t steps = static_cast<size_t>(std::lround(seconds / dt));
            const uint64_t draw_seed = 99u + 7919u * seed + steps;
            const std::string path = mount == Mount::kTerrain
                                         ? RoughTerrainScene(shared + "/" + model_file, seed)
                                         : shared + "/" + file;
            FuzzMjcf(path, mount, dt, drive, steps, draw_seed, result);
            INFO(file << MountName(mount) << " dt " << dt << " " << DriveName(drive) << ": steps "
                      << result.steps << ", worst past a limit " << result.worst_violation
                      << " (joint " << result.worst_joint << ", step " << result.worst_step
                      << "), worst speed " << result.worst_speed << ", base "
                      << result.worst_base_speed << ", energy over bound " << result.energy_excess
                      << " J");
            const double speed_cap =
                std::min<double>(defaults.max_joint_speed, defaults.max_step_turn / dt);
            CHECK(result.steps == steps);
            CHECK(result.worst_speed <= speed_cap * 1.0001);
            // Falling, the base gains g t of speed besides what its limbs give it (below 100).
            CHECK(result.worst_base_speed <
                  100.0 + (mount == Mount::kFalling ? 9.81 * seconds : 0.0));
            if (on_stand) {
              CHECK(result.worst_violation <= defaults.limit_tolerance + 3.0 * speed_cap * dt);
            }
            CHECK(result.energy_excess <= 0.0);
          }
        }
      }
    }
  }
}

TEST_CASE("random actuator inputs never blow up an MJCF robot", "[native][robots][stability]") {
  FuzzAllMjcf(1.0, 1);
}

TEST_CASE("random actuator inputs on MJCF robots, long run", "[.fuzz][native][robots][stability]") {
  FuzzAllMjcf(10.0, 4);
}

// The Solo12 with its file's placeholder effort limit of 1000 N m, 370 times its motors': every
// step succeeds, every value stays finite and every joint within the speed caps. Limits and the
// energy bound are not asserted: such torques fling the robot through the ground, where only its
// feet collide, and its contacts then add energy (noted in docs/design.md).
TEST_CASE("Solo12 at its file's 1000 N m effort limit stays finite",
          "[native][robots][stability]") {
  const float dts[] = {0.001f, 0.005f};
  for (double armature : {0.0, 0.1}) {
    for (float dt : dts) {
      for (Drive drive : {Drive::kConstant, Drive::kBangBang}) {
        Robot robot = Robots(true)[0];
        robot.effort = 0.0f;
        FuzzResult result;
        const size_t steps = static_cast<size_t>(std::lround(1.0 / dt));
        Fuzz(robot, armature, dt, drive, steps, 4321u + steps, result);
        INFO("armature " << armature << " dt " << dt << " " << DriveName(drive) << ": steps "
                         << result.steps << ", worst speed " << result.worst_speed);
        const TorqueModeConfig defaults;
        CHECK(result.steps == steps);
        CHECK(result.worst_speed <=
              std::min<double>(defaults.max_joint_speed, defaults.max_step_turn / dt) * 1.0001);
      }
    }
  }
}

}  // namespace
}  // namespace swarm
