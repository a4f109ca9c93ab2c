

// Tests for swarm/robots/robot_batch.h: robot r gets the same bits alone or among 17, 1000 or
// 100,000 robots, on every thread count and SIMD target; ControlStep and IkStep equal a per-robot
// loop of the kernels' scalar references (kernels/robot_*_reference.h) bitwise; steps allocate
// nothing; Create refuses bad configurations and budgets without leaking; ControlStep refuses a bad
// dt without touching the state; IK + PD steps bring a UR5's end effector to reachable poses.
#include "swarm/robots/robot_batch.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/base/lowbias32.h"
#include "swarm/kernels/robots/robot_control_reference.h"
#include "swarm/kernels/robots/robot_ik_reference.h"
#include "swarm/kernels/robots/robot_kinematics_reference.h"
#include "swarm/robots/robot_model.h"
#include "tests/support/for_each_target.h"
#include "tests/support/golden.h"
#include "tests/support/padding.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;

// A UR5 without meshes: the joint origins, axes and limits of ROS-Industrial's ur_description
// (ur5_robot.urdf), which encode Universal Robots' published DH parameters (d1 0.089159,
// a2 -0.425, a3 -0.39225, d4 0.10915, d5 0.09465, d6 0.0823).
constexpr const char* kUr5Urdf = R"(<?xml version="1.0"?>
<robot name="ur5">
  <link name="base_link"/>
  <link name="shoulder_link"/>
  <link name="upper_arm_link"/>
  <link name="forearm_link"/>
  <link name="wrist_1_link"/>
  <link name="wrist_2_link"/>
  <link name="wrist_3_link"/>
  <link name="ee_link"/>
  <joint name="shoulder_pan_joint" type="revolute">
    <parent link="base_link"/><child link="shoulder_link"/>
    <origin rpy="0 0 0" xyz="0 0 0.089159"/><axis xyz="0 0 1"/>
    <limit effort="150" lower="-6.28318530718" upper="6.28318530718" velocity="3.15"/>
  </joint>
  <joint name="shoulder_lift_joint" type="revolute">
    <parent link="shoulder_link"/><child link="upper_arm_link"/>
    <origin rpy="0 1.57079632679 0" xyz="0 0.13585 0"/><axis xyz="0 1 0"/>
    <limit effort="150" lower="-6.28318530718" upper="6.28318530718" velocity="3.15"/>
  </joint>
  <joint name="elbow_joint" type="revolute">
    <parent link="upper_arm_link"/><child link="forearm_link"/>
    <origin rpy="0 0 0" xyz="0 -0.1197 0.425"/><axis xyz="0 1 0"/>
    <limit effort="150" lower="-3.14159265359" upper="3.14159265359" velocity="3.15"/>
  </joint>
  <joint name="wrist_1_joint" type="revolute">
    <parent link="forearm_link"/><child link="wrist_1_link"/>
    <origin rpy="0 1.57079632679 0" xyz="0 0 0.39225"/><axis xyz="0 1 0"/>
    <limit effort="28" lower="-6.28318530718" upper="6.28318530718" velocity="3.2"/>
  </joint>
  <joint name="wrist_2_joint" type="revolute">
    <parent link="wrist_1_link"/><child link="wrist_2_link"/>
    <origin rpy="0 0 0" xyz="0 0.093 0"/><axis xyz="0 0 1"/>
    <limit effort="28" lower="-6.28318530718" upper="6.28318530718" velocity="3.2"/>
  </joint>
  <joint name="wrist_3_joint" type="revolute">
    <parent link="wrist_2_link"/><child link="wrist_3_link"/>
    <origin rpy="0 0 0" xyz="0 0 0.09465"/><axis xyz="0 1 0"/>
    <limit effort="28" lower="-6.28318530718" upper="6.28318530718" velocity="3.2"/>
  </joint>
  <joint name="ee_fixed_joint" type="fixed">
    <parent link="wrist_3_link"/><child link="ee_link"/>
    <origin rpy="0 0 1.57079632679" xyz="0 0.0823 0"/>
  </joint>
</robot>)";

