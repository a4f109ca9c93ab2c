// Tests for ground contacts in RobotBatch's torque mode (GroundContactConfig,
// swarm/kernels/robots/robot_contact.h), against analytic results and the Solo12 of ../shared/urdf:
//   - a floating block resting on one contact sinks by m g / k and its contact carries m g;
//   - a block sliding on its contact stops after the distance the regularised Coulomb law
//     integrates to in closed form (mu g deceleration above the slip velocity);
//   - Solo12s dropped from 0.3 m, tilted and with perturbed joints, under PD + gravity
//     compensation, land on their four feet and stand: over the last 0.5 s of 2.5 s their base
//     height is steady to 2 cm and their tilt under 5 degrees, and the feet carry the weight;
//   - robot r gets the same bits alone or among 40, on 1-3 threads and every SIMD target (Euler
//     and RK4), steps allocate nothing, and bad contact configurations give errors naming the
//     problem.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"
#include "tests/engine/robots/solo12_fixture.h"
#include "tests/support/for_each_target.h"
#include "tests/support/golden.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;
using test::kSoloPosture;
using test::Solo12Path;
using test::SoloStandConfig;

constexpr float kDt = 0.001f;
constexpr double kGravity = 9.81;

RobotModel LoadFloating(const std::string& path) {
  UrdfOptions options;
  options.floating_base = true;
  Result<RobotModel> model = LoadUrdfFile(path, options);
  if (!model.ok()) FAIL(model.status().message());
  return std::move(model).value();
}

RobotBatch Create(MemoryAccountant& memory, const RobotModel& model, size_t robots,
                  const RobotBatchConfig& config) {
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, robots, config);
  if (!batch.ok()) FAIL(batch.status().message());
  return std::move(batch).value();
}

// A 2 kg block with its centre of mass at its link origin, which is also its one contact point
// (the leaf of a model without joints), so contact forces exert no torque on it.
constexpr double kBlockMass = 2.0;
RobotModel Block() {
  UrdfOptions options;
  options.floating_base = true;
  Result<RobotModel> model = LoadUrdfString(R"(<robot name="block"><link name="block">
      <inertial><mass value="2"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0"
      iyz="0"/></inertial></link></robot>)",
                                            options);
  if (!model.ok()) FAIL(model.status().message());
  return std::move(model).value();
}

RobotBatchConfig BlockConfig(const RobotModel& model, const GroundContact& ground) {
  RobotBatchConfig config;
  config.torque.enabled = true;
  config.torque.contacts.enabled = true;
  config.torque.contacts.ground = ground;
  config.control = DefaultJointControl(model);
  return config;
}

// Robot r (of `first` + r in a larger set) dropped with its base at `height`, tilted by up to 8
// degrees about a horizontal axis of its own, its joints off the posture by up to 0.1 rad, the
// posture as its PD set point.
void DropSolo(RobotBatch& batch, size_t first, float height) {
  const LanesView q = batch.q();
  for (size_t r = 0; r < batch.size(); ++r) {
    const float u = float((first + r) % 8) / 8.0f;
    const float half_angle = 0.07f * (0.25f + 0.75f * u);
    const float heading = 6.2831853f * u;
    q.Array(0)[r] = 0.0f;
    q.Array(1)[r] = 0.0f;
    q.Array(2)[r] = height;
    q.Array(3)[r] = std::cos(half_angle);
    q.Array(4)[r] = std::cos(heading) * std::sin(half_angle);
    q.Array(5)[r] = std::sin(heading) * std::sin(half_angle);
    q.Array(6)[r] = 0.0f;
    for (size_t j = 0; j < 12; ++j) {
      q.Array(7 + j)[r] = kSoloPosture[j] + 0.1f * std::sin(float(first + r) * 1.7f + float(j));
      batch.q_target().Array(j)[r] = kSoloPosture[j];
    }
  }
}

// Tilt of a base orientation: the angle between its z axis and the world's.
double Tilt(const ConstLanesView& q, size_t r) {
  const double x = q.Array(4)[r], y = q.Array(5)[r];
  return std::acos(std::clamp(1.0 - 2.0 * (x * x + y * y), -1.0, 1.0));
}

TEST_CASE("Ground contacts: a resting block sinks by m g / k and its contact carries its weight",
          "[dynamics]") {
  const RobotModel model = Block();
  const GroundContact ground{0.25f, 2.0e4f, 100.0f, 0.8f, 0.1f};
  MemoryAccountant memory;
  RobotBatch batch = Create(memory, model, 3, BlockConfig(model, ground));
  REQUIRE(batch.contact_points().size() == 1);
  const LanesView q = batch.q();
  for (size_t r = 0; r < 3; ++r) q.Array(2)[r] = ground.height + 0.01f * float(r);  // falls 0-2 cm
  ThreadPool pool(1);
  for (int step = 0; step < 3000; ++step) {
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kNone).ok());
  }
  const double depth = kBlockMass * kGravity / ground.stiffness;  // 0.98 mm
  for (size_t r = 0; r < 3; ++r) {
    INFO("robot " << r);
    // float32 positions near 0.25 m round to 3e-8 m; the 1% allows the damped ring-down's tail.
    CHECK(std::fabs(double(q.Array(2)[r]) - (ground.height - depth)) < 0.01 * depth);
    CHECK(std::fabs(double(batch.contact_forces().Array(0)[r]) - kBlockMass * kGravity) <
          0.01 * kBlockMass * kGravity);
    CHECK(q.Array(0)[r] == 0.0f);  // no friction without sliding
  }
}

