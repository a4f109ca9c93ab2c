// Tests for swarm/robots/robot_tasks.h, the task generators behind swarm-robots: reach goals are
// the forward kinematics (an independent double-precision implementation here) of configurations
// within the limits; start states, track circles and random targets follow their documented
// formulas; every task gives robot r the same bits in any batch size, thread count and SIMD
// target; reach brings UR5 robots to their goals; errors and their summary match a direct
// computation.
#include "swarm/robots/robot_tasks.h"

#include <array>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"
#include "tests/engine/robots/solo12_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;
using test::kSoloPosture;
using test::Solo12Path;
using test::SoloStandConfig;

const std::string kUr5 = std::string(SWARM_SHARED_URDF_DIR) + "/ur5_robot.urdf";
const std::string kSolo12 = Solo12Path();

RobotModel LoadModel(const std::string& path, bool floating_base = false) {
  UrdfOptions options;
  options.floating_base = floating_base;
  Result<RobotModel> model = LoadUrdfFile(path, options);
  INFO(model.status().message());
  REQUIRE(model.ok());
  return std::move(model).value();
}

// --- an independent double-precision forward kinematics, straight from the URDF semantics ---

struct Quat {
  double x = 0, y = 0, z = 0, w = 1;
};
using Vec3 = std::array<double, 3>;

Quat Multiply(const Quat& a, const Quat& b) {
  return {
      a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
      a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

Vec3 Rotate(const Quat& q, const Vec3& v) {
  const Quat p{v[0], v[1], v[2], 0.0};
  const Quat conjugate{-q.x, -q.y, -q.z, q.w};
  const Quat r = Multiply(Multiply(q, p), conjugate);
  return {r.x, r.y, r.z};
}

struct Pose {
  Vec3 p{0, 0, 0};
  Quat q;
};

Pose Compose(const Pose& a, const Pose& b) {
  const Vec3 moved = Rotate(a.q, b.p);
  return {{a.p[0] + moved[0], a.p[1] + moved[1], a.p[2] + moved[2]}, Multiply(a.q, b.q)};
}

// World pose of every link for one robot's q (q_count values).
std::vector<Pose> ForwardKinematicsDouble(const RobotModel& model, const std::vector<double>& q) {
  std::vector<Pose> poses(model.links.size());
  const size_t base = model.floating_base ? kFloatingBaseArrays : 0;
  if (model.floating_base) {
    const double norm = std::sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]);
    poses[0] = {{q[0], q[1], q[2]}, {q[4] / norm, q[5] / norm, q[6] / norm, q[3] / norm}};
  }
  for (size_t i = 0; i < model.joints.size(); ++i) {
    const RobotJoint& joint = model.joints[i];
    const Pose origin{
        {joint.origin_xyz[0], joint.origin_xyz[1], joint.origin_xyz[2]},
        {joint.origin_quat[0], joint.origin_quat[1], joint.origin_quat[2], joint.origin_quat[3]}};
    Pose motion;
    if (joint.type != RobotJointType::kFixed) {
      const double value = joint.mimic_multiplier * q[base + static_cast<size_t>(joint.q_index)] +
                           joint.mimic_offset;
      if (joint.type == RobotJointType::kPrismatic) {
        motion.p = {joint.axis[0] * value, joint.axis[1] * value, joint.axis[2] * value};
      } else {
        const double s = std::sin(0.5 * value);
        motion.q = {joint.axis[0] * s, joint.axis[1] * s, joint.axis[2] * s, std::cos(0.5 * value)};
      }
    }
    poses[joint.child_link] = Compose(Compose(poses[joint.parent_link], origin), motion);
  }
  return poses;
}

// The angle of the rotation between two quaternions, normalised first (float quaternions are
// unit only to rounding, and acos near 1 would turn 1e-7 of norm into 1e-3 rad).
double QuatAngle(const Quat& a, const Quat& b) {
  const double dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  const double norms = std::sqrt((a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w) *
                                 (b.x * b.x + b.y * b.y + b.z * b.z + b.w * b.w));
  return 2.0 * std::acos(std::min(1.0, std::fabs(dot) / norms));
}

struct Snapshot {
  std::vector<float> values;  // every state array's first `robots` entries
  uint64_t digest = 0;        // RobotBatch::StateDigest, where taken
};