// A small tree for the floating-base path: a trunk with two legs (hip revolute about an oblique
// axis, knee continuous), a prismatic foot whose range excludes 0 (so the initial q is clamped)
// and a mimic joint (so q has fewer columns than the tree has moving joints).
constexpr const char* kLeggedUrdf = R"(<?xml version="1.0"?>
<robot name="legged">
  <link name="trunk"/>
  <link name="left_thigh"/><link name="left_shin"/><link name="left_foot"/>
  <link name="right_thigh"/><link name="right_shin"/>
  <joint name="left_hip" type="revolute">
    <parent link="trunk"/><child link="left_thigh"/>
    <origin rpy="0.1 0 0" xyz="0.2 0.1 0"/><axis xyz="0 1 0.5"/>
    <limit effort="30" lower="-1.2" upper="1.0" velocity="5"/>
  </joint>
  <joint name="left_knee" type="continuous">
    <parent link="left_thigh"/><child link="left_shin"/>
    <origin rpy="0 0 0" xyz="0 0 -0.25"/><axis xyz="0 -1 0"/>
  </joint>
  <joint name="left_foot_slide" type="prismatic">
    <parent link="left_shin"/><child link="left_foot"/>
    <origin rpy="0 0 0" xyz="0 0 -0.25"/><axis xyz="0 0 -1"/>
    <limit effort="50" lower="0.02" upper="0.08" velocity="0.5"/>
  </joint>
  <joint name="right_hip" type="revolute">
    <parent link="trunk"/><child link="right_thigh"/>
    <origin rpy="-0.1 0 0" xyz="0.2 -0.1 0"/><axis xyz="0 1 0"/>
    <limit effort="30" lower="-1.2" upper="1.0" velocity="5"/>
  </joint>
  <joint name="right_knee" type="revolute">
    <parent link="right_thigh"/><child link="right_shin"/>
    <origin rpy="0 0 0" xyz="0 0 -0.25"/><axis xyz="0 1 0"/>
    <limit effort="30" lower="-2.5" upper="0" velocity="5"/>
    <mimic joint="left_knee" multiplier="-1" offset="0.1"/>
  </joint>
</robot>)";

RobotModel LoadModel(const char* xml, bool floating_base = false) {
  UrdfOptions options;
  options.floating_base = floating_base;
  Result<RobotModel> model = LoadUrdfString(xml, options);
  INFO(model.status().message());
  REQUIRE(model.ok());
  return std::move(model).value();
}

// A reproducible number in [0, 1) from (robot, quantity, stream): depends on the robot's index
// only, never on the batch it is in.
float Unit(uint64_t robot, uint32_t quantity, uint32_t stream) {
  const uint32_t key =
      LowBias32(static_cast<uint32_t>(robot) ^ LowBias32(quantity * 977u + stream));
  return static_cast<float>(LowBias32(key) >> 8) * (1.0f / 16777216.0f);
}

// A value within [lower, upper]; unlimited sides are replaced by +-pi.
float WithinLimits(const JointControl& joint, float unit) {
  const float lower = std::isfinite(joint.lower) ? joint.lower : -3.14159265f;
  const float upper = std::isfinite(joint.upper) ? joint.upper : 3.14159265f;
  const float value = lower + (upper - lower) * unit;
  return value < lower ? lower : (value > upper ? upper : value);
}

// Robot i of the batch is robot first + i of the experiment: a seeded configuration within the
// limits, a velocity, a PD set point, a floating-base pose and an IK goal, then FK.
void SeedRobots(RobotBatch& batch, uint64_t first, ThreadPool& pool) {
  const std::vector<JointControl>& control = batch.config().control;
  const size_t base = batch.tree().joint_q_begin();
  const LanesView q = batch.q();
  const LanesView qd = batch.qd();
  const LanesView q_target = batch.q_target();
  const LanesView goal = batch.target_pose();
  for (size_t i = 0; i < batch.size(); ++i) {
    const uint64_t r = first + i;
    for (size_t k = 0; k < base; ++k) {
      q.Array(k)[i] = Unit(r, static_cast<uint32_t>(k), 1) - 0.5f;  // x y z, unnormalised quat
    }
    for (size_t j = 0; j < control.size(); ++j) {
      const uint32_t quantity = static_cast<uint32_t>(j);
      q.Array(base + j)[i] = WithinLimits(control[j], Unit(r, quantity, 2));
      qd.Array(j)[i] = Unit(r, quantity, 3) - 0.5f;
      q_target.Array(j)[i] = WithinLimits(control[j], Unit(r, quantity, 4));
    }
    double quat[4];
    double norm = 0.0;
    for (uint32_t k = 0; k < 4; ++k) {
      quat[k] = Unit(r, k, 6) - 0.5;
      norm += quat[k] * quat[k];
    }
    for (uint32_t k = 0; k < 3; ++k) goal.Array(k)[i] = 0.6f * (Unit(r, k, 5) - 0.5f);
    for (uint32_t k = 0; k < 4; ++k)
      goal.Array(3 + k)[i] = static_cast<float>(quat[k] / std::sqrt(norm));
  }
  batch.ForwardKinematics(pool);
}

