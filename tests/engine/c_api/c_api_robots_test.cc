// Tests for the C API's robots (engine/c_api/c_api_robots.cc), through libswarm_c.so alone: a
// pendulum written here stepped by torques from the caller and by PD + gravity against its
// equation of motion integrated in double; forward kinematics of the views against the closed
// form; a floating body falling under gravity (the discrete free-fall formula) onto the ground
// and resting at its soft constraint's depth, sliding with Coulomb friction; joints held by their
// limits' soft constraints; zero-copy views that outlive the batch; and bad input with its
// message and the state left as it was.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "swarm/c_api/swarm_c.h"
#include "swarm/kernels/robots/soft_constraint.h"
#include "tests/engine/c_api/c_api_test_support.h"
#include "tests/support/soft_constraint_model.h"

namespace swarm::test {
namespace {

using Catch::Matchers::Contains;

struct ModelDeleter {
  void operator()(swarm_robot_model_impl* model) const { swarm_robot_model_destroy(model); }
};
struct BatchDeleter {
  void operator()(swarm_robot_batch_impl* batch) const { swarm_robot_batch_destroy(batch); }
};
using ModelPtr = std::unique_ptr<swarm_robot_model_impl, ModelDeleter>;
using BatchPtr = std::unique_ptr<swarm_robot_batch_impl, BatchDeleter>;

// A rod of mass kMass whose centre of mass is kCom below a y-axis hinge 1 m above the ground,
// and a massless tip 1 m below the hinge.
constexpr double kMass = 2.0;
constexpr double kCom = 0.5;
constexpr double kIyy = 0.02;
constexpr double kGravity = 9.81;
constexpr const char* kPendulum = R"(<robot name="pendulum">
  <link name="base"/>
  <link name="arm">
    <inertial><origin xyz="0 0 -0.5"/><mass value="2"/>
      <inertia ixx="0.01" iyy="0.02" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="tip"/>
  <joint name="swing" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 1"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1000" velocity="100"/></joint>
  <joint name="tip_joint" type="fixed"><parent link="arm"/><child link="tip"/>
    <origin xyz="0 0 -1"/></joint>
</robot>)";

// A free body (a puck, 1.5 kg) with a massless foot 0.1 m below its origin.
constexpr double kPuckMass = 1.5;
constexpr const char* kPuck = R"(<robot name="puck">
  <link name="body">
    <inertial><mass value="1.5"/>
      <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="foot"/>
  <joint name="foot_joint" type="fixed"><parent link="body"/><child link="foot"/>
    <origin xyz="0 0 -0.1"/></joint>
</robot>)";

ModelPtr Parse(const char* text, bool floating_base = false) {
  swarm_urdf_desc desc{floating_base, 0, SWARM_URDF_COLLISIONS_IGNORE};
  swarm_robot_model model = nullptr;
  const swarm_status status = swarm_robot_model_parse_urdf(text, std::strlen(text), &desc, &model);
  INFO(LastError());
  REQUIRE(status == SWARM_OK);
  return ModelPtr(model);
}

BatchPtr MakeBatch(swarm_context context, swarm_robot_model model,
                   const swarm_robot_batch_desc& desc) {
  swarm_robot_batch batch = nullptr;
  const swarm_status status = swarm_robot_batch_create(context, model, &desc, &batch);
  INFO(LastError());
  REQUIRE(status == SWARM_OK);
  return BatchPtr(batch);
}

TensorPtr View(swarm_robot_batch batch, swarm_robot_array array) {
  swarm_tensor tensor = nullptr;
  REQUIRE(swarm_robot_batch_tensor(batch, array, &tensor) == SWARM_OK);
  return TensorPtr(tensor);
}

std::string Name(swarm_robot_model model, swarm_robot_name_kind kind, size_t index) {
  size_t length = 0;
  REQUIRE(swarm_robot_model_name(model, kind, index, nullptr, 0, &length) == SWARM_OK);
  std::string text(length + 1, '\0');
  REQUIRE(swarm_robot_model_name(model, kind, index, text.data(), text.size(), nullptr) ==
          SWARM_OK);
  text.resize(length);
  return text;
}

uint64_t Hash(swarm_robot_batch batch) {
  uint64_t hash = 0;
  REQUIRE(swarm_robot_batch_state_hash(batch, &hash) == SWARM_OK);
  return hash;
}

TEST_CASE("robot models report their links, q and velocity names from the URDF") {
  ModelPtr pendulum = Parse(kPendulum);
  swarm_robot_model_info info{};
  REQUIRE(swarm_robot_model_info_get(pendulum.get(), &info) == SWARM_OK);
  CHECK(info.links == 3);
  CHECK(info.dof == 1);
  CHECK(info.q_count == 1);
  CHECK(info.velocity_count == 1);
  CHECK_FALSE(info.floating_base);
  CHECK(Name(pendulum.get(), SWARM_ROBOT_NAME_MODEL, 0) == "pendulum");
  CHECK(Name(pendulum.get(), SWARM_ROBOT_NAME_LINK, 0) == "base");
  CHECK(Name(pendulum.get(), SWARM_ROBOT_NAME_LINK, 2) == "tip");
  CHECK(Name(pendulum.get(), SWARM_ROBOT_NAME_LINK, info.default_end_effector) == "tip");
  CHECK(Name(pendulum.get(), SWARM_ROBOT_NAME_Q, 0) == "swing");

  ModelPtr puck = Parse(kPuck, /*floating_base=*/true);
  REQUIRE(swarm_robot_model_info_get(puck.get(), &info) == SWARM_OK);
  CHECK(info.dof == 0);
  CHECK(info.q_count == 7);
  CHECK(info.velocity_count == 6);
  CHECK(info.floating_base);
  CHECK(Name(puck.get(), SWARM_ROBOT_NAME_Q, 3) == "base_qw");
  CHECK(Name(puck.get(), SWARM_ROBOT_NAME_VELOCITY, 5) == "base_wz");

  size_t length = 0;
  CHECK(swarm_robot_model_name(puck.get(), SWARM_ROBOT_NAME_Q, 7, nullptr, 0, &length) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("index 7 is out of range: there are 7 names"));
}

// The pendulum's equation of motion in double, one semi-implicit Euler step: inertia about the
// hinge times qdd = tau - m g c sin q.
struct PendulumReference {
  double q, qd, armature;
  void Step(double tau, double dt) {
    const double qdd =
        (tau - kMass * kGravity * kCom * std::sin(q)) / (kMass * kCom * kCom + kIyy + armature);
    qd += qdd * dt;
    q += qd * dt;
  }
};