// Robots [begin, begin + robots) of the batch.
Snapshot TakeSnapshot(const RobotBatch& batch, size_t robots, size_t begin = 0) {
  Snapshot snapshot;
  for (const ConstLanesView& view :
       {batch.q(), batch.qd(), batch.q_target(), batch.link_poses(), batch.target_pose()}) {
    for (size_t a = 0; a < view.arrays; ++a) {
      snapshot.values.insert(snapshot.values.end(), view.Array(a) + begin,
                             view.Array(a) + begin + robots);
    }
  }
  return snapshot;
}

bool SameBits(const Snapshot& a, const Snapshot& b) {
  return a.values.size() == b.values.size() &&
         std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(float)) == 0;
}

TEST_CASE("TaskUniform is a pure function of its key, uniform on the unit interval") {
  double sum = 0.0, sum_squares = 0.0;
  constexpr int kDraws = 100000;
  for (int i = 0; i < kDraws; ++i) {
    const float u = TaskUniform(7, static_cast<uint64_t>(i), 1, 3);
    REQUIRE(u >= 0.0f);
    REQUIRE(u < 1.0f);
    REQUIRE(u == TaskUniform(7, static_cast<uint64_t>(i), 1, 3));
    sum += u;
    sum_squares += double(u) * u;
  }
  // Mean 1/2 and variance 1/12 of U(0, 1); the standard error of the mean is 0.0009.
  CHECK(sum / kDraws == Approx(0.5).margin(0.005));
  CHECK(sum_squares / kDraws - (sum / kDraws) * (sum / kDraws) == Approx(1.0 / 12).margin(0.002));
  // Each part of the key matters.
  const float u = TaskUniform(7, 5, 1, 3);
  CHECK(u != TaskUniform(8, 5, 1, 3));
  CHECK(u != TaskUniform(7, 6, 1, 3));
  CHECK(u != TaskUniform(7, 5, 2, 3));
  CHECK(u != TaskUniform(7, 5, 1, 4));
}

TEST_CASE("ParseRobotTask accepts reach, track, random and stand and names a bad value") {
  for (RobotTask task :
       {RobotTask::kReach, RobotTask::kTrack, RobotTask::kRandom, RobotTask::kStand}) {
    Result<RobotTask> parsed = ParseRobotTask(RobotTaskName(task));
    REQUIRE(parsed.ok());
    CHECK(parsed.value() == task);
  }
  Result<RobotTask> bad = ParseRobotTask("dance");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.status().message(),
             Contains("--task") && Contains("'dance'") && Contains("reach, track, random, stand"));
}

TEST_CASE("RobotTaskRunner refuses invalid parameters, naming the field") {
  RobotModel model = LoadModel(kUr5);
  MemoryAccountant memory;
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, 4);
  REQUIRE(batch.ok());
  RobotTaskParams params;
  params.track_period_seconds = 0.0f;
  Result<RobotTaskRunner> runner = RobotTaskRunner::Create(memory, batch.value(), params);
  REQUIRE_FALSE(runner.ok());
  CHECK_THAT(runner.status().message(), Contains("track_period_seconds") && Contains("> 0"));
  params = {};
  params.random_resample_steps = 0;
  runner = RobotTaskRunner::Create(memory, batch.value(), params);
  REQUIRE_FALSE(runner.ok());
  CHECK_THAT(runner.status().message(), Contains("random_resample_steps"));
  params = {};
  params.start_spread = std::nanf("");
  runner = RobotTaskRunner::Create(memory, batch.value(), params);
  REQUIRE_FALSE(runner.ok());
  CHECK_THAT(runner.status().message(), Contains("start_spread"));
}

TEST_CASE("sample ranges are the URDF limits, or +-pi and +-0.1 m where unlimited") {
  RobotModel model = LoadModel(kUr5);
  std::vector<JointControl> control = DefaultJointControl(model);
  control[0].lower = -std::numeric_limits<float>::infinity();
  control[0].upper = std::numeric_limits<float>::infinity();
  const std::vector<JointSampleRange> ranges = JointSampleRanges(model, control);
  REQUIRE(ranges.size() == model.dof());
  CHECK(ranges[0].lower == Approx(-std::numbers::pi));
  CHECK(ranges[0].upper == Approx(std::numbers::pi));
  for (size_t k = 1; k < model.dof(); ++k) {
    const RobotJoint& joint = model.joints[model.dof_joints[k]];
    INFO("joint " << joint.name);
    if (joint.has_position_limits) {
      CHECK(ranges[k].lower == Approx(joint.lower));
      CHECK(ranges[k].upper == Approx(joint.upper));
    }
    CHECK(ranges[k].spread_scale == 1.0f);
  }
}

