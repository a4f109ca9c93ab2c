// Tests for ground contacts in RobotBatch's torque mode (GroundContactConfig,
// swarm/kernels/robots/robot_contact.h: soft constraints with a Coulomb cone), against analytic
// results and the Solo12 of ../shared/urdf:
//   - a floating block resting on one contact sinks to the depth where MuJoCo's soft-constraint law
//     at rest, k d(r)^2 |r| / ((1 - d(r)) w0) = m g, balances its weight (solved here in double by
//     bisection) and its contact carries m g;
//   - a block sliding on its contact decelerates at mu g and stops after v0^2 / (2 mu g);
//   - a block on a slope (gravity tilted) sticks below atan(mu), with no creep, and slides above
//     with acceleration g (sin a - mu cos a);
//   - Solo12s dropped from 0.3 m, tilted and with perturbed joints, under PD + gravity
//     compensation, land on their four feet and stand: over the last 0.5 s of 2.5 s their base
//     height is steady to 2 cm and their tilt under 5 degrees, the feet sink as the law says and
//     carry the weight within 0.5%, and a standing Solo12 drifts less than 1 mm in 10 s;
//   - robot r gets the same bits alone or among 40, on 1-3 threads and every SIMD target, steps
//     allocate nothing, and bad contact configurations give errors naming the problem.
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
#include "tests/support/soft_constraint_model.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;
using test::kSoloPosture;
using test::RestingDepth;
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

TEST_CASE("Ground contacts: a resting block sinks to its soft constraint's depth and carries m g",
          "[dynamics]") {
  const RobotModel model = Block();
  GroundContact ground;
  ground.height = 0.25f;
  MemoryAccountant memory;
  RobotBatch batch = Create(memory, model, 3, BlockConfig(model, ground));
  REQUIRE(batch.contact_points().size() == 1);
  // The contact point is the block's centre of mass: w0 = 1 / m.
  CHECK(std::fabs(batch.contact_points()[0].inverse_inertia0 - 1.0 / kBlockMass) < 1e-6);
  const LanesView q = batch.q();
  for (size_t r = 0; r < 3; ++r) q.Array(2)[r] = ground.height + 0.01f * float(r);  // falls 0-2 cm
  ThreadPool pool(1);
  for (int step = 0; step < 3000; ++step) {
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kNone).ok());
  }
  const double depth = RestingDepth(ground.soft, 1.0 / kBlockMass, kBlockMass * kGravity, kDt);
  for (size_t r = 0; r < 3; ++r) {
    INFO("robot " << r << ": z " << q.Array(2)[r] << ", expected depth " << depth);
    // float32 positions near 0.25 m round to 3e-8 m; 1% of the depth (7 um) allows the tail of
    // the critically damped settling.
    CHECK(std::fabs(double(q.Array(2)[r]) - (ground.height - depth)) < 0.01 * depth);
    CHECK(std::fabs(double(batch.contact_forces().Array(0)[r]) - kBlockMass * kGravity) <
          1e-3 * kBlockMass * kGravity);
    CHECK(q.Array(0)[r] == 0.0f);  // no friction without sliding
  }
}

TEST_CASE("Ground contacts: a sliding block decelerates at mu g and stops after v0^2 / (2 mu g)",
          "[dynamics]") {
  const RobotModel model = Block();
  GroundContact ground;
  ground.friction = 0.5f;
  MemoryAccountant memory;
  RobotBatch batch = Create(memory, model, 2, BlockConfig(model, ground));
  const LanesView q = batch.q();
  const double depth = RestingDepth(ground.soft, 1.0 / kBlockMass, kBlockMass * kGravity, kDt);
  const double v0[2] = {1.0, 2.0};
  ThreadPool pool(1);
  for (size_t r = 0; r < 2; ++r) q.Array(2)[r] = static_cast<float>(-depth);  // at rest depth
  for (int step = 0; step < 200; ++step) {  // settle the normal force first
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kNone).ok());
  }
  std::vector<float> start(2);
  for (size_t r = 0; r < 2; ++r) {
    start[r] = q.Array(0)[r];
    batch.base_velocity().Array(0)[r] = static_cast<float>(v0[r]);
  }
  for (int step = 0; step < 1500; ++step) {
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kNone).ok());
  }
  const double mu_g = double(ground.friction) * kGravity;
  for (size_t r = 0; r < 2; ++r) {
    const double distance = v0[r] * v0[r] / (2.0 * mu_g);
    const double slid = double(q.Array(0)[r]) - start[r];
    INFO("v0 " << v0[r] << ": slid " << slid << " m, Coulomb " << distance);
    // Semi-implicit Euler over 200-400 steps of 1 ms moves the stop by up to v0 dt / 2 (0.1%);
    // the friction force uses the previous step's normal force and the sticking spring takes
    // up a fraction of a millimetre at the stop: 1% in all.
    CHECK(std::fabs(slid - distance) < 0.01 * distance);
    CHECK(std::fabs(batch.base_velocity().Array(0)[r]) < 1e-4f);
    CHECK(std::fabs(q.Array(1)[r]) == 0.0f);
    CHECK(batch.contact_sliding().Array(0)[r] == 0.0f);  // stuck again
  }
}