// Every state quantity of robot i, in StateHash's order.
std::vector<float> RobotState(const RobotBatch& batch, size_t i) {
  std::vector<float> values;
  for (const ConstLanesView& view : {batch.q(), batch.qd(), batch.q_target(), batch.torque(),
                                     batch.link_poses(), batch.target_pose()}) {
    for (size_t k = 0; k < view.arrays; ++k) values.push_back(view.Array(k)[i]);
  }
  return values;
}

bool SameBits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

bool AllFinite(const std::vector<float>& values) {
  for (float value : values) {
    if (!std::isfinite(value)) return false;
  }
  return true;
}

RobotBatchConfig SmallTiles(size_t tile_elements) {
  RobotBatchConfig config;
  config.schedule.tile_elements = tile_elements;
  config.schedule.min_elements_per_thread = 16;  // small batches still use every thread
  config.torque.schedule = config.schedule;
  return config;
}

constexpr float kDt = 0.01f;
// IK reach: each IK step sets q_target, the PD controller tracks it for a few control steps.
constexpr int kIkSteps = 300;
constexpr int kControlStepsPerIkStep = 2;

// Seeds robots first.. first + robots, then runs FK and `rounds` of (IK step, control step).
RobotBatch RunExperiment(MemoryAccountant& memory, const RobotModel& model, size_t robots,
                         uint64_t first, size_t threads, const RobotBatchConfig& config,
                         size_t rounds) {
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, robots, config);
  INFO(batch.status().message());
  REQUIRE(batch.ok());
  ThreadPool pool(threads);
  SeedRobots(*batch, first, pool);
  for (size_t round = 0; round < rounds; ++round) {
    batch->IkStep(pool);
    REQUIRE(batch->ControlStep(pool, kDt).ok());
  }
  return std::move(batch).value();
}

// `name` keys the golden StateHash of each batch size (tests/support/golden.h).
void CheckBatchSizeThreadAndTargetIndependence(const std::string& name, const RobotModel& model) {
  constexpr size_t kRounds = 3;
  const std::vector<uint64_t> probes = {0, 1, 15, 16, 999, 54321, 99999};
  // Robot r alone, on the default target: the bits every other run must reproduce.
  std::map<uint64_t, std::vector<float>> alone;
  for (uint64_t r : probes) {
    MemoryAccountant memory;
    alone[r] = RobotState(RunExperiment(memory, model, 1, r, 1, {}, kRounds), 0);
    REQUIRE(AllFinite(alone[r]));
  }
  std::map<size_t, uint64_t> first_hash;  // per batch size: the first run's StateHash
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    for (size_t robots : {size_t{17}, size_t{1000}, size_t{100000}}) {
      for (size_t threads : {size_t{1}, size_t{2}, size_t{3}}) {
        INFO("target " << target.name << ", " << robots << " robots, " << threads << " threads");
        MemoryAccountant memory;
        const RobotBatchConfig config = SmallTiles(robots > 1000 ? 256 : 2 * kPadFloats);
        const RobotBatch batch = RunExperiment(memory, model, robots, 0, threads, config, kRounds);
        const uint64_t hash = batch.StateHash();
        if (!first_hash.count(robots)) first_hash[robots] = hash;
        CHECK(hash == first_hash[robots]);
        for (uint64_t r : probes) {
          if (r >= robots) continue;
          INFO("robot " << r);
          CHECK(SameBits(RobotState(batch, r), alone[r]));
        }
      }
    }
    // Alone on this target too (a batch of one is a partial vector: the padding path).
    for (uint64_t r : probes) {
      INFO("target " << target.name << ", robot " << r << " alone");
      MemoryAccountant memory;
      CHECK(SameBits(RobotState(RunExperiment(memory, model, 1, r, 1, {}, kRounds), 0), alone[r]));
    }
  });
  for (const auto& [robots, hash] : first_hash) {
    test::CheckGolden("robots." + name + "." + std::to_string(robots) + "_robots.ik_pd_rounds_3",
                      hash);
  }
}