// Start: reach goals are the double-precision FK of the goal configuration; start q within
// start_spread of the goal and inside the limits; qd 0; q_target = q; link poses of the start.
void CheckReachStart(const RobotModel& model, size_t robots, const RobotTaskParams& params) {
  MemoryAccountant memory;
  Result<RobotBatch> created = RobotBatch::Create(memory, model, robots);
  REQUIRE(created.ok());
  RobotBatch& batch = created.value();
  Result<RobotTaskRunner> runner = RobotTaskRunner::Create(memory, batch, params);
  REQUIRE(runner.ok());
  ThreadPool pool(2);
  runner->Start(pool);
  const std::vector<JointSampleRange>& ranges = runner->ranges();
  const size_t base = model.q_count() - model.dof();
  const size_t ee = batch.end_effector();
  for (size_t r = 0; r < robots; ++r) {
    INFO("robot " << r);
    std::vector<double> goal(model.q_count(), 0.0), start(model.q_count(), 0.0);
    if (model.floating_base) goal[3] = start[3] = 1.0;
    for (size_t k = 0; k < model.dof(); ++k) {
      goal[base + k] = GoalJointValue(ranges, params.seed, r, k);
      start[base + k] = batch.q().Array(base + k)[r];
      CHECK(goal[base + k] >= ranges[k].lower);
      CHECK(goal[base + k] <= ranges[k].upper);
      CHECK(start[base + k] >= ranges[k].lower);
      CHECK(start[base + k] <= ranges[k].upper);
      CHECK(std::fabs(start[base + k] - goal[base + k]) <=
            params.start_spread * ranges[k].spread_scale + 1e-6);
      CHECK(start[base + k] == StartJointValue(ranges, params, r, k));
      CHECK(batch.qd().Array(k)[r] == 0.0f);
      CHECK(batch.q_target().Array(k)[r] == batch.q().Array(base + k)[r]);
    }
    const Pose goal_pose = ForwardKinematicsDouble(model, goal)[ee];
    const ConstLanesView target = batch.target_pose();
    for (size_t i = 0; i < 3; ++i) CHECK(target.Array(i)[r] == Approx(goal_pose.p[i]).margin(1e-5));
    const Quat target_q{target.Array(3)[r], target.Array(4)[r], target.Array(5)[r],
                        target.Array(6)[r]};
    CHECK(QuatAngle(target_q, goal_pose.q) <= 1e-5 * 4);
    // link_poses hold the start state.
    const std::vector<Pose> start_poses = ForwardKinematicsDouble(model, start);
    const ConstLanesView poses = batch.link_poses();
    for (size_t l = 0; l < model.links.size(); ++l) {
      for (size_t i = 0; i < 3; ++i) {
        CHECK(poses.Array(kPoseArrays * l + i)[r] == Approx(start_poses[l].p[i]).margin(1e-5));
      }
    }
  }
}

TEST_CASE("reach goals are the forward kinematics of configurations within the limits") {
  RobotTaskParams params;
  params.seed = 11;
  SECTION("UR5") { CheckReachStart(LoadModel(kUr5), 37, params); }
  SECTION("Solo12 quadruped with a floating base") {
    params.start_spread = 0.3f;
    CheckReachStart(LoadModel(kSolo12, /*floating_base=*/true), 19, params);
  }
}

TEST_CASE("every task gives robot r the same bits in any batch size, thread count and target") {
  const RobotModel model = LoadModel(kUr5);
  constexpr size_t kCompared = 17;
  constexpr uint64_t kSteps = 25;
  for (RobotTask task : {RobotTask::kReach, RobotTask::kTrack, RobotTask::kRandom}) {
    INFO("task " << RobotTaskName(task));
    RobotTaskParams params;
    params.task = task;
    params.seed = 3;
    params.random_resample_steps = 10;
    Snapshot reference;
    bool have_reference = false;
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      for (size_t robots : {kCompared, size_t{100}, size_t{1000}}) {
        for (size_t threads : {size_t{1}, size_t{3}}) {
          INFO("target " << target.name << ", " << robots << " robots, " << threads
                         << " thread(s)");
          MemoryAccountant memory;
          RobotBatchConfig config;
          config.schedule.tile_elements = 64;  // several tiles even for 100 robots
          config.schedule.min_elements_per_thread = 1;
          config.torque.schedule = config.schedule;
          Result<RobotBatch> batch = RobotBatch::Create(memory, model, robots, config);
          REQUIRE(batch.ok());
          Result<RobotTaskRunner> runner = RobotTaskRunner::Create(memory, batch.value(), params);
          REQUIRE(runner.ok());
          ThreadPool pool(threads);
          runner->Start(pool);
          for (uint64_t step = 0; step < kSteps; ++step) {
            REQUIRE(runner->Step(pool, step, 0.002f).ok());
          }
          const Snapshot snapshot = TakeSnapshot(batch.value(), kCompared);
          if (!have_reference) {
            reference = snapshot;
            have_reference = true;
          }
          CHECK(SameBits(snapshot, reference));
        }
      }
    });
  }
}