TEST_CASE("Ground contacts: a sliding block stops where regularised Coulomb friction says",
          "[dynamics]") {
  const RobotModel model = Block();
  const GroundContact ground{0.0f, 2.0e4f, 300.0f, 0.5f, 0.01f};
  MemoryAccountant memory;
  RobotBatch batch = Create(memory, model, 2, BlockConfig(model, ground));
  const LanesView q = batch.q();
  const double depth = kBlockMass * kGravity / ground.stiffness;
  const double v0[2] = {1.0, 2.0};
  for (size_t r = 0; r < 2; ++r) {
    q.Array(2)[r] = static_cast<float>(-depth);  // resting depth: no bounce
    batch.base_velocity().Array(0)[r] = static_cast<float>(v0[r]);
  }
  ThreadPool pool(1);
  for (int step = 0; step < 1500; ++step) {
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kNone).ok());
  }
  // dv/dt = -mu g v / sqrt(v^2 + vs^2), so dx = -sqrt(v^2 + vs^2) dv / (mu g) and the block
  // stops after x = [v/2 sqrt(v^2 + vs^2) + vs^2/2 ln(v + sqrt(v^2 + vs^2))] from 0 to v0 over
  // mu g.
  const double mu_g = double(ground.friction) * kGravity, vs = ground.slip_velocity;
  for (size_t r = 0; r < 2; ++r) {
    const auto antiderivative = [&](double v) {
      const double root = std::sqrt(v * v + vs * vs);
      return 0.5 * v * root + 0.5 * vs * vs * std::log(v + root);
    };
    const double distance = (antiderivative(v0[r]) - antiderivative(0.0)) / mu_g;
    INFO("v0 " << v0[r] << ": slid " << q.Array(0)[r] << " m, analytic " << distance);
    // Explicit Euler over ~200-400 steps: 0.5%; the tail below vs creeps on for a few mm.
    CHECK(std::fabs(q.Array(0)[r] - distance) < 0.01 * distance);
    CHECK(std::fabs(batch.base_velocity().Array(0)[r]) < 1e-3f);
    CHECK(std::fabs(q.Array(1)[r]) == 0.0f);
  }
}

TEST_CASE("Ground contacts: Solo12s dropped from 0.3 m stand on their feet", "[dynamics]") {
  const RobotModel model = LoadFloating(Solo12Path());
  MemoryAccountant memory;
  constexpr size_t kRobots = 8;
  RobotBatch batch = Create(memory, model, kRobots, SoloStandConfig(model));
  REQUIRE(batch.contact_points().size() == 4);  // the four feet, the leaves
  for (const ContactPoint& contact : batch.contact_points()) {
    CHECK_THAT(model.links[contact.link], Contains("FOOT"));
  }
  DropSolo(batch, 0, 0.3f);
  double mass = 0.0;
  for (const LinkInertial& inertial : model.inertials) mass += inertial.mass;
  ThreadPool pool(2);
  std::vector<double> low(kRobots, 1e9), high(kRobots, -1e9), tilt(kRobots, 0.0);
  const ConstLanesView q = std::as_const(batch).q();
  for (int step = 0; step < 2500; ++step) {
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kPdGravity).ok());
    if (step < 2000) continue;
    for (size_t r = 0; r < kRobots; ++r) {
      low[r] = std::min<double>(low[r], q.Array(2)[r]);
      high[r] = std::max<double>(high[r], q.Array(2)[r]);
      tilt[r] = std::max(tilt[r], Tilt(q, r));
    }
  }
  // Every foot on the ground, sunk by its share of the weight, and the weight carried.
  for (size_t r = 0; r < kRobots; ++r) {
    double weight = 0.0;
    for (size_t c = 0; c < 4; ++c) {
      const double foot_z =
          batch.link_poses().Array(kPoseArrays * batch.contact_points()[c].link + 2)[r];
      CHECK(foot_z < 0.0);
      CHECK(foot_z > -0.002);  // a quarter of the weight sinks a foot by 0.3 mm
      weight += batch.contact_forces().Array(c)[r];
    }
    INFO("robot " << r << ": height " << low[r] << " .. " << high[r] << " m, tilt " << tilt[r]
                  << " rad, feet carry " << weight << " N");
    CHECK(high[r] - low[r] < 0.02);
    CHECK(low[r] > 0.18);  // standing, not kneeling: the posture stands 0.217 m tall
    CHECK(tilt[r] < 5.0 * std::numbers::pi / 180.0);
    CHECK(std::fabs(weight - mass * kGravity) < 0.01 * mass * kGravity);
  }
}