TEST_CASE("RobotBatch: golden bits of robot r for any batch size, threads or target (UR5)") {
  CheckBatchSizeThreadAndTargetIndependence("ur5", LoadModel(kUr5Urdf));
}

TEST_CASE(
    "RobotBatch: golden bits of robot r for any batch size, threads or target "
    "(floating-base tree with a mimic joint)") {
  CheckBatchSizeThreadAndTargetIndependence("legged_mimic",
                                            LoadModel(kLeggedUrdf, /*floating_base=*/true));
}

// One robot's state in the batch's layout (q | qd | q_target | torque | link poses | goal) plus
// its Jacobian, each quantity a padded array of one element, stepped with the scalar references.
class ReferenceRobot {
 public:
  ReferenceRobot(const RobotBatch& batch, size_t i)
      : tree_(batch.tree()),
        config_(batch.config()),
        dof_(batch.model().dof()),
        links_(batch.model().links.size()) {
    const std::vector<float> state = RobotState(batch, i);
    data_.assign((state.size() + 6 * dof_) * kPadFloats, 0.0f);
    for (size_t k = 0; k < state.size(); ++k) data_[k * kPadFloats] = state[k];
  }

  void ControlStep(float dt) {
    const size_t base = tree_.joint_q_begin();
    for (size_t j = 0; j < dof_; ++j) {
      *At(TorqueBegin() + j) = reference::PdTorque(config_.control[j], *At(base + j),
                                                   *At(QdBegin() + j), *At(TargetBegin() + j));
    }
    for (size_t j = 0; j < dof_; ++j) {
      reference::IntegrateJoint(config_.control[j], *At(TorqueBegin() + j), dt, *At(base + j),
                                *At(QdBegin() + j));
    }
    reference::RobotForwardKinematics(tree_, At(0), kPadFloats, At(PosesBegin()), kPadFloats);
  }

  void IkStep() {
    const size_t link = config_.end_effector;
    reference::RobotLinkJacobian(tree_, link, At(PosesBegin()), kPadFloats, At(JacobianBegin()),
                                 kPadFloats);
    reference::DampedLeastSquaresStep(
        config_.control.data(), dof_, View(PosesBegin() + kPoseArrays * link, kPoseArrays),
        View(GoalBegin(), kPoseArrays), View(JacobianBegin(), 6 * dof_),
        View(tree_.joint_q_begin(), dof_), View(TargetBegin(), dof_), config_.ik);
  }

  // In RobotState's order.
  std::vector<float> State() const {
    std::vector<float> values;
    for (size_t k = 0; k < JacobianBegin(); ++k) values.push_back(data_[k * kPadFloats]);
    return values;
  }

 private:
  size_t QdBegin() const { return tree_.q_count; }
  size_t TargetBegin() const { return QdBegin() + dof_; }
  size_t TorqueBegin() const { return TargetBegin() + dof_; }
  size_t PosesBegin() const { return TorqueBegin() + dof_; }
  size_t GoalBegin() const { return PosesBegin() + kPoseArrays * links_; }
  size_t JacobianBegin() const { return GoalBegin() + kPoseArrays; }
  float* At(size_t quantity) { return data_.data() + quantity * kPadFloats; }
  LanesView View(size_t first, size_t n) { return {At(first), 1, kPadFloats, n}; }

  KinematicTree tree_;
  RobotBatchConfig config_;
  size_t dof_;
  size_t links_;
  std::vector<float> data_;
};

TEST_CASE("RobotBatch: ControlStep and IkStep equal a per-robot loop of the scalar references") {
  for (const bool legged : {false, true}) {
    const RobotModel model = legged ? LoadModel(kLeggedUrdf, true) : LoadModel(kUr5Urdf);
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      for (size_t robots : {size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{100}}) {
        INFO("target " << target.name << ", " << model.name << ", " << robots << " robots");
        MemoryAccountant memory;
        Result<RobotBatch> batch =
            RobotBatch::Create(memory, model, robots, SmallTiles(2 * kPadFloats));
        REQUIRE(batch.ok());
        ThreadPool pool(2);
        SeedRobots(*batch, 7, pool);
        std::vector<ReferenceRobot> references;
        for (size_t i = 0; i < robots; ++i) references.emplace_back(*batch, i);
        for (size_t round = 0; round < 3; ++round) {
          REQUIRE(batch->ControlStep(pool, kDt).ok());
          batch->IkStep(pool);
          for (ReferenceRobot& reference : references) {
            reference.ControlStep(kDt);
            reference.IkStep();
          }
        }
        for (size_t i = 0; i < robots; ++i) {
          INFO("robot " << i);
          const std::vector<float> expected = references[i].State();
          REQUIRE(AllFinite(expected));
          CHECK(SameBits(RobotState(*batch, i), expected));
        }
      }
    });
  }
}