// A batch of `robots` robots running `params` for `steps` steps of `dt`, on two threads.
Snapshot RunBatch(const RobotModel& model, const RobotBatchConfig& config,
                  const RobotTaskParams& params, size_t robots, uint64_t steps, float dt) {
  MemoryAccountant memory;
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, robots, config);
  REQUIRE(batch.ok());
  Result<RobotTaskRunner> runner = RobotTaskRunner::Create(memory, batch.value(), params);
  REQUIRE(runner.ok());
  ThreadPool pool(2);
  runner->Start(pool);
  for (uint64_t step = 0; step < steps; ++step) REQUIRE(runner->Step(pool, step, dt).ok());
  Snapshot snapshot = TakeSnapshot(batch.value(), robots);
  snapshot.digest = batch->StateDigest(pool, params.first_robot);
  ThreadPool one_thread(1);
  REQUIRE(batch->StateDigest(one_thread, params.first_robot) == snapshot.digest);
  return snapshot;
}

// The batches of consecutive ranges [0, 13), [13, 40), [40, 41), [41, 57) with first_robot at
// their starts, against ranges of one batch of 57 robots.
void CheckRangesReproduceOneBatch(const RobotModel& model, const RobotBatchConfig& config,
                                  RobotTaskParams params, uint64_t steps, float dt) {
  const size_t bounds[] = {0, 13, 40, 41, 57};
  params.first_robot = 0;
  const Snapshot whole = RunBatch(model, config, params, 57, steps, dt);
  const size_t per_robot = whole.values.size() / 57;
  uint64_t digests = 0;  // the ranges' state digests add up to the whole run's
  for (size_t range = 0; range + 1 < std::size(bounds); ++range) {
    const size_t begin = bounds[range];
    const size_t count = bounds[range + 1] - begin;
    INFO("robots [" << begin << ", " << begin + count << ")");
    params.first_robot = begin;
    const Snapshot part = RunBatch(model, config, params, count, steps, dt);
    digests += part.digest;
    REQUIRE(part.values.size() == per_robot * count);
    // Array by array: whole holds 57 entries per array, part `count`.
    for (size_t a = 0; a < per_robot; ++a) {
      REQUIRE(std::memcmp(part.values.data() + a * count, whole.values.data() + a * 57 + begin,
                          count * sizeof(float)) == 0);
    }
  }
  CHECK(digests == whole.digest);
}

TEST_CASE("track goals move on a circle of track_radius at one turn per track_period") {
  const RobotModel model = LoadModel(kUr5);
  MemoryAccountant memory;
  constexpr size_t kRobots = 21;
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, kRobots);
  REQUIRE(batch.ok());
  RobotTaskParams params;
  params.task = RobotTask::kTrack;
  params.track_radius = 0.08f;
  params.track_period_seconds = 0.5f;
  const float dt = 0.01f;
  Result<RobotTaskRunner> runner = RobotTaskRunner::Create(memory, batch.value(), params);
  REQUIRE(runner.ok());
  ThreadPool pool(1);
  runner->Start(pool);
  // The centre: FK of the goal configuration.
  std::vector<Vec3> centres(kRobots);
  for (size_t r = 0; r < kRobots; ++r) {
    std::vector<double> goal(model.q_count());
    for (size_t k = 0; k < model.dof(); ++k) {
      goal[k] = GoalJointValue(runner->ranges(), params.seed, r, k);
    }
    centres[r] = ForwardKinematicsDouble(model, goal)[batch->end_effector()].p;
  }
  std::vector<double> previous_angle(kRobots);
  const double expected_advance = 2.0 * std::numbers::pi * dt / params.track_period_seconds;
  for (uint64_t step = 0; step <= 10; ++step) {
    if (step > 0) REQUIRE(runner->Step(pool, step - 1, dt).ok());
    const ConstLanesView target = std::as_const(batch.value()).target_pose();
    for (size_t r = 0; r < kRobots; ++r) {
      INFO("robot " << r << " after " << step << " steps");
      const double dx = target.Array(0)[r] - centres[r][0];
      const double dy = target.Array(1)[r] - centres[r][1];
      CHECK(std::hypot(dx, dy) == Approx(params.track_radius).margin(2e-5));
      CHECK(target.Array(2)[r] == Approx(centres[r][2]).margin(1e-5));
      const double angle = std::atan2(dy, dx);
      if (step > 0) {
        const double advance = std::remainder(angle - previous_angle[r], 2.0 * std::numbers::pi);
        CHECK(advance == Approx(expected_advance).margin(1e-3));
      }
      previous_angle[r] = angle;
    }
  }
}