TEST_CASE("a torque-stepped pendulum follows its equation of motion, with caller torques and PD") {
  ContextPtr context = MakeContext(0, 2);
  ModelPtr model = Parse(kPendulum);
  constexpr size_t kRobots = 37;  // a partial last vector on every target
  const float kp[] = {40.0f}, kd[] = {3.0f}, armature[] = {0.05f};
  swarm_robot_batch_desc desc{};
  desc.robots = kRobots;
  desc.torque = true;
  desc.dof = 1;
  desc.kp = kp;
  desc.kd = kd;
  desc.armature = armature;
  BatchPtr batch = MakeBatch(context.get(), model.get(), desc);
  size_t robots = 0;
  REQUIRE(swarm_robot_batch_size(batch.get(), &robots) == SWARM_OK);
  REQUIRE(robots == kRobots);

  TensorPtr q = View(batch.get(), SWARM_ROBOT_Q);
  TensorPtr qd = View(batch.get(), SWARM_ROBOT_QD);
  TensorPtr tau = View(batch.get(), SWARM_ROBOT_TORQUE);
  TensorPtr target = View(batch.get(), SWARM_ROBOT_Q_TARGET);
  const swarm_tensor_info q_info = Info(q.get());
  REQUIRE(Shape(q_info) == std::vector<int64_t>{kRobots, 1});
  CHECK(q_info.strides[0] == 1);
  CHECK_FALSE(q_info.read_only);
  std::vector<PendulumReference> reference;
  for (size_t r = 0; r < kRobots; ++r) {
    const double start = 0.8 * std::sin(0.37 * double(r));
    *ElementOf<float>(q_info, {int64_t(r), 0}) = float(start);
    reference.push_back({double(float(start)), 0.0, armature[0]});
  }
  const float dt = 0.002f;

  SECTION("torques written by the caller (a policy): tau_r = 0.3 sin(r + 0.1 step)") {
    const swarm_tensor_info tau_info = Info(tau.get());
    for (int step = 0; step < 400; ++step) {
      for (size_t r = 0; r < kRobots; ++r) {
        const float torque = 0.3f * std::sin(float(r) + 0.1f * float(step));
        *ElementOf<float>(tau_info, {int64_t(r), 0}) = torque;
        reference[r].Step(torque, dt);
      }
      REQUIRE(swarm_robot_batch_torque_step(batch.get(), dt, SWARM_TORQUE_NONE) == SWARM_OK);
    }
  }
  SECTION("PD + gravity compensation toward 0.4 rad: I qdd = kp (0.4 - q) - kd qd") {
    const swarm_tensor_info target_info = Info(target.get());
    for (size_t r = 0; r < kRobots; ++r) *ElementOf<float>(target_info, {int64_t(r), 0}) = 0.4f;
    for (int step = 0; step < 400; ++step) {
      for (PendulumReference& robot : reference) {
        robot.Step(kMass * kGravity * kCom * std::sin(robot.q) + kp[0] * (0.4 - robot.q) -
                       kd[0] * robot.qd,
                   dt);
      }
      REQUIRE(swarm_robot_batch_torque_step(batch.get(), dt, SWARM_TORQUE_PD_GRAVITY) == SWARM_OK);
    }
  }
  // float32 state against the double reference after 400 steps (0.8 s).
  const swarm_tensor_info qd_info = Info(qd.get());
  for (size_t r = 0; r < kRobots; ++r) {
    INFO("robot " << r);
    CHECK(*ElementOf<float>(q_info, {int64_t(r), 0}) == Approx(reference[r].q).margin(2e-4));
    CHECK(*ElementOf<float>(qd_info, {int64_t(r), 0}) == Approx(reference[r].qd).margin(1e-3));
  }
}

TEST_CASE("link pose views are the forward kinematics of q, and views outlive the batch") {
  ContextPtr context = MakeContext();
  ModelPtr model = Parse(kPendulum);
  swarm_robot_batch_desc desc{};
  desc.robots = 5;
  BatchPtr batch = MakeBatch(context.get(), model.get(), desc);  // kinematic
  TensorPtr q = View(batch.get(), SWARM_ROBOT_Q);
  TensorPtr poses = View(batch.get(), SWARM_ROBOT_LINK_POSES);
  const swarm_tensor_info pose_info = Info(poses.get());
  REQUIRE(Shape(pose_info) == std::vector<int64_t>{5, 3, 7});
  CHECK(pose_info.read_only);
  const swarm_tensor_info q_info = Info(q.get());
  for (int64_t r = 0; r < 5; ++r) *ElementOf<float>(q_info, {r, 0}) = 0.5f * float(r) - 1.0f;
  REQUIRE(swarm_robot_batch_forward_kinematics(batch.get()) == SWARM_OK);
  batch.reset();  // the views keep the batch's memory
  for (int64_t r = 0; r < 5; ++r) {
    const double angle = 0.5 * double(r) - 1.0;
    INFO("robot " << r);
    // The tip: hinge (0, 0, 1) plus R_y(q) (0, 0, -1); every link of the arm turned about y.
    CHECK(*ElementOf<float>(pose_info, {r, 2, 0}) == Approx(-std::sin(angle)).margin(1e-6));
    CHECK(*ElementOf<float>(pose_info, {r, 2, 1}) == Approx(0.0).margin(1e-6));
    CHECK(*ElementOf<float>(pose_info, {r, 2, 2}) == Approx(1.0 - std::cos(angle)).margin(1e-6));
    CHECK(*ElementOf<float>(pose_info, {r, 1, 4}) == Approx(std::sin(angle / 2)).margin(1e-6));
    CHECK(*ElementOf<float>(pose_info, {r, 1, 6}) == Approx(std::cos(angle / 2)).margin(1e-6));
  }
}