TEST_CASE("RobotBatch: Create starts at q = 0 clamped into the limits, FK done, goal = pose") {
  const RobotModel model = LoadModel(kLeggedUrdf, /*floating_base=*/true);
  MemoryAccountant memory;
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, 20);
  REQUIRE(batch.ok());
  REQUIRE(batch->size() == 20);
  REQUIRE(batch->q().arrays == kFloatingBaseArrays + model.dof());
  REQUIRE(model.dof() == 4);  // the mimic knee has no column
  const std::vector<JointControl>& control = batch->config().control;
  REQUIRE(control.size() == model.dof());
  for (size_t i = 0; i < batch->size(); ++i) {
    ReferenceRobot reference(*batch, i);
    // Base at the identity (x y z qw qx qy qz); joints at 0, or at the nearer limit.
    const float base[kFloatingBaseArrays] = {0, 0, 0, 1, 0, 0, 0};
    for (size_t k = 0; k < kFloatingBaseArrays; ++k) CHECK(batch->q().Array(k)[i] == base[k]);
    for (size_t j = 0; j < model.dof(); ++j) {
      const float expected = control[j].lower > 0.0f ? control[j].lower : 0.0f;
      CHECK(batch->q().Array(kFloatingBaseArrays + j)[i] == expected);
      CHECK(batch->q_target().Array(j)[i] == expected);
      CHECK(batch->qd().Array(j)[i] == 0.0f);
      CHECK(batch->torque().Array(j)[i] == 0.0f);
    }
    // Link poses are the reference FK of q, and the goal is the end effector's pose.
    std::vector<float> poses(kPoseArrays * model.links.size() * kPadFloats);
    std::vector<float> q(batch->q().arrays * kPadFloats);
    for (size_t k = 0; k < batch->q().arrays; ++k) q[k * kPadFloats] = batch->q().Array(k)[i];
    reference::RobotForwardKinematics(batch->tree(), q.data(), kPadFloats, poses.data(),
                                      kPadFloats);
    for (size_t k = 0; k < kPoseArrays * model.links.size(); ++k) {
      CHECK(batch->link_poses().Array(k)[i] == poses[k * kPadFloats]);
    }
    for (size_t k = 0; k < kPoseArrays; ++k) {
      CHECK(batch->target_pose().Array(k)[i] ==
            poses[(kPoseArrays * batch->end_effector() + k) * kPadFloats]);
    }
  }
  // The foot slide starts at its lower limit 0.02 m: the one clamped joint of this model.
  size_t clamped = 0;
  for (size_t j = 0; j < model.dof(); ++j) {
    if (control[j].lower > 0.0f) {
      ++clamped;
      CHECK(model.joints[model.dof_joints[j]].name == "left_foot_slide");
      CHECK(control[j].lower == 0.02f);
    }
  }
  CHECK(clamped == 1);
  CHECK(model.links[batch->end_effector()] == "left_foot");
}

TEST_CASE("RobotBatch: 100 steady-state steps allocate nothing") {
  const RobotModel model = LoadModel(kUr5Urdf);
  for (size_t threads : {size_t{1}, size_t{2}}) {
    INFO(threads << " threads");
    MemoryAccountant memory;
    Result<RobotBatch> batch = RobotBatch::Create(memory, model, 1000, SmallTiles(64));
    REQUIRE(batch.ok());
    ThreadPool pool(threads);
    SeedRobots(*batch, 0, pool);
    const CategoryStats before = memory.Total();
    CHECK(memory.Stats(MemoryCategory::kRobots).bytes_in_use == batch->allocated_bytes());
    for (int step = 0; step < 100; ++step) {
      batch->IkStep(pool);
      REQUIRE(batch->ControlStep(pool, kDt).ok());
      batch->ForwardKinematics(pool);
    }
    const CategoryStats after = memory.Total();
    CHECK(after.allocations == before.allocations);
    CHECK(after.bytes_in_use == before.bytes_in_use);
    CHECK(after.peak_bytes == before.peak_bytes);
  }
}