TEST_CASE("random targets stay within the ranges and change exactly every K steps") {
  const RobotModel model = LoadModel(kUr5);
  MemoryAccountant memory;
  constexpr size_t kRobots = 33;
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, kRobots);
  REQUIRE(batch.ok());
  RobotTaskParams params;
  params.task = RobotTask::kRandom;
  params.random_resample_steps = 4;
  Result<RobotTaskRunner> runner = RobotTaskRunner::Create(memory, batch.value(), params);
  REQUIRE(runner.ok());
  ThreadPool pool(2);
  runner->Start(pool);
  for (uint64_t step = 0; step < 13; ++step) {
    // After step `step`, the targets are those of epoch step / K (drawn at step K epoch).
    const uint64_t epoch = step / params.random_resample_steps;
    REQUIRE(runner->Step(pool, step, 0.002f).ok());
    const ConstLanesView q_target = std::as_const(batch.value()).q_target();
    for (size_t r = 0; r < kRobots; ++r) {
      for (size_t k = 0; k < model.dof(); ++k) {
        INFO("step " << step << ", robot " << r << ", joint " << k);
        const float expected = RandomTargetJointValue(runner->ranges(), params.seed, r, k, epoch);
        CHECK(q_target.Array(k)[r] == expected);
        CHECK(expected >= runner->ranges()[k].lower);
        CHECK(expected <= runner->ranges()[k].upper);
        if (epoch > 0) {
          CHECK(expected != RandomTargetJointValue(runner->ranges(), params.seed, r, k, epoch - 1));
        }
      }
    }
  }
}

TEST_CASE("reach brings UR5 end effectors to their goals, errors match a direct computation") {
  const RobotModel model = LoadModel(kUr5);
  MemoryAccountant memory;
  constexpr size_t kRobots = 64;
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, kRobots);
  REQUIRE(batch.ok());
  RobotTaskParams params;
  params.seed = 5;
  Result<RobotTaskRunner> runner = RobotTaskRunner::Create(memory, batch.value(), params);
  REQUIRE(runner.ok());
  ThreadPool pool(2);
  runner->Start(pool);
  std::vector<float> position(kRobots), orientation(kRobots), joint(kRobots);
  runner->MeasureErrors(pool, position, orientation, joint);
  const TaskErrorSummary before = runner->Summarize(position, orientation, joint);
  for (uint64_t step = 0; step < 1000; ++step) REQUIRE(runner->Step(pool, step, 0.002f).ok());
  runner->MeasureErrors(pool, position, orientation, joint);
  const TaskErrorSummary after = runner->Summarize(position, orientation, joint);
  INFO("success before " << before.SuccessRate() << ", after " << after.SuccessRate()
                         << "; mean position error before " << before.mean_position_m
                         << " m, after " << after.mean_position_m << " m");
  CHECK(after.SuccessRate() >= 0.9);
  CHECK(after.mean_position_m < 0.1 * before.mean_position_m);

  // The errors, recomputed here from the batch's poses in double precision.
  const RobotBatch& state = batch.value();
  const ConstLanesView poses = state.link_poses();
  const ConstLanesView target = state.target_pose();
  const size_t ee = kPoseArrays * state.end_effector();
  size_t successes = 0;
  double position_sum = 0.0;
  for (size_t r = 0; r < kRobots; ++r) {
    INFO("robot " << r);
    const double dx = double(poses.Array(ee)[r]) - target.Array(0)[r];
    const double dy = double(poses.Array(ee + 1)[r]) - target.Array(1)[r];
    const double dz = double(poses.Array(ee + 2)[r]) - target.Array(2)[r];
    const double distance = std::sqrt(dx * dx + dy * dy + dz * dz);
    CHECK(position[r] == Approx(distance).margin(1e-7));
    const Quat link_q{poses.Array(ee + 3)[r], poses.Array(ee + 4)[r], poses.Array(ee + 5)[r],
                      poses.Array(ee + 6)[r]};
    const Quat target_q{target.Array(3)[r], target.Array(4)[r], target.Array(5)[r],
                        target.Array(6)[r]};
    const double angle = QuatAngle(link_q, target_q);
    CHECK(orientation[r] == Approx(angle).margin(1e-6));
    double worst_joint = 0.0;
    for (size_t k = 0; k < model.dof(); ++k) {
      worst_joint = std::max(
          worst_joint, std::fabs(double(state.q().Array(k)[r]) - state.q_target().Array(k)[r]));
    }
    CHECK(joint[r] == Approx(worst_joint).margin(1e-7));
    if (distance < 0.01 && angle < 0.1) ++successes;
    position_sum += distance;
  }
  CHECK(after.successes == successes);
  CHECK(after.mean_position_m == Approx(position_sum / kRobots).epsilon(1e-6));
}