TEST_CASE("state digests of batches of robot ranges add up to the whole batch's digest") {
  ContextPtr context = MakeContext();
  ModelPtr model = Parse(kPendulum);
  // Robot r's q is f(r) in every batch: one of 12 robots, and ranges [0, 5) and [5, 12).
  const auto digest_of = [&](size_t first, size_t robots) {
    swarm_robot_batch_desc desc{};
    desc.robots = robots;
    BatchPtr batch = MakeBatch(context.get(), model.get(), desc);
    TensorPtr q = View(batch.get(), SWARM_ROBOT_Q);
    const swarm_tensor_info q_info = Info(q.get());
    for (size_t r = 0; r < robots; ++r) {
      *ElementOf<float>(q_info, {int64_t(r), 0}) = 0.25f * float(first + r) - 1.0f;
    }
    REQUIRE(swarm_robot_batch_forward_kinematics(batch.get()) == SWARM_OK);
    uint64_t digest = 0;
    REQUIRE(swarm_robot_batch_state_digest(batch.get(), first, &digest) == SWARM_OK);
    return digest;
  };
  const uint64_t whole = digest_of(0, 12);
  CHECK(digest_of(0, 5) + digest_of(5, 7) == whole);
  CHECK(digest_of(0, 5) + digest_of(0, 7) != whole);  // the ranges' robots are numbered
  CHECK(swarm_robot_batch_state_digest(nullptr, 0, nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_robot_batch_state_digest: batch is null");
}

TEST_CASE("robot tasks on batches of robot ranges do what one batch of all the robots does") {
  ContextPtr context = MakeContext();
  ModelPtr model = Parse(kPendulum);
  for (const swarm_robot_task_kind kind : {SWARM_TASK_REACH, SWARM_TASK_RANDOM}) {
    INFO("task " << kind);
    // q after 30 steps, the state digest and the task totals of robots [first, first + robots)
    // of a run; `joint_errors` gets each robot's |q - q_target| (the pendulum's one joint).
    std::vector<double> joint_errors;
    swarm_task_totals totals{};
    const auto state = [&](size_t first, size_t robots, uint64_t* digest) {
      swarm_robot_batch_desc desc{};
      desc.robots = robots;
      BatchPtr batch = MakeBatch(context.get(), model.get(), desc);
      swarm_robot_task_desc task{kind, 7, first, false, SWARM_TORQUE_PD_GRAVITY};
      swarm_robot_task runner = nullptr;
      REQUIRE(swarm_robot_task_create(batch.get(), &task, &runner) == SWARM_OK);
      for (uint64_t step = 0; step < 30; ++step) {
        REQUIRE(swarm_robot_task_step(runner, step, 0.01f) == SWARM_OK);
      }
      REQUIRE(swarm_robot_task_totals(runner, &totals) == SWARM_OK);
      swarm_robot_task_destroy(runner);
      REQUIRE(swarm_robot_batch_state_digest(batch.get(), first, digest) == SWARM_OK);
      TensorPtr q = View(batch.get(), SWARM_ROBOT_Q);
      TensorPtr q_target = View(batch.get(), SWARM_ROBOT_Q_TARGET);
      const swarm_tensor_info info = Info(q.get());
      const swarm_tensor_info target_info = Info(q_target.get());
      std::vector<float> values;
      joint_errors.clear();
      for (size_t r = 0; r < robots; ++r) {
        values.push_back(*ElementOf<float>(info, {int64_t(r), 0}));
        joint_errors.push_back(std::fabs(double(values.back()) -
                                         double(*ElementOf<float>(target_info, {int64_t(r), 0}))));
      }
      return values;
    };
    uint64_t whole_digest = 0, head_digest = 0, tail_digest = 0;
    const std::vector<float> whole = state(0, 12, &whole_digest);
    const swarm_task_totals whole_totals = totals;
    const std::vector<double> whole_joint_errors = joint_errors;
    std::vector<float> parts = state(0, 5, &head_digest);
    const swarm_task_totals head_totals = totals;
    const std::vector<float> tail = state(5, 7, &tail_digest);
    swarm_task_totals tail_totals = totals;
    parts.insert(parts.end(), tail.begin(), tail.end());
    CHECK(parts == whole);
    CHECK(head_digest + tail_digest == whole_digest);
    CHECK(whole[0] != whole[5]);  // robots draw their own numbers
    // The ranges' totals merged (tail first) are the whole batch's, word for word; their
    // summary holds the mean and max of |q - q_target| computed here from the tensors.
    REQUIRE(swarm_task_totals_merge(&tail_totals, &head_totals) == SWARM_OK);
    CHECK(std::equal(std::begin(tail_totals.words), std::end(tail_totals.words),
                     std::begin(whole_totals.words)));
    swarm_task_summary summary{};
    REQUIRE(swarm_task_totals_summary(&tail_totals, &summary) == SWARM_OK);
    CHECK(summary.robots == 12);
    CHECK(summary.successes <= 12);
    CHECK(summary.success_rate == double(summary.successes) / 12.0);
    double sum = 0.0, max = 0.0;
    for (double e : whole_joint_errors) {
      sum += e;
      max = std::max(max, e);
    }
    CHECK(summary.mean_joint_error == Approx(sum / 12.0).epsilon(1e-12));
    CHECK(summary.max_joint_error == max);
    CHECK(summary.mean_joint_error > 0.0);
  }
  // All-zero words are the totals of no robots.
  swarm_task_totals empty{};
  swarm_task_summary nothing{};
  REQUIRE(swarm_task_totals_summary(&empty, &nothing) == SWARM_OK);
  CHECK(nothing.robots == 0);
  CHECK(nothing.success_rate == 0.0);
  CHECK(nothing.mean_joint_error == 0.0);
  CHECK(swarm_task_totals_merge(nullptr, &empty) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_task_totals_merge: into is null");
  CHECK(swarm_task_totals_summary(&empty, nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(swarm_robot_task_totals(nullptr, &empty) == SWARM_INVALID_ARGUMENT);
  // The task keeps its batch: it runs after the caller destroyed the batch handle.
  swarm_robot_batch_desc desc{};
  desc.robots = 2;
  BatchPtr batch = MakeBatch(context.get(), model.get(), desc);
  swarm_robot_task_desc reach{SWARM_TASK_REACH, 1, 0, false, SWARM_TORQUE_PD_GRAVITY};
  swarm_robot_task kept = nullptr;
  REQUIRE(swarm_robot_task_create(batch.get(), &reach, &kept) == SWARM_OK);
  batch.reset();
  CHECK(swarm_robot_task_step(kept, 0, 0.01f) == SWARM_OK);
  swarm_robot_task_destroy(kept);
  // Errors: a bad kind, torque control on a kinematic batch, null arguments.
  batch = MakeBatch(context.get(), model.get(), desc);
  swarm_robot_task runner = Sentinel<swarm_robot_task>();
  swarm_robot_task_desc task{static_cast<swarm_robot_task_kind>(9), 1, 0, false,
                             SWARM_TORQUE_PD_GRAVITY};
  CHECK(swarm_robot_task_create(batch.get(), &task, &runner) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_robot_task_create: task 9 is not one of 0..3");
  task = {SWARM_TASK_REACH, 1, 0, true, SWARM_TORQUE_PD_GRAVITY};
  CHECK(swarm_robot_task_create(batch.get(), &task, &runner) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("torque mode"));
  CHECK(swarm_robot_task_create(nullptr, &task, &runner) == SWARM_INVALID_ARGUMENT);
  CHECK(runner == Sentinel<swarm_robot_task>());
  CHECK(swarm_robot_task_step(nullptr, 0, 0.01f) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_robot_task_step: task is null");
  swarm_robot_task_destroy(nullptr);
}

// The depth at which a soft constraint at rest carries `load` (tests/support/
// soft_constraint_model.h), for a swarm_soft_constraint_desc with every field given.
double RestingDepth(const swarm_soft_constraint_desc& desc, double w0, double load, double dt) {
  SoftConstraint soft;
  soft.time_constant = desc.time_constant;
  soft.damping_ratio = desc.damping_ratio;
  soft.impedance_min = desc.impedance_min;
  soft.impedance_max = desc.impedance_max;
  soft.width = desc.width;
  soft.midpoint = desc.midpoint;
  soft.power = desc.power;
  soft.max_push_speed = desc.max_push_speed;
  return test::RestingDepth(soft, w0, load, dt);
}

// MuJoCo's defaults, which a zeroed swarm_soft_constraint_desc stands for.
constexpr swarm_soft_constraint_desc kDefaultSoft{0.02f, 1.0f, 0.9f, 0.95f, 0.001f, 0.5f, 2, 3.0f};

TEST_CASE("a floating body falls freely, then rests on the ground at its soft constraint's depth") {
  ContextPtr context = MakeContext();
  ModelPtr model = Parse(kPuck, /*floating_base=*/true);
  // The contact at the body's origin, its centre of mass: the row's reference inverse inertia is
  // w0 = 1 / m, and the ground's force exerts no torque.
  const char* const links[] = {"body"};
  // Zero: MuJoCo's defaults; and a softer constraint given field by field (midpoint and power
  // left zero: their defaults).
  const swarm_soft_constraint_desc custom{0.01f, 0.7f, 0.8f, 0.9f, 0.002f, 0.0f, 0, 0.0f};
  swarm_soft_constraint_desc expected = custom;
  expected.midpoint = kDefaultSoft.midpoint;
  expected.power = kDefaultSoft.power;
  for (const auto& [given, law] :
       {std::pair{swarm_soft_constraint_desc{}, kDefaultSoft}, std::pair{custom, expected}}) {
    INFO("time constant " << law.time_constant << ", damping ratio " << law.damping_ratio);
    const swarm_ground_desc ground{0.05f, 0.8f, given};
    swarm_robot_batch_desc desc{};
    desc.robots = 3;
    desc.torque = true;
    desc.contacts = true;
    desc.contact_links = links;
    desc.contact_link_count = 1;
    desc.ground = &ground;
    BatchPtr batch = MakeBatch(context.get(), model.get(), desc);
    TensorPtr q = View(batch.get(), SWARM_ROBOT_Q);
    const swarm_tensor_info q_info = Info(q.get());
    REQUIRE(Shape(q_info) == std::vector<int64_t>{3, 7});
    const double start = 0.2;  // 15 cm above the ground
    for (int64_t r = 0; r < 3; ++r) *ElementOf<float>(q_info, {r, 2}) = float(start);
    const double dt = 0.002;
    // Semi-implicit Euler from rest: z_n = z_0 - g dt^2 n (n + 1) / 2 while in the air.
    const int free_steps = 20;
    for (int n = 0; n < free_steps; ++n) {
      REQUIRE(swarm_robot_batch_torque_step(batch.get(), float(dt), SWARM_TORQUE_NONE) == SWARM_OK);
    }
    const double fallen = start - kGravity * dt * dt * free_steps * (free_steps + 1) / 2.0;
    CHECK(*ElementOf<float>(q_info, {0, 2}) == Approx(fallen).margin(1e-5));
    for (int n = 0; n < 2000; ++n) {
      REQUIRE(swarm_robot_batch_torque_step(batch.get(), float(dt), SWARM_TORQUE_NONE) == SWARM_OK);
    }
    // At rest the soft constraint carries m g at the depth its law gives.
    const double load = kPuckMass * kGravity;
    const double depth = RestingDepth(law, 1.0 / kPuckMass, load, dt);
    TensorPtr forces = View(batch.get(), SWARM_ROBOT_CONTACT_FORCES);
    TensorPtr friction = View(batch.get(), SWARM_ROBOT_CONTACT_FRICTION_FORCES);
    TensorPtr sliding = View(batch.get(), SWARM_ROBOT_CONTACT_SLIDING);
    const swarm_tensor_info force_info = Info(forces.get());
    const swarm_tensor_info friction_info = Info(friction.get());
    const swarm_tensor_info sliding_info = Info(sliding.get());
    REQUIRE(Shape(force_info) == std::vector<int64_t>{3, 1});
    REQUIRE(Shape(friction_info) == std::vector<int64_t>{3, 1, 2});
    REQUIRE(Shape(sliding_info) == std::vector<int64_t>{3, 1});
    CHECK(force_info.read_only);
    CHECK(friction_info.read_only);
    CHECK(sliding_info.read_only);
    for (int64_t r = 0; r < 3; ++r) {
      INFO("robot " << r << ", expected depth " << depth);
      // 1% of the depth (a few micrometres) allows the tail of the damped settling.
      CHECK(std::fabs(*ElementOf<float>(q_info, {r, 2}) - (ground.height - depth)) < 0.01 * depth);
      CHECK(*ElementOf<float>(force_info, {r, 0}) == Approx(load).epsilon(1e-3));
      // Resting without a sideways load: the contact sticks and friction carries nothing.
      CHECK(*ElementOf<float>(friction_info, {r, 0, 0}) == 0.0f);
      CHECK(*ElementOf<float>(friction_info, {r, 0, 1}) == 0.0f);
      CHECK(*ElementOf<float>(sliding_info, {r, 0}) == 0.0f);
    }
  }
}

TEST_CASE("a block pushed sideways slides with Coulomb friction, which the views show") {
  ContextPtr context = MakeContext();
  ModelPtr model = Parse(kPuck, /*floating_base=*/true);
  const char* const links[] = {"body"};
  const swarm_ground_desc ground{0.0f, 0.5f, {}};
  swarm_robot_batch_desc desc{};
  desc.robots = 2;
  desc.torque = true;
  desc.contacts = true;
  desc.contact_links = links;
  desc.contact_link_count = 1;
  desc.ground = &ground;
  BatchPtr batch = MakeBatch(context.get(), model.get(), desc);
  TensorPtr q = View(batch.get(), SWARM_ROBOT_Q);
  TensorPtr velocity = View(batch.get(), SWARM_ROBOT_BASE_VELOCITY);
  const swarm_tensor_info q_info = Info(q.get());
  const swarm_tensor_info velocity_info = Info(velocity.get());
  const float dt = 0.001f;
  const double load = kPuckMass * kGravity;
  for (int64_t r = 0; r < 2; ++r) {
    *ElementOf<float>(q_info, {r, 2}) =
        float(-RestingDepth(kDefaultSoft, 1.0 / kPuckMass, load, dt));
  }
  for (int step = 0; step < 200; ++step) {  // the normal force settles first
    REQUIRE(swarm_robot_batch_torque_step(batch.get(), dt, SWARM_TORQUE_NONE) == SWARM_OK);
  }
  *ElementOf<float>(velocity_info, {1, 0}) = 1.0f;  // robot 1 slides along +x
  for (int step = 0; step < 50; ++step) {
    REQUIRE(swarm_robot_batch_torque_step(batch.get(), dt, SWARM_TORQUE_NONE) == SWARM_OK);
  }
  TensorPtr forces = View(batch.get(), SWARM_ROBOT_CONTACT_FORCES);
  TensorPtr friction = View(batch.get(), SWARM_ROBOT_CONTACT_FRICTION_FORCES);
  TensorPtr sliding = View(batch.get(), SWARM_ROBOT_CONTACT_SLIDING);
  const swarm_tensor_info friction_info = Info(friction.get());
  const swarm_tensor_info sliding_info = Info(sliding.get());
  // Robot 0 rests and sticks; robot 1 slides, braked by mu f_n against its motion.
  CHECK(*ElementOf<float>(sliding_info, {0, 0}) == 0.0f);
  CHECK(*ElementOf<float>(friction_info, {0, 0, 0}) == 0.0f);
  CHECK(*ElementOf<float>(sliding_info, {1, 0}) == 1.0f);
  const double normal = *ElementOf<float>(Info(forces.get()), {1, 0});
  CHECK(normal == Approx(load).epsilon(1e-3));
  CHECK(*ElementOf<float>(friction_info, {1, 0, 0}) == Approx(-0.5 * normal).epsilon(1e-3));
  CHECK(*ElementOf<float>(friction_info, {1, 0, 1}) == 0.0f);
  // Coulomb's deceleration mu g over the 50 steps.
  CHECK(*ElementOf<float>(velocity_info, {1, 0}) ==
        Approx(1.0 - 0.5 * kGravity * 50 * dt).margin(2e-3));
}

TEST_CASE("joint limits are soft constraints whose forces the views show") {
  ContextPtr context = MakeContext();
  ModelPtr model = Parse(kPendulum);
  const swarm_soft_constraint_desc limits{0.05f, 2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0, 0.0f};
  swarm_robot_batch_desc desc{};
  desc.robots = 3;
  desc.torque = true;
  desc.limits = &limits;
  desc.limit_tolerance = 0.005f;
  BatchPtr batch = MakeBatch(context.get(), model.get(), desc);
  TensorPtr q = View(batch.get(), SWARM_ROBOT_Q);
  TensorPtr tau = View(batch.get(), SWARM_ROBOT_TORQUE);
  TensorPtr limit_forces = View(batch.get(), SWARM_ROBOT_LIMIT_FORCES);
  const swarm_tensor_info q_info = Info(q.get());
  const swarm_tensor_info tau_info = Info(tau.get());
  const swarm_tensor_info force_info = Info(limit_forces.get());
  REQUIRE(Shape(force_info) == std::vector<int64_t>{3, 1});
  CHECK(force_info.read_only);
  // Robot 0 hangs free; robot 1 is driven into its upper limit (3 rad) by 50 N m, robot 2 into
  // its lower limit (-3 rad) by 20 N m.
  const float torques[] = {0.0f, 50.0f, -20.0f};
  *ElementOf<float>(q_info, {1, 0}) = 2.9f;
  *ElementOf<float>(q_info, {2, 0}) = -2.9f;
  const float dt = 0.002f;
  for (int step = 0; step < 2000; ++step) {
    for (int64_t r = 0; r < 3; ++r) *ElementOf<float>(tau_info, {r, 0}) = torques[r];
    REQUIRE(swarm_robot_batch_torque_step(batch.get(), dt, SWARM_TORQUE_NONE) == SWARM_OK);
  }
  CHECK(*ElementOf<float>(force_info, {0, 0}) == 0.0f);
  for (int64_t r = 1; r < 3; ++r) {
    INFO("robot " << r);
    const double angle = *ElementOf<float>(q_info, {r, 0});
    const double past = std::fabs(angle) - 3.0;
    // Into the limit, by less than limit_tolerance (which the whole effort limit may sink it).
    CHECK(past > 0.0);
    CHECK(past < desc.limit_tolerance);
    // At rest the limit carries the torque and gravity: tau - m g c sin q = +-force.
    const double force = *ElementOf<float>(force_info, {r, 0});
    CHECK(force > 0.0);
    CHECK(force ==
          Approx(std::fabs(torques[r] - kMass * kGravity * kCom * std::sin(angle))).epsilon(1e-3));
  }
  // A kinematic batch has no limit forces: a view of no columns, and no contacts either.
  swarm_robot_batch_desc kinematic{};
  kinematic.robots = 4;
  BatchPtr plain = MakeBatch(context.get(), model.get(), kinematic);
  TensorPtr none = View(plain.get(), SWARM_ROBOT_LIMIT_FORCES);
  CHECK(Shape(Info(none.get())) == std::vector<int64_t>{4, 0});
  TensorPtr no_friction = View(plain.get(), SWARM_ROBOT_CONTACT_FRICTION_FORCES);
  CHECK(Shape(Info(no_friction.get())) == std::vector<int64_t>{4, 0, 2});
  TensorPtr no_sliding = View(plain.get(), SWARM_ROBOT_CONTACT_SLIDING);
  CHECK(Shape(Info(no_sliding.get())) == std::vector<int64_t>{4, 0});
}

TEST_CASE("soft constraint and speed cap parameters out of range are errors naming the field") {
  ContextPtr context = MakeContext();
  ModelPtr pendulum = Parse(kPendulum);
  ModelPtr puck = Parse(kPuck, /*floating_base=*/true);
  swarm_robot_batch_desc desc{};
  desc.robots = 2;
  desc.torque = true;
  swarm_robot_batch batch = Sentinel<swarm_robot_batch>();
  const auto refused = [&](swarm_robot_model model, const char* message) {
    INFO(message);
    CHECK(swarm_robot_batch_create(context.get(), model, &desc, &batch) == SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains(message));
    CHECK(batch == Sentinel<swarm_robot_batch>());
    size_t bytes = 1;
    REQUIRE(swarm_context_bytes_in_use(context.get(), &bytes) == SWARM_OK);
    CHECK(bytes == 0);
  };
  SECTION("joint limits") {
    swarm_soft_constraint_desc limits{};
    desc.limits = &limits;
    limits.time_constant = -0.02f;
    refused(pendulum.get(),
            "config.torque.limits.time_constant is -0.02, expected a finite "
            "value > 0 (seconds)");
    limits = {};
    limits.damping_ratio = NAN;
    refused(pendulum.get(), "config.torque.limits.damping_ratio is nan");
    limits = {};
    limits.impedance_max = 1.5f;
    refused(pendulum.get(),
            "config.torque.limits.impedance_max is 1.5, expected a value in (0, 1)");
    limits = {};
    limits.width = -0.001f;
    refused(pendulum.get(), "config.torque.limits.width is -0.001");
    limits = {};
    limits.midpoint = 1.0f;
    refused(pendulum.get(), "config.torque.limits.midpoint is 1");
    limits = {};
    limits.power = 17;
    refused(pendulum.get(), "config.torque.limits.power is 17, expected an integer from 1 to 16");
    limits = {};
    limits.max_push_speed = INFINITY;
    refused(pendulum.get(), "config.torque.limits.max_push_speed is inf");
    limits = {};
    desc.limit_tolerance = -1.0f;
    refused(pendulum.get(), "config.torque.limit_tolerance must be finite and > 0, got -1");
    desc.limit_tolerance = 0.0f;
    desc.max_joint_speed = -5.0f;
    refused(pendulum.get(), "config.torque.max_joint_speed and max_base_angular_speed must be > 0");
    desc.max_joint_speed = INFINITY;  // no cap
    desc.max_base_angular_speed = NAN;
    refused(pendulum.get(), "config.torque.max_joint_speed and max_base_angular_speed must be > 0");
    desc.max_base_angular_speed = 0.0f;
    desc.max_step_turn = INFINITY;
    refused(pendulum.get(), "config.torque.max_step_turn must be finite and > 0, got inf");
    desc.max_step_turn = 0.5f;
    CHECK(MakeBatch(context.get(), pendulum.get(), desc) != nullptr);  // in range
    // Torque-mode fields on a kinematic batch.
    desc.torque = false;
    refused(pendulum.get(), "max_step_turn need desc->torque");
  }
  SECTION("the ground") {
    const char* const links[] = {"body"};
    swarm_ground_desc ground{};
    desc.contacts = true;
    desc.contact_links = links;
    desc.contact_link_count = 1;
    desc.ground = &ground;
    ground.soft.time_constant = INFINITY;
    refused(puck.get(), "config.torque.contacts.ground.soft.time_constant is inf");
    ground.soft = {};
    ground.soft.impedance_min = -0.5f;
    refused(puck.get(), "config.torque.contacts.ground.soft.impedance_min is -0.5");
    ground.soft = {};
    ground.soft.power = -1;
    refused(puck.get(), "config.torque.contacts.ground.soft.power is -1");
    ground.soft = {};
    ground.friction = -0.1f;
    refused(puck.get(), "config.torque.contacts.ground.friction must be finite and >= 0");
    ground.friction = 0.0f;  // frictionless: used as given
    ground.height = NAN;
    refused(puck.get(), "config.torque.contacts.ground.height must be finite");
    ground.height = 0.0f;
    CHECK(MakeBatch(context.get(), puck.get(), desc) != nullptr);
  }
}

TEST_CASE("robot batch errors name the problem and change nothing") {
  ContextPtr context = MakeContext();
  ModelPtr pendulum = Parse(kPendulum);
  swarm_robot_batch_desc desc{};
  desc.robots = 4;
  desc.torque = true;
  swarm_robot_batch batch = nullptr;

  SECTION("bad descriptions") {
    const float gains[] = {1.0f, 2.0f};
    desc.kp = gains;
    desc.dof = 2;
    CHECK(swarm_robot_batch_create(context.get(), pendulum.get(), &desc, &batch) ==
          SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains("desc->dof must be the model's 1 independent joints"));
    const float negative[] = {-1.0f};
    desc.kp = negative;
    desc.dof = 1;
    CHECK(swarm_robot_batch_create(context.get(), pendulum.get(), &desc, &batch) ==
          SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains("desc->kp[0] must be finite and >= 0"));
    desc.kp = nullptr;
    desc.torque = false;
    desc.contacts = true;
    CHECK(swarm_robot_batch_create(context.get(), pendulum.get(), &desc, &batch) ==
          SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains("need desc->torque"));
    desc.torque = true;
    const char* const unknown[] = {"hand"};
    desc.contact_links = unknown;
    desc.contact_link_count = 1;
    CHECK(swarm_robot_batch_create(context.get(), pendulum.get(), &desc, &batch) ==
          SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains("hand"));
    desc.contacts = false;
    desc.contact_links = nullptr;
    desc.contact_link_count = 0;
    desc.end_effector = "hand";
    CHECK(swarm_robot_batch_create(context.get(), pendulum.get(), &desc, &batch) ==
          SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains("desc->end_effector"));
    desc.end_effector = nullptr;
    desc.robots = 0;
    CHECK(swarm_robot_batch_create(context.get(), pendulum.get(), &desc, &batch) ==
          SWARM_INVALID_ARGUMENT);
    CHECK(batch == nullptr);
  }
  SECTION("dynamics of a URDF without inertials") {
    ModelPtr bare = Parse(R"(<robot name="bare"><link name="a"/><link name="b"/>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
      <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>)");
    CHECK(swarm_robot_batch_create(context.get(), bare.get(), &desc, &batch) ==
          SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains("b"));
    CHECK(batch == nullptr);
    desc.torque = false;  // kinematics needs no inertials
    BatchPtr kinematic = MakeBatch(context.get(), bare.get(), desc);
    CHECK(swarm_robot_batch_torque_step(kinematic.get(), 0.01f, SWARM_TORQUE_NONE) ==
          SWARM_INVALID_ARGUMENT);
  }
  SECTION("over the context's budget") {
    ContextPtr small = MakeContext(/*budget_bytes=*/4096);
    desc.robots = 100000;
    CHECK(swarm_robot_batch_create(small.get(), pendulum.get(), &desc, &batch) ==
          SWARM_OVER_BUDGET);
    size_t bytes = 1;
    REQUIRE(swarm_context_bytes_in_use(small.get(), &bytes) == SWARM_OK);
    CHECK(bytes == 0);
  }
  SECTION("non-finite inputs of a step, a bad dt or controller") {
    BatchPtr owned = MakeBatch(context.get(), pendulum.get(), desc);
    TensorPtr tau = View(owned.get(), SWARM_ROBOT_TORQUE);
    const swarm_tensor_info tau_info = Info(tau.get());
    *ElementOf<float>(tau_info, {2, 0}) = 0.5f;
    REQUIRE(swarm_robot_batch_torque_step(owned.get(), 0.01f, SWARM_TORQUE_NONE) == SWARM_OK);
    const uint64_t before = Hash(owned.get());
    *ElementOf<float>(tau_info, {3, 0}) = NAN;
    CHECK(swarm_robot_batch_torque_step(owned.get(), 0.01f, SWARM_TORQUE_NONE) ==
          SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains("torque of robot 3, column 0 is nan"));
    *ElementOf<float>(tau_info, {3, 0}) = 0.0f;
    CHECK(swarm_robot_batch_torque_step(owned.get(), 0.0f, SWARM_TORQUE_PD_GRAVITY) ==
          SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains("dt"));
    CHECK(swarm_robot_batch_torque_step(owned.get(), 0.01f,
                                        static_cast<swarm_torque_controller>(7)) ==
          SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(),
               Contains("controller must be a swarm_torque_controller (0 .. 3), got 7"));
    for (float dt : {1e30f, 2.0f}) {  // steps over kMaxStepSeconds can only overflow
      CHECK(swarm_robot_batch_torque_step(owned.get(), dt, SWARM_TORQUE_NONE) ==
            SWARM_INVALID_ARGUMENT);
      CHECK_THAT(LastError(), Contains("dt must be finite, > 0 and at most 1 s"));
      CHECK(swarm_robot_batch_control_step(owned.get(), dt) == SWARM_INVALID_ARGUMENT);
    }
    // Finite inputs whose step overflows (joint 0 of robot 2 spinning at 3e38 rad/s: the
    // acceleration that stops it within the step overflows): the error names the value, and the
    // state is restored.
    TensorPtr q = View(owned.get(), SWARM_ROBOT_Q);
    TensorPtr qd = View(owned.get(), SWARM_ROBOT_QD);
    const float qd2 = *ElementOf<float>(Info(qd.get()), {2, 0});
    *ElementOf<float>(Info(qd.get()), {2, 0}) = 3e38f;
    const uint64_t far = Hash(owned.get());
    CHECK(swarm_robot_batch_torque_step(owned.get(), 0.01f, SWARM_TORQUE_NONE) ==
          SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains("the step overflowed from finite inputs: qdd of robot 2, "
                                     "column 0 (joint ") &&
                                Contains(") is -inf") &&
                                Contains("every robot is back at its state before the step"));
    CHECK(Hash(owned.get()) == far);
    *ElementOf<float>(Info(qd.get()), {2, 0}) = qd2;
    *ElementOf<float>(Info(q.get()), {1, 0}) = INFINITY;
    CHECK(swarm_robot_batch_forward_kinematics(owned.get()) == SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains("q of robot 1, column 0 is inf"));
    *ElementOf<float>(Info(q.get()), {1, 0}) = 0.0f;
    CHECK(Hash(owned.get()) == before);
    swarm_tensor view = nullptr;
    CHECK(swarm_robot_batch_tensor(owned.get(), static_cast<swarm_robot_array>(17), &view) ==
          SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains("array must be a swarm_robot_array (0 .. 16), got 17"));
    CHECK(view == nullptr);
  }
  SECTION("null handles") {
    CHECK(swarm_robot_batch_create(nullptr, pendulum.get(), &desc, &batch) ==
          SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains("context is null"));
    CHECK(swarm_robot_batch_torque_step(nullptr, 0.01f, SWARM_TORQUE_NONE) ==
          SWARM_INVALID_ARGUMENT);
    CHECK(swarm_robot_model_load_urdf(nullptr, nullptr, nullptr) == SWARM_INVALID_ARGUMENT);
    swarm_robot_model model = nullptr;
    CHECK(swarm_robot_model_load_urdf("/no/such.urdf", nullptr, &model) == SWARM_INVALID_ARGUMENT);
    CHECK_THAT(LastError(), Contains("/no/such.urdf"));
    CHECK(model == nullptr);
  }
}

}  // namespace
}  // namespace swarm::test

namespace swarm::test {

// A pendulum in MJCF: a rod of 2 kg whose centre is 0.5 m from a y-axis hinge (inertia about its
// centre 0.1 about x and y), a motor of gear 2 limited to +-3 N, gravity 5 m/s^2 down, a keyframe.
constexpr const char* kMjcfPendulum = R"(<mujoco model="mjcf_pendulum">
  <option gravity="0 0 -5"/>
  <worldbody><body name="rod"><joint name="swing" axis="0 1 0"/>
    <inertial pos="0 0 -0.5" mass="2" diaginertia="0.1 0.1 0.05"/></body></worldbody>
  <actuator><motor name="drive" joint="swing" gear="2" forcerange="-3 3"/></actuator>
  <keyframe><key name="tilted" qpos="0.5" qvel="-1" ctrl="0.75"/></keyframe>
</mujoco>)";

TEST_CASE("MJCF models: actuators, keyframes and the file's gravity through the C API") {
  const std::string path = "c_api_mjcf_pendulum.xml";
  std::ofstream(path) << kMjcfPendulum;
  swarm_robot_model loaded = nullptr;
  REQUIRE(swarm_robot_model_load_mjcf(path.c_str(), nullptr, &loaded) == SWARM_OK);
  ModelPtr model(loaded);
  swarm_robot_model_info info{};
  REQUIRE(swarm_robot_model_info_get(model.get(), &info) == SWARM_OK);
  CHECK(info.dof == 1);
  CHECK(info.actuators == 1);
  CHECK(info.keyframes == 1);
  CHECK(Name(model.get(), SWARM_ROBOT_NAME_ACTUATOR, 0) == "drive");
  CHECK(Name(model.get(), SWARM_ROBOT_NAME_KEYFRAME, 0) == "tilted");
  float q = 0, velocity = 0, ctrl = 0;
  REQUIRE(swarm_robot_model_keyframe(model.get(), 0, &q, &velocity, &ctrl) == SWARM_OK);
  CHECK(q == 0.5f);
  CHECK(velocity == -1.0f);
  CHECK(ctrl == 0.75f);
  CHECK(swarm_robot_model_keyframe(model.get(), 1, &q, nullptr, nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("the model has 1 keyframes"));

  ContextPtr context = MakeContext();
  swarm_robot_batch_desc desc{};
  desc.robots = 3;
  desc.torque = true;
  BatchPtr batch = MakeBatch(context.get(), model.get(), desc);
  TensorPtr q_view = View(batch.get(), SWARM_ROBOT_Q);
  TensorPtr ctrl_view = View(batch.get(), SWARM_ROBOT_CTRL);
  const swarm_tensor_info q_info = Info(q_view.get());
  const swarm_tensor_info ctrl_info = Info(ctrl_view.get());
  REQUIRE(Shape(ctrl_info) == std::vector<int64_t>{3, 1});
  CHECK_FALSE(ctrl_info.read_only);
  const float inputs[3] = {0.75f, -4.0f, 0.0f};  // the second beyond the force range
  for (int64_t r = 0; r < 3; ++r) {
    *ElementOf<float>(q_info, {r, 0}) = 0.5f;
    *ElementOf<float>(ctrl_info, {r, 0}) = inputs[r];
  }
  REQUIRE(swarm_robot_batch_torque_step(batch.get(), 0.001f, SWARM_TORQUE_ACTUATORS) == SWARM_OK);
  TensorPtr torque_view = View(batch.get(), SWARM_ROBOT_TORQUE);
  TensorPtr qdd_view = View(batch.get(), SWARM_ROBOT_QDD);
  const swarm_tensor_info torque_info = Info(torque_view.get());
  const swarm_tensor_info qdd_info = Info(qdd_view.get());
  const double inertia = 0.1 + 2.0 * 0.5 * 0.5;  // about the hinge
  for (size_t r = 0; r < 3; ++r) {
    INFO("robot " << r);
    const double force = std::clamp(double(inputs[r]), -3.0, 3.0);
    const float torque = *ElementOf<float>(torque_info, {int64_t(r), 0});
    const float qdd = *ElementOf<float>(qdd_info, {int64_t(r), 0});
    CHECK(std::abs(torque - 2.0 * force) < 1e-6);
    // The file's gravity (5 m/s^2) pulls the centre back toward the bottom.
    const double want = (2.0 * force - 2.0 * 5.0 * 0.5 * std::sin(0.5)) / inertia;
    CHECK(std::abs(qdd - want) < 1e-4 * (1.0 + std::abs(want)));
  }
  CHECK(swarm_robot_batch_torque_step(batch.get(), 0.001f, swarm_torque_controller(4)) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("(0 .. 3)"));
}

// A ball on a slide joint above a floor: its collision sphere's distance to the floor is the
// joint's height minus the radius, exactly.
constexpr const char* kMjcfBall = R"(<mujoco model="mjcf_ball">
  <worldbody><geom name="floor" type="plane" size="1 1 1"/>
    <body name="ball" pos="0 0 0.5"><joint name="lift" type="slide" axis="0 0 1"/>
      <geom name="shell" size="0.1" mass="1"/></body></worldbody>
</mujoco>)";

// kMjcfBall written to `path` and loaded.
ModelPtr LoadBall(const std::string& path) {
  std::ofstream(path) << kMjcfBall;
  swarm_robot_model loaded = nullptr;
  REQUIRE(swarm_robot_model_load_mjcf(path.c_str(), nullptr, &loaded) == SWARM_OK);
  return ModelPtr(loaded);
}

TEST_CASE("MJCF models: collision shapes' contacts through the C API") {
  ModelPtr model = LoadBall("c_api_mjcf_ball.xml");
  ContextPtr context = MakeContext();
  swarm_robot_batch_desc desc{};
  desc.robots = 4;
  desc.collisions = true;
  BatchPtr batch = MakeBatch(context.get(), model.get(), desc);
  size_t slots = 0;
  REQUIRE(swarm_robot_batch_contact_slots(batch.get(), &slots) == SWARM_OK);
  REQUIRE(slots == 1);
  swarm_contact_slot_info slot{};
  REQUIRE(swarm_robot_batch_contact_slot(batch.get(), 0, &slot) == SWARM_OK);
  CHECK(slot.pair == 0);
  CHECK(std::string(slot.shape1) == "floor");
  CHECK(std::string(slot.shape2) == "shell");
  CHECK(slot.link1 == -1);
  CHECK(slot.link2 >= 0);
  CHECK(swarm_robot_batch_contact_slot(batch.get(), 1, &slot) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("slot 1 is past the batch's 1 contact slots"));

  TensorPtr contacts = View(batch.get(), SWARM_ROBOT_SHAPE_CONTACTS);
  const swarm_tensor_info info = Info(contacts.get());
  REQUIRE(Shape(info) == std::vector<int64_t>{4, 1, 7});
  CHECK(info.read_only);
  CHECK(*ElementOf<float>(info, {0, 0, 0}) == FLT_MAX);  // before the first detection
  TensorPtr q_view = View(batch.get(), SWARM_ROBOT_Q);
  const swarm_tensor_info q_info = Info(q_view.get());
  const float lifts[4] = {0.0f, -0.45f, -0.55f, 1.0f};  // the ball's centre at 0.5 + lift
  for (int64_t r = 0; r < 4; ++r) *ElementOf<float>(q_info, {r, 0}) = lifts[r];
  REQUIRE(swarm_robot_batch_forward_kinematics(batch.get()) == SWARM_OK);
  REQUIRE(swarm_robot_batch_detect_contacts(batch.get()) == SWARM_OK);
  for (int64_t r = 0; r < 4; ++r) {
    INFO("robot " << r);
    const double distance = 0.5 + lifts[r] - 0.1;
    CHECK(std::abs(*ElementOf<float>(info, {r, 0, 0}) - distance) < 1e-6);
    CHECK(std::abs(*ElementOf<float>(info, {r, 0, 3}) - distance / 2) < 1e-6);  // point z
    CHECK(*ElementOf<float>(info, {r, 0, 6}) == 1.0f);                          // normal z
  }

  swarm_robot_batch_desc plain{};
  plain.robots = 1;
  BatchPtr none = MakeBatch(context.get(), model.get(), plain);
  REQUIRE(swarm_robot_batch_contact_slots(none.get(), &slots) == SWARM_OK);
  CHECK(slots == 0);
  REQUIRE(swarm_robot_batch_detect_contacts(none.get()) == SWARM_OK);  // nothing to detect
}

TEST_CASE("MJCF models: world contacts act in torque steps through the C API") {
  ModelPtr model = LoadBall("c_api_mjcf_ball_world.xml");
  ContextPtr context = MakeContext();
  swarm_robot_batch_desc desc{};
  desc.robots = 3;
  desc.torque = true;
  desc.world_contacts = true;
  swarm_robot_batch made = nullptr;
  CHECK(swarm_robot_batch_create(context.get(), model.get(), &desc, &made) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("desc->world_contacts needs desc->collisions"));
  desc.torque = false;
  desc.collisions = true;
  CHECK(swarm_robot_batch_create(context.get(), model.get(), &desc, &made) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("world_contacts") && Contains("need desc->torque"));
  desc.torque = true;
  BatchPtr batch = MakeBatch(context.get(), model.get(), desc);
  // The ball (1 kg, radius 0.1, centre at 0.5 + lift) dropped from 0.1 m above the floor and
  // resting after 1 s: the floor carries m g, pushing up.
  TensorPtr q_view = View(batch.get(), SWARM_ROBOT_Q);
  const swarm_tensor_info q_info = Info(q_view.get());
  for (int64_t r = 0; r < 3; ++r) *ElementOf<float>(q_info, {r, 0}) = -0.3f;
  for (int step = 0; step < 500; ++step) {
    REQUIRE(swarm_robot_batch_torque_step(batch.get(), 0.002f, SWARM_TORQUE_NONE) == SWARM_OK);
  }
  TensorPtr forces = View(batch.get(), SWARM_ROBOT_CONTACT_FORCES);
  TensorPtr geometry = View(batch.get(), SWARM_ROBOT_CONTACT_GEOMETRY);
  const swarm_tensor_info force_info = Info(forces.get()), geometry_info = Info(geometry.get());
  REQUIRE(Shape(force_info) == std::vector<int64_t>{3, 1});
  REQUIRE(Shape(geometry_info) == std::vector<int64_t>{3, 1, 7});
  CHECK(geometry_info.read_only);
  for (int64_t r = 0; r < 3; ++r) {
    INFO("robot " << r);
    CHECK(std::abs(*ElementOf<float>(force_info, {r, 0}) - 9.81f) < 0.01f * 9.81f);
    CHECK(std::abs(*ElementOf<float>(geometry_info, {r, 0, 0})) < 1e-3f);  // resting on it
    CHECK(*ElementOf<float>(geometry_info, {r, 0, 6}) == 1.0f);            // pushing up
    CHECK(std::abs(*ElementOf<float>(q_info, {r, 0}) + 0.4f) < 1e-3f);     // centre 0.1 up
  }
}

}  // namespace swarm::test