TEST_CASE("RobotBatch: a budget too small is refused naming kRobots, nothing leaked") {
  const RobotModel model = LoadModel(kUr5Urdf);
  constexpr size_t kRobots = 1000;
  // The state: q, qd, q_target, torque (6 each), 8 link poses and the goal, and the step's saved
  // start (q and qd, 6 each), one padded array of kRobots floats each.
  const size_t state_bytes =
      (6 * 6 + kPoseArrays * 8 + kPoseArrays) * test::PaddedFloats(kRobots) * sizeof(float);
  for (const size_t budget : {size_t{4096}, state_bytes + 4096}) {
    INFO("budget " << budget);
    MemoryAccountant memory(budget);
    Result<RobotBatch> batch = RobotBatch::Create(memory, model, kRobots, SmallTiles(64));
    REQUIRE_FALSE(batch.ok());
    CHECK(batch.status().code() == ErrorCode::kOverBudget);
    CHECK_THAT(batch.status().message(), Contains("robots") && Contains("budget"));
    const CategoryStats robots = memory.Stats(MemoryCategory::kRobots);
    CHECK(robots.bytes_in_use == 0);
    CHECK(robots.live_allocations == 0);
    // With the larger budget the state was allocated, then the Jacobian scratch refused: the
    // state was given back.
    CHECK(robots.allocations == (budget > state_bytes ? 1u : 0u));
  }
  MemoryAccountant memory;
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, kRobots, SmallTiles(64));
  REQUIRE(batch.ok());
  const size_t jacobian_bytes = 6 * 6 * 1024 * sizeof(float);  // 16 tiles of 64 robots
  CHECK(batch->allocated_bytes() == state_bytes + jacobian_bytes);
  CHECK(memory.Stats(MemoryCategory::kRobots).bytes_in_use == batch->allocated_bytes());
  CHECK(batch->BytesPerRobot() == static_cast<double>(state_bytes + jacobian_bytes) / kRobots);
}

TEST_CASE("RobotBatch: ControlStep refuses a bad dt and leaves the state as it was") {
  const RobotModel model = LoadModel(kUr5Urdf);
  MemoryAccountant memory;
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, 40);
  REQUIRE(batch.ok());
  ThreadPool pool(1);
  SeedRobots(*batch, 3, pool);
  const uint64_t before = batch->StateHash();
  for (float dt :
       {0.0f, -0.01f, std::nanf(""), std::numeric_limits<float>::infinity(), 1.5f, 1e30f}) {
    INFO("dt " << dt);
    const Status status = batch->ControlStep(pool, dt);
    REQUIRE_FALSE(status.ok());
    CHECK(status.code() == ErrorCode::kInvalidArgument);
    CHECK_THAT(status.message(), Contains("dt must be finite, > 0 and at most 1 s"));
    CHECK(batch->StateHash() == before);
  }
  // The hash sees every array: one good step changes it.
  REQUIRE(batch->ControlStep(pool, kDt).ok());
  CHECK(batch->StateHash() != before);
}