TEST_CASE("Summarize counts successes against both thresholds and averages exactly") {
  const RobotModel model = LoadModel(kUr5);
  MemoryAccountant memory;
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, 4);
  REQUIRE(batch.ok());
  Result<RobotTaskRunner> runner = RobotTaskRunner::Create(memory, batch.value(), {});
  REQUIRE(runner.ok());
  const std::vector<float> position = {0.001f, 0.02f, 0.009f, 0.0f};
  const std::vector<float> orientation = {0.05f, 0.0f, 0.2f, 0.099f};
  const std::vector<float> joint = {0.1f, 0.3f, 0.2f, 0.0f};
  const TaskErrorSummary summary = runner->Summarize(position, orientation, joint);
  CHECK(summary.robots == 4);
  CHECK(summary.successes == 2);  // robots 0 and 3; 1 misses the position, 2 the orientation
  CHECK(summary.SuccessRate() == 0.5);
  CHECK(summary.mean_position_m == Approx((0.001 + 0.02 + 0.009 + 0.0) / 4));
  CHECK(summary.max_position_m == Approx(0.02));
  CHECK(summary.max_orientation_rad == Approx(0.2));
  CHECK(summary.mean_joint_error == Approx((0.1 + 0.3 + 0.2) / 4));
  CHECK(summary.max_joint_error == Approx(0.3));
  // Exact sums: the mean of the same errors in any order, or of the halves' sums merged, has
  // the same bits (a double summed in sequence would not).
  std::vector<float> spread(1000);
  for (size_t r = 0; r < spread.size(); ++r)
    spread[r] = std::ldexp(1.0f + float(r % 7), int(r % 60) - 30);
  std::vector<float> reversed(spread.rbegin(), spread.rend());
  Result<RobotBatch> many = RobotBatch::Create(memory, model, spread.size());
  REQUIRE(many.ok());
  Result<RobotTaskRunner> many_runner = RobotTaskRunner::Create(memory, many.value(), {});
  REQUIRE(many_runner.ok());
  const TaskErrorSummary forward = many_runner->Summarize(spread, spread, spread);
  const TaskErrorSummary backward = many_runner->Summarize(reversed, reversed, reversed);
  CHECK(std::bit_cast<uint64_t>(forward.mean_position_m) ==
        std::bit_cast<uint64_t>(backward.mean_position_m));
  CHECK(std::bit_cast<uint64_t>(forward.mean_joint_error) ==
        std::bit_cast<uint64_t>(backward.mean_joint_error));
  // The totals of three ranges merged, last range first, summarize to the same bits; so do
  // they when each range's totals travel as words (as between MPI ranks) before the merge.
  const std::span<const float> all(spread);
  const size_t cuts[] = {0, 333, 334, 1000};
  TaskErrorTotals merged, merged_from_words;
  for (size_t part = 3; part-- > 0;) {
    const std::span<const float> range = all.subspan(cuts[part], cuts[part + 1] - cuts[part]);
    const TaskErrorTotals totals = many_runner->Totals(range, range, range);
    merged.Merge(totals);
    const std::array<uint64_t, TaskErrorTotals::kWords> words = totals.Words();
    merged_from_words.Merge(TaskErrorTotals::FromWords(words));
  }
  for (const TaskErrorTotals* totals : {&merged, &merged_from_words}) {
    const TaskErrorSummary from_parts = totals->Summary();
    CHECK(from_parts.robots == forward.robots);
    CHECK(from_parts.successes == forward.successes);
    CHECK(std::bit_cast<uint64_t>(from_parts.mean_position_m) ==
          std::bit_cast<uint64_t>(forward.mean_position_m));
    CHECK(std::bit_cast<uint64_t>(from_parts.mean_orientation_rad) ==
          std::bit_cast<uint64_t>(forward.mean_orientation_rad));
    CHECK(std::bit_cast<uint64_t>(from_parts.mean_joint_error) ==
          std::bit_cast<uint64_t>(forward.mean_joint_error));
    CHECK(from_parts.max_position_m == forward.max_position_m);
    CHECK(from_parts.max_orientation_rad == forward.max_orientation_rad);
    CHECK(from_parts.max_joint_error == forward.max_joint_error);
  }
  CHECK(merged_from_words.Words() == merged.Words());
}