// Robot r's state after the Solo12 drop, as bits.
std::vector<float> SoloState(const RobotBatch& batch, size_t r) {
  std::vector<float> bits;
  for (const ConstLanesView& view :
       {batch.q(), batch.qd(), batch.torque(), batch.base_velocity(), batch.contact_forces()}) {
    for (size_t k = 0; k < view.arrays; ++k) bits.push_back(view.Array(k)[r]);
  }
  return bits;
}

TEST_CASE("Ground contacts: golden bits of robot r alone, among 40, any threads and target",
          "[dynamics]") {
  const RobotModel model = LoadFloating(Solo12Path());
  MemoryAccountant memory;
  const auto run = [&](size_t robots, size_t threads, size_t first, TorqueIntegrator integrator) {
    RobotBatchConfig config = SoloStandConfig(model);
    config.torque.integrator = integrator;
    RobotBatch batch = Create(memory, model, robots, config);
    DropSolo(batch, first, 0.23f);  // touches down within 30 steps
    ThreadPool pool(threads);
    for (int step = 0; step < 120; ++step) {
      REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kPdGravity).ok());
    }
    return batch;
  };
  for (const TorqueIntegrator integrator :
       {TorqueIntegrator::kSemiImplicitEuler, TorqueIntegrator::kRungeKutta4}) {
    INFO("integrator " << TorqueIntegratorName(integrator));
    RobotBatch reference = run(40, 1, 0, integrator);
    double touching = 0.0;
    for (size_t r = 0; r < 40; ++r) touching += reference.contact_forces().Array(0)[r] > 0.0f;
    CHECK(touching > 20);  // the contacts are what this exercises
    test::CheckGolden(std::string("robots.contact.solo12.40_robots.pd_gravity_") +
                          TorqueIntegratorName(integrator) + "_120_steps",
                      reference.StateHash());
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      INFO("target " << target.name);
      for (size_t threads : {size_t{1}, size_t{2}, size_t{3}}) {
        CHECK(run(40, threads, 0, integrator).StateHash() == reference.StateHash());
      }
      for (size_t r : {size_t{0}, size_t{21}, size_t{39}}) {
        CHECK(SoloState(run(1, 1, r, integrator), 0) == SoloState(reference, r));
      }
    });
  }
}

TEST_CASE("Ground contacts: steady-state steps allocate nothing", "[dynamics]") {
  const RobotModel model = LoadFloating(Solo12Path());
  MemoryAccountant memory;
  RobotBatch batch = Create(memory, model, 300, SoloStandConfig(model));
  DropSolo(batch, 0, 0.22f);
  ThreadPool pool(2);
  REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kPdGravity).ok());
  const CategoryStats before = memory.Total();
  for (int step = 0; step < 30; ++step) {
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kPdGravity).ok());
  }
  const CategoryStats after = memory.Total();
  CHECK(after.allocations == before.allocations);
  CHECK(after.bytes_in_use == before.bytes_in_use);
}

TEST_CASE("Ground contacts: bad configurations give errors naming the problem", "[dynamics]") {
  const RobotModel model = LoadFloating(Solo12Path());
  MemoryAccountant memory;
  const auto refused = [&](const RobotBatchConfig& config) {
    Result<RobotBatch> batch = RobotBatch::Create(memory, model, 2, config);
    REQUIRE_FALSE(batch.ok());
    return batch.status().message();
  };
  RobotBatchConfig config = SoloStandConfig(model);
  config.torque.contacts.links = {"FL_FOOT", "NO_SUCH_FOOT"};
  CHECK_THAT(refused(config), Contains("NO_SUCH_FOOT"));
  config.torque.contacts.links = {"FL_FOOT", "FL_FOOT"};
  CHECK_THAT(refused(config), Contains("'FL_FOOT' twice"));
  config = SoloStandConfig(model);
  config.torque.contacts.radius = -0.01f;
  CHECK_THAT(refused(config), Contains("contacts.radius"));
  const auto field = [&](float GroundContact::*member, float value, const char* name) {
    RobotBatchConfig bad = SoloStandConfig(model);
    bad.torque.contacts.ground.*member = value;
    CHECK_THAT(refused(bad), Contains(name));
  };
  field(&GroundContact::height, std::nanf(""), "ground.height");
  field(&GroundContact::stiffness, 0.0f, "ground.stiffness");
  field(&GroundContact::damping, -1.0f, "ground.damping");
  field(&GroundContact::friction, INFINITY, "ground.friction");
  field(&GroundContact::slip_velocity, 0.0f, "ground.slip_velocity");
  CHECK(memory.Total().bytes_in_use == 0);
  // Named links in the order given.
  config = SoloStandConfig(model);
  config.torque.contacts.links = {"HR_FOOT", "FL_LOWER_LEG"};
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, 2, config);
  REQUIRE(batch.ok());
  REQUIRE(batch->contact_points().size() == 2);
  CHECK(model.links[batch->contact_points()[0].link] == "HR_FOOT");
  CHECK(model.links[batch->contact_points()[1].link] == "FL_LOWER_LEG");
}

}  // namespace
}  // namespace swarm