TEST_CASE("RobotBatch: Create refuses bad configurations with a message naming the problem") {
  const RobotModel model = LoadModel(kUr5Urdf);
  struct Case {
    const char* expected;
    void (*edit)(RobotBatchConfig&, size_t& robots);
  };
  const float nan = std::nanf("");
  static const std::string kTileMessage = "tile_elements must be a positive multiple of " +
                                          std::to_string(test::PaddedFloats(1)) + ", got " +
                                          std::to_string(test::PaddedFloats(1) + 8);
  static float bad_value;
  bad_value = nan;
  const Case cases[] = {
      {"robots must be > 0", [](RobotBatchConfig&, size_t& robots) { robots = 0; }},
      {"too many", [](RobotBatchConfig&, size_t& robots) { robots = SIZE_MAX / 8; }},
      {"config.control has 2 entries, expected one per independent joint of 'ur5' (6)",
       [](RobotBatchConfig& c, size_t&) { c.control.resize(2); }},
      {"config.control[1] (joint 'shoulder_lift_joint'): kp must be finite and >= 0, got -1",
       [](RobotBatchConfig& c, size_t&) { c.control[1].kp = -1.0f; }},
      {"config.control[0] (joint 'shoulder_pan_joint'): kd must be finite and >= 0, got nan",
       [](RobotBatchConfig& c, size_t&) { c.control[0].kd = bad_value; }},
      {"effort_limit must be > 0",
       [](RobotBatchConfig& c, size_t&) { c.control[5].effort_limit = 0; }},
      {"velocity_limit must be > 0",
       [](RobotBatchConfig& c, size_t&) { c.control[4].velocity_limit = bad_value; }},
      {"inverse_inertia must be finite and > 0",
       [](RobotBatchConfig& c, size_t&) { c.control[3].inverse_inertia = 0; }},
      {"(joint 'elbow_joint'): position limits must satisfy lower <= upper",
       [](RobotBatchConfig& c, size_t&) {
         c.control[2].lower = 2;
         c.control[2].upper = 1;
       }},
      {"config.end_effector is link 8, but 'ur5' has 8 links",
       [](RobotBatchConfig& c, size_t&) { c.end_effector = 8; }},
      {"config.ik.damping must be finite and > 0, got 0",
       [](RobotBatchConfig& c, size_t&) { c.ik.damping = 0; }},
      {"config.ik.orientation_weight must be finite and >= 0",
       [](RobotBatchConfig& c, size_t&) { c.ik.orientation_weight = -1; }},
      {"config.ik.max_step must be finite and > 0",
       [](RobotBatchConfig& c, size_t&) { c.ik.max_step = bad_value; }},
      {kTileMessage.c_str(),
       [](RobotBatchConfig& c, size_t&) { c.schedule.tile_elements = test::PaddedFloats(1) + 8; }},
      {"config.torque.schedule.tile_elements must be 0 (sized from the robots' state) or a "
       "multiple of",
       [](RobotBatchConfig& c, size_t&) {
         c.torque.enabled = true;
         c.torque.schedule.tile_elements = test::PaddedFloats(1) + 8;
       }},
  };
  for (const Case& bad : cases) {
    INFO(bad.expected);
    RobotBatchConfig config;
    config.control = DefaultJointControl(model);
    size_t robots = 10;
    bad.edit(config, robots);
    MemoryAccountant memory;
    Result<RobotBatch> batch = RobotBatch::Create(memory, model, robots, config);
    REQUIRE_FALSE(batch.ok());
    CHECK_THAT(batch.status().message(), Contains(bad.expected));
    CHECK(memory.Total().allocations == 0);
  }
}

// The end effector's position error of every robot (metres).
std::vector<double> PositionErrors(const RobotBatch& batch) {
  const ConstLanesView pose = batch.link_poses().Arrays(kPoseArrays * batch.end_effector(), 3);
  std::vector<double> errors(batch.size());
  for (size_t i = 0; i < batch.size(); ++i) {
    double sum = 0.0;
    for (size_t k = 0; k < 3; ++k) {
      const double d = static_cast<double>(pose.Array(k)[i]) - batch.target_pose().Array(k)[i];
      sum += d * d;
    }
    errors[i] = std::sqrt(sum);
  }
  return errors;
}

struct ReachOutcome {
  size_t reached = 0;                  // robots within 1 cm of their goal position at the end
  double mean_start_error = 0.0;       // metres
  double max_orientation_error = 0.0;  // radians, over the robots that reached
  bool limits_held = true;
};