// --- stand ---------------------------------------------------------------------------------------

RobotTaskParams StandParams() {
  RobotTaskParams params;
  params.task = RobotTask::kStand;
  params.torque_control = true;
  params.stand_posture.assign(kSoloPosture.begin(), kSoloPosture.end());
  params.seed = 5;
  return params;
}

TEST_CASE("stand drops Solo12s from drop_height onto their feet, where they stand") {
  const RobotModel model = LoadModel(kSolo12, true);
  MemoryAccountant memory;
  constexpr size_t kRobots = 20;
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, kRobots, SoloStandConfig(model));
  REQUIRE(batch.ok());
  const RobotTaskParams params = StandParams();
  Result<RobotTaskRunner> runner = RobotTaskRunner::Create(memory, batch.value(), params);
  REQUIRE(runner.ok());
  ThreadPool pool(2);
  runner->Start(pool);
  // The posture's standing height from the double forward kinematics: the base's height above
  // its lowest foot, for a level base at the origin.
  std::vector<double> posture_q(model.q_count(), 0.0);
  posture_q[3] = 1.0;
  for (size_t k = 0; k < model.dof(); ++k) posture_q[kFloatingBaseArrays + k] = kSoloPosture[k];
  const std::vector<Pose> posture_poses = ForwardKinematicsDouble(model, posture_q);
  double lowest = 1e9;
  for (const ContactPoint& contact : batch->contact_points()) {
    lowest = std::min(lowest, posture_poses[contact.link].p[2]);
  }
  const double standing = -lowest;
  const ConstLanesView q = std::as_const(batch.value()).q();
  for (size_t r = 0; r < kRobots; ++r) {
    INFO("robot " << r);
    CHECK(q.Array(2)[r] == Approx(standing + params.drop_height).margin(1e-6));
    CHECK(q.Array(3)[r] == 1.0f);  // level
    for (size_t k = 0; k < model.dof(); ++k) {
      CHECK(std::fabs(q.Array(kFloatingBaseArrays + k)[r] - kSoloPosture[k]) <=
            params.stand_spread);
      CHECK(batch->q_target().Array(k)[r] == kSoloPosture[k]);
    }
    CHECK(batch->target_pose().Array(2)[r] == Approx(standing).margin(1e-6));
  }
  for (uint64_t step = 0; step < 1500; ++step) REQUIRE(runner->Step(pool, step, 0.001f).ok());
  std::vector<float> height(kRobots), tilt(kRobots), joint(kRobots);
  runner->MeasureErrors(pool, height, tilt, joint);
  for (size_t r = 0; r < kRobots; ++r) {
    INFO("robot " << r);
    const double x = q.Array(4)[r], y = q.Array(5)[r];
    const double norm =
        std::sqrt(x * x + y * y + q.Array(3)[r] * q.Array(3)[r] + q.Array(6)[r] * q.Array(6)[r]);
    CHECK(height[r] == Approx(std::fabs(q.Array(2)[r] - standing)).margin(1e-6));
    CHECK(tilt[r] == Approx(2.0 * std::asin(std::sqrt(x * x + y * y) / norm)).margin(1e-5));
    CHECK(height[r] < 0.02f);
  }
  const TaskErrorSummary summary = runner->Summarize(height, tilt, joint);
  CHECK(summary.successes == kRobots);
}