TEST_CASE("Ground contacts: a block on a slope sticks below atan(mu) and slides above",
          "[dynamics]") {
  const RobotModel model = Block();
  GroundContact ground;
  ground.friction = 0.6f;  // atan(0.6) = 30.96 degrees
  const double critical = std::atan(double(ground.friction));
  for (const double margin : {-0.05, 0.05}) {  // about 3 degrees either side
    const double slope = critical + margin;
    INFO("slope " << slope * 180.0 / std::numbers::pi << " degrees");
    RobotBatchConfig config = BlockConfig(model, ground);
    // A slope is gravity turned by its angle about y: downhill is +x.
    config.torque.gravity[0] = static_cast<float>(kGravity * std::sin(slope));
    config.torque.gravity[2] = static_cast<float>(-kGravity * std::cos(slope));
    MemoryAccountant memory;
    RobotBatch batch = Create(memory, model, 1, config);
    const double depth =
        RestingDepth(ground.soft, 1.0 / kBlockMass, kBlockMass * kGravity * std::cos(slope), kDt);
    batch.q().Array(2)[0] = static_cast<float>(-depth);
    ThreadPool pool(1);
    for (int step = 0; step < 500; ++step) {  // 0.5 s to settle
      REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kNone).ok());
    }
    const double x0 = batch.q().Array(0)[0], v_start = batch.base_velocity().Array(0)[0];
    constexpr int kSteps = 2000;  // 2 s
    for (int step = 0; step < kSteps; ++step) {
      REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kNone).ok());
    }
    const double moved = batch.q().Array(0)[0] - x0;
    const double seconds = kSteps * double(kDt);
    if (margin < 0.0) {
      // Sticking: the anchor spring holds the block; it neither slides nor creeps (< 1 um in 2 s).
      CHECK(std::fabs(moved) < 1e-6);
    } else {
      // Sliding: x = v t + a t^2 / 2 with a = g (sin - mu cos), within 1%.
      const double a = kGravity * (std::sin(slope) - double(ground.friction) * std::cos(slope));
      const double expected = v_start * seconds + 0.5 * a * seconds * seconds;
      INFO("moved " << moved << " m, Coulomb " << expected << " m");
      CHECK(std::fabs(moved - expected) < 0.01 * expected);
    }
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
  // Every foot on the ground, sunk as deep as its soft constraint carries its load, and the
  // weight carried.
  const SoftConstraint& soft = batch.config().torque.contacts.ground.soft;
  const float radius = batch.config().torque.contacts.radius;
  for (size_t r = 0; r < kRobots; ++r) {
    double weight = 0.0;
    for (size_t c = 0; c < 4; ++c) {
      const ContactPoint& contact = batch.contact_points()[c];
      const double sphere_bottom =
          batch.link_poses().Array(kPoseArrays * contact.link + 2)[r] - double(radius);
      const double load = batch.contact_forces().Array(c)[r];
      const double depth = RestingDepth(soft, contact.inverse_inertia0, load, kDt);
      INFO("foot " << c << ": bottom " << sphere_bottom << " m, load " << load << " N, depth "
                   << depth);
      CHECK(load > 0.0);
      // 2% of the depth: the robot's residual sway after 2.5 s.
      CHECK(std::fabs(-sphere_bottom - depth) < 0.02 * depth);
      weight += load;
    }
    INFO("robot " << r << ": height " << low[r] << " .. " << high[r] << " m, tilt " << tilt[r]
                  << " rad, feet carry " << weight << " N");
    CHECK(high[r] - low[r] < 0.02);
    CHECK(low[r] > 0.18);  // standing, not kneeling: the posture stands 0.217 m tall
    CHECK(tilt[r] < 5.0 * std::numbers::pi / 180.0);
    CHECK(std::fabs(weight - mass * kGravity) < 0.005 * mass * kGravity);
  }
}

TEST_CASE("Ground contacts: a standing Solo12 drifts less than 1 mm in 10 s", "[dynamics]") {
  const RobotModel model = LoadFloating(Solo12Path());
  MemoryAccountant memory;
  RobotBatch batch = Create(memory, model, 8, SoloStandConfig(model));
  DropSolo(batch, 0, 0.23f);
  ThreadPool pool(2);
  for (int step = 0; step < 1000; ++step) {  // 1 s to land and settle
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kPdGravity).ok());
  }
  const ConstLanesView q = std::as_const(batch).q();
  std::vector<double> x0(8), y0(8);
  for (size_t r = 0; r < 8; ++r) x0[r] = q.Array(0)[r], y0[r] = q.Array(1)[r];
  for (int step = 0; step < 10000; ++step) {
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kPdGravity).ok());
  }
  for (size_t r = 0; r < 8; ++r) {
    const double drift = std::hypot(q.Array(0)[r] - x0[r], q.Array(1)[r] - y0[r]);
    INFO("robot " << r << " drifted " << drift << " m");
    CHECK(drift < 1e-3);
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
  for (const TorqueIntegrator integrator : {TorqueIntegrator::kSemiImplicitEuler}) {
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
  field(&GroundContact::friction, INFINITY, "ground.friction");
  field(&GroundContact::friction, -0.1f, "ground.friction");
  const auto soft = [&](float SoftConstraint::*member, float value, const char* name) {
    RobotBatchConfig bad = SoloStandConfig(model);
    bad.torque.contacts.ground.soft.*member = value;
    CHECK_THAT(refused(bad), Contains(std::string("ground.soft.") + name));
  };
  soft(&SoftConstraint::time_constant, 0.0f, "time_constant");
  soft(&SoftConstraint::damping_ratio, -1.0f, "damping_ratio");
  soft(&SoftConstraint::impedance_min, 1.0f, "impedance_min");
  soft(&SoftConstraint::impedance_max, 0.0f, "impedance_max");
  soft(&SoftConstraint::width, std::nanf(""), "width");
  soft(&SoftConstraint::midpoint, 1.5f, "midpoint");
  config = SoloStandConfig(model);
  config.torque.contacts.ground.soft.power = 0;
  CHECK_THAT(refused(config), Contains("ground.soft.power"));
  config = SoloStandConfig(model);
  config.torque.integrator = TorqueIntegrator::kRungeKutta4;
  CHECK_THAT(refused(config), Contains("euler integrator"));
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