// Goals: end-effector poses of seeded configurations within the URDF's limits (reachable by
// construction). Each robot starts at its goal configuration plus U(-start_spread, start_spread)
// per joint (clamped into `config`'s limits), or anywhere in [-pi, pi] when start_spread is 0,
// then runs kIkSteps IK steps, each tracked by kControlStepsPerIkStep PD control steps.
ReachOutcome Reach(const RobotModel& model, const RobotBatchConfig& config, float start_spread) {
  constexpr size_t kRobots = 256;
  MemoryAccountant memory;
  ThreadPool pool(2);
  Result<RobotBatch> goals = RobotBatch::Create(memory, model, kRobots);
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, kRobots, config);
  REQUIRE((goals.ok() && batch.ok()));
  const std::vector<JointControl>& goal_limits = goals->config().control;
  const std::vector<JointControl>& control = batch->config().control;
  for (size_t i = 0; i < kRobots; ++i) {
    for (size_t j = 0; j < model.dof(); ++j) {
      const uint32_t quantity = static_cast<uint32_t>(j);
      const float goal = WithinLimits(goal_limits[j], Unit(i, quantity, 10));
      float start = goal + start_spread * (2.0f * Unit(i, quantity, 11) - 1.0f);
      if (start_spread == 0.0f) start = WithinLimits(control[j], Unit(i, quantity, 11));
      start = std::clamp(start, control[j].lower, control[j].upper);
      goals->q().Array(j)[i] = goal;
      batch->q().Array(j)[i] = start;
      batch->q_target().Array(j)[i] = start;
    }
  }
  goals->ForwardKinematics(pool);
  batch->ForwardKinematics(pool);
  for (size_t k = 0; k < kPoseArrays; ++k) {
    const float* source = goals->link_poses().Array(kPoseArrays * goals->end_effector() + k);
    std::copy(source, source + kRobots, batch->target_pose().Array(k));
  }
  ReachOutcome outcome;
  for (double error : PositionErrors(*batch)) outcome.mean_start_error += error / kRobots;
  for (int step = 0; step < kIkSteps; ++step) {
    batch->IkStep(pool);
    for (int substep = 0; substep < kControlStepsPerIkStep; ++substep) {
      REQUIRE(batch->ControlStep(pool, kDt).ok());
      for (size_t j = 0; j < model.dof(); ++j) {
        for (size_t i = 0; i < kRobots; ++i) {
          const float q = batch->q().Array(j)[i];
          outcome.limits_held &= q >= control[j].lower && q <= control[j].upper;
        }
      }
    }
  }
  const std::vector<double> errors = PositionErrors(*batch);
  const ConstLanesView pose =
      batch->link_poses().Arrays(kPoseArrays * batch->end_effector() + 3, 4);
  const ConstLanesView goal = batch->target_pose().Arrays(3, 4);
  for (size_t i = 0; i < kRobots; ++i) {
    if (!(errors[i] < 0.01)) continue;
    ++outcome.reached;
    // Angle between the unit quaternions: 2 acos |<a, b>|.
    double dot = 0.0;
    for (size_t k = 0; k < 4; ++k) dot += static_cast<double>(pose.Array(k)[i]) * goal.Array(k)[i];
    outcome.max_orientation_error =
        std::max(outcome.max_orientation_error, 2.0 * std::acos(std::min(1.0, std::fabs(dot))));
  }
  return outcome;
}

TEST_CASE("RobotBatch: IK and PD steps bring a UR5's end effector to reachable poses") {
  const RobotModel model = LoadModel(kUr5Urdf);
  // Position and orientation (the default IkParams), starting within 1 rad per joint of a
  // configuration that reaches the goal: DLS is a local method, and from arbitrary starts the
  // elbow's +-pi limit traps some robots on the wrong side of a fold.
  const ReachOutcome outcome = Reach(model, RobotBatchConfig{}, 1.0f);
  INFO("reached " << outcome.reached << " of 256, mean start error " << outcome.mean_start_error
                  << " m, largest orientation error " << outcome.max_orientation_error << " rad");
  CHECK(outcome.mean_start_error > 0.1);  // the goals are not where the robots start
  CHECK(outcome.reached >= 256 * 95 / 100);
  CHECK(outcome.max_orientation_error < 0.05);
  CHECK(outcome.limits_held);
}

TEST_CASE("RobotBatch: IK for position only reaches goals from arbitrary starts") {
  const RobotModel model = LoadModel(kUr5Urdf);
  // Without position limits (every UR5 joint turns freely) and without an orientation goal, DLS
  // on the 6-DOF arm has no trap: robots start anywhere in [-pi, pi] per joint.
  RobotBatchConfig config;
  config.ik.orientation_weight = 0.0f;
  config.control = DefaultJointControl(model);
  for (JointControl& joint : config.control) {
    joint.lower = -std::numeric_limits<float>::infinity();
    joint.upper = std::numeric_limits<float>::infinity();
  }
  const ReachOutcome outcome = Reach(model, config, 0.0f);
  INFO("reached " << outcome.reached << " of 256, mean start error " << outcome.mean_start_error
                  << " m");
  CHECK(outcome.mean_start_error > 0.3);
  CHECK(outcome.reached >= 256 * 95 / 100);
}

}  // namespace
}  // namespace swarm