TEST_CASE("stand gives robot r the same bits in any batch size, thread count and target") {
  const RobotModel model = LoadModel(kSolo12, true);
  constexpr size_t kCompared = 17;
  Snapshot reference;
  bool have_reference = false;
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    for (size_t robots : {kCompared, size_t{100}}) {
      for (size_t threads : {size_t{1}, size_t{3}}) {
        INFO("target " << target.name << ", " << robots << " robots, " << threads << " thread(s)");
        MemoryAccountant memory;
        Result<RobotBatch> batch =
            RobotBatch::Create(memory, model, robots, SoloStandConfig(model));
        REQUIRE(batch.ok());
        RobotTaskParams params = StandParams();
        params.drop_height = 0.01f;  // touches down within the steps below
        Result<RobotTaskRunner> runner = RobotTaskRunner::Create(memory, batch.value(), params);
        REQUIRE(runner.ok());
        ThreadPool pool(threads);
        runner->Start(pool);
        for (uint64_t step = 0; step < 60; ++step) REQUIRE(runner->Step(pool, step, 0.001f).ok());
        const Snapshot snapshot = TakeSnapshot(batch.value(), kCompared);
        if (!have_reference) {
          reference = snapshot;
          have_reference = true;
        }
        CHECK(SameBits(snapshot, reference));
      }
    }
  });
}

TEST_CASE("stand refuses robots and postures it cannot stand, naming the problem") {
  MemoryAccountant memory;
  const RobotModel solo = LoadModel(kSolo12, true);
  const auto refused = [&](const RobotModel& model, const RobotBatchConfig& config,
                           const RobotTaskParams& params) {
    Result<RobotBatch> batch = RobotBatch::Create(memory, model, 2, config);
    REQUIRE(batch.ok());
    Result<RobotTaskRunner> runner = RobotTaskRunner::Create(memory, batch.value(), params);
    REQUIRE_FALSE(runner.ok());
    return runner.status().message();
  };
  RobotBatchConfig no_contacts = SoloStandConfig(solo);
  no_contacts.torque.contacts.enabled = false;
  CHECK_THAT(refused(solo, no_contacts, StandParams()), Contains("ground contacts"));
  RobotTaskParams kinematic = StandParams();
  kinematic.torque_control = false;
  CHECK_THAT(refused(solo, SoloStandConfig(solo), kinematic), Contains("torque control"));
  const RobotModel fixed = LoadModel(kSolo12, false);
  CHECK_THAT(refused(fixed, SoloStandConfig(fixed), StandParams()), Contains("floating-base"));
  RobotTaskParams short_posture = StandParams();
  short_posture.stand_posture.pop_back();
  CHECK_THAT(refused(solo, SoloStandConfig(solo), short_posture),
             Contains("11 values") && Contains("(12)"));
  RobotBatchConfig limited = SoloStandConfig(solo);
  limited.control[4].upper = 0.5f;
  CHECK_THAT(refused(solo, limited, StandParams()),
             Contains("stand_posture[4]") && Contains("FR_HFE") && Contains("limits"));
  RobotTaskParams negative = StandParams();
  negative.drop_height = -0.1f;
  CHECK_THAT(refused(solo, SoloStandConfig(solo), negative), Contains("drop_height"));
}

TEST_CASE("batches of consecutive robot ranges (first_robot) do what one batch of them all does") {
  const RobotModel ur5 = LoadModel(kUr5);
  for (RobotTask task : {RobotTask::kReach, RobotTask::kTrack, RobotTask::kRandom}) {
    INFO("task " << RobotTaskName(task));
    RobotTaskParams params;
    params.task = task;
    params.seed = 11;
    params.random_resample_steps = 7;
    CheckRangesReproduceOneBatch(ur5, RobotBatchConfig{}, params, 20, 0.002f);
    // Torque control, through the dynamics.
    RobotBatchConfig torque;
    torque.torque.enabled = true;
    params.torque_control = true;
    CheckRangesReproduceOneBatch(ur5, torque, params, 20, 0.002f);
  }
  RobotTaskParams stand = StandParams();
  stand.drop_height = 0.01f;
  const RobotModel solo = LoadModel(kSolo12, true);
  CheckRangesReproduceOneBatch(solo, SoloStandConfig(solo), stand, 40, 0.001f);
  // The ranges differ from each other: robot 13 of the whole run is not robot 0.
  RobotTaskParams params;
  params.seed = 11;
  const Snapshot first = RunBatch(ur5, RobotBatchConfig{}, params, 1, 0, 0.002f);
  params.first_robot = 13;
  CHECK_FALSE(SameBits(first, RunBatch(ur5, RobotBatchConfig{}, params, 1, 0, 0.002f)));
}

}  // namespace
}  // namespace swarm
