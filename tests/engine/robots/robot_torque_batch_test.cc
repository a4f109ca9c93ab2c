// Tests for RobotBatch's torque mode (swarm/robots/robot_batch.h TorqueStep) on the shipped
// robots (assets/robots, with published or stated mass properties) and ../shared/urdf:
//   - PD + gravity compensation holds a UR5 still where PD alone sags by g / kp;
//   - computed torque tracks a Panda's sinusoidal joint trajectory;
//   - effort limits hold and are reached; joint-limit springs stop a falling joint near its limit;
//   - energy of an undamped free swing is conserved by semi-implicit Euler (bound stated);
//   - a floating quadruped in zero gravity keeps its linear and angular momentum under internal
//     joint torques;
//   - robot r gets the same bits alone or among 100, on 1-3 threads and every SIMD target, steps
//     allocate nothing, and bad configurations or calls give errors naming the problem.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "hwy/aligned_allocator.h"
#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"
#include "tests/support/dynamics_scratch.h"
#include "tests/support/for_each_target.h"
#include "tests/support/golden.h"
#include "tests/support/padding.h"
#include "tests/support/soft_constraint_model.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;

constexpr float kDt = 0.001f;

RobotModel Load(const std::string& path, bool floating_base = false) {
  UrdfOptions options;
  options.floating_base = floating_base;
  Result<RobotModel> model = LoadUrdfFile(path, options);
  if (!model.ok()) FAIL(model.status().message());
  return std::move(model).value();
}

std::string Asset(const char* name) { return std::string(SWARM_ROBOT_ASSETS_DIR) + "/" + name; }

// Torque mode with gains kp, kd on every joint and a rotor inertia (armature) of 0.05 kg m^2 per
// joint: a geared motor's reflected inertia, which also keeps the explicit damping term stable
// (dt kd / inertia < 2) on light wrist links.
RobotBatchConfig TorqueConfig(const RobotModel& model, float kp, float kd, double armature = 0.05) {
  RobotBatchConfig config;
  config.torque.enabled = true;
  config.torque.dynamics.armature.assign(model.dof(), armature);
  config.control = DefaultJointControl(model);
  for (JointControl& joint : config.control) joint.kp = kp, joint.kd = kd;
  config.torque.schedule.tile_elements = 64;
  return config;
}

RobotBatch Create(MemoryAccountant& memory, const RobotModel& model, size_t robots,
                  const RobotBatchConfig& config) {
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, robots, config);
  if (!batch.ok()) FAIL(batch.status().message());
  return std::move(batch).value();
}

void SetJoint(const LanesView& view, size_t column, float value) {
  std::fill_n(view.Array(column), view.count, value);
}

// The robots' total energy, kinetic + potential, from RobotBatch::MeasureEnergy (checked
// against the mass matrix and the gravity torques below).
std::vector<double> Energy(RobotBatch& batch) {
  std::vector<float> kinetic(batch.size()), potential(batch.size());
  ThreadPool pool(1);
  batch.MeasureEnergy(pool, kinetic, potential);
  std::vector<double> energy(batch.size());
  for (size_t r = 0; r < batch.size(); ++r) energy[r] = double(kinetic[r]) + potential[r];
  return energy;
}

TEST_CASE(
    "RobotBatch torque mode: MeasureEnergy's kinetic energy is 0.5 v^T M v and its "
    "potential's gradient the gravity torques",
    "[dynamics]") {
  const RobotModel model = Load(Asset("ur5.urdf"));
  MemoryAccountant memory;
  const size_t robots = 7;
  RobotBatch batch = Create(memory, model, robots, TorqueConfig(model, 0.0f, 0.0f));
  for (size_t j = 0; j < model.dof(); ++j) {
    for (size_t r = 0; r < robots; ++r) {
      batch.q().Array(j)[r] = 0.4f * std::sin(1.0f + r + 2.0f * j);
      batch.qd().Array(j)[r] = std::cos(0.5f + r + j);
    }
  }
  ThreadPool pool(1);
  batch.ForwardKinematics(pool);
  std::vector<float> kinetic(robots), potential(robots);
  batch.MeasureEnergy(pool, kinetic, potential);
  const DynamicsTree& tree = *batch.dynamics_tree();
  const size_t n = tree.velocity_count(), stride = RoundUpToVector<float>(robots);
  auto mass = hwy::AllocateAligned<float>(n * n * stride);
  auto tau = hwy::AllocateAligned<float>(n * stride);
  auto zero = hwy::AllocateAligned<float>(n * stride);
  std::fill_n(zero.get(), n * stride, 0.0f);
  test::DynamicsScratch scratch(tree);
  MassMatrix(tree, batch.q(), {mass.get(), robots, stride, n * n}, scratch.get());
  InverseDynamics(tree, batch.config().torque.gravity, batch.q(), {zero.get(), robots, stride, n},
                  {zero.get(), robots, stride, n}, {tau.get(), robots, stride, n}, scratch.get());
  for (size_t r = 0; r < robots; ++r) {
    double want = 0.0;
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) {
        want +=
            0.5 * batch.qd().Array(i)[r] * mass[(i * n + j) * stride + r] * batch.qd().Array(j)[r];
      }
    }
    CHECK(kinetic[r] == Approx(want).epsilon(1e-5));
  }
  // g_j = dV/dq_j by central differences of the potential (step 1e-2 rad: truncation ~1e-4 of
  // g, float32 potentials of ~10 J add ~1e-4 N m).
  const float step = 1e-2f;
  for (size_t j = 0; j < n; ++j) {
    std::vector<float> up(robots), down(robots), unused(robots);
    const std::vector<float> saved(batch.q().Array(j), batch.q().Array(j) + robots);
    for (size_t r = 0; r < robots; ++r) batch.q().Array(j)[r] = saved[r] + step;
    batch.ForwardKinematics(pool);
    batch.MeasureEnergy(pool, unused, up);
    for (size_t r = 0; r < robots; ++r) batch.q().Array(j)[r] = saved[r] - step;
    batch.ForwardKinematics(pool);
    batch.MeasureEnergy(pool, unused, down);
    std::copy(saved.begin(), saved.end(), batch.q().Array(j));
    for (size_t r = 0; r < robots; ++r) {
      const double gradient = (double(up[r]) - down[r]) / (2.0 * step);
      INFO("joint " << j << " robot " << r);
      CHECK(gradient == Approx(tau[j * stride + r]).margin(2e-2));
    }
  }
}

TEST_CASE("RobotBatch torque mode: PD + gravity compensation holds a UR5 still", "[dynamics]") {
  const RobotModel model = Load(Asset("ur5.urdf"));
  const float hold[] = {0.3f, -1.0f, 1.2f, -0.5f, 0.4f, 0.1f};
  const float kp = 400.0f, kd = 40.0f;
  double sag[2] = {0.0, 0.0};  // worst |q - hold| with and without gravity compensation
  for (int compensated = 0; compensated < 2; ++compensated) {
    MemoryAccountant memory;
    RobotBatch batch = Create(memory, model, 8, TorqueConfig(model, kp, kd));
    for (size_t j = 0; j < 6; ++j)
      SetJoint(batch.q(), j, hold[j]), SetJoint(batch.q_target(), j, hold[j]);
    ThreadPool pool(1);
    for (int step = 0; step < 2000; ++step) {
      if (compensated == 1) {
        REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kPdGravity).ok());
      } else {
        // PD alone: the torques written by the caller (kNone), from the same gains.
        const ConstLanesView q = std::as_const(batch).q(), qd = std::as_const(batch).qd();
        for (size_t j = 0; j < 6; ++j) {
          for (size_t r = 0; r < batch.size(); ++r) {
            batch.torque().Array(j)[r] = kp * (hold[j] - q.Array(j)[r]) - kd * qd.Array(j)[r];
          }
        }
        REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kNone).ok());
      }
    }
    const ConstLanesView q = std::as_const(batch).q();
    for (size_t j = 0; j < 6; ++j) {
      for (size_t r = 0; r < batch.size(); ++r) {
        sag[compensated] = std::max(sag[compensated], std::fabs(double(q.Array(j)[r]) - hold[j]));
      }
    }
  }
  INFO("worst joint error after 2 s: PD " << sag[0] << " rad, PD + gravity " << sag[1] << " rad");
  CHECK(sag[1] < 1e-4);  // held: float rounding only
  CHECK(sag[0] > 1e-2);  // without compensation the arm sags by ~g / kp
}

TEST_CASE("RobotBatch torque mode: computed torque tracks a Panda trajectory", "[dynamics]") {
  const RobotModel model = Load(Asset("panda_arm.urdf"));
  const size_t dof = model.dof();
  // q_ref(t) = c + A sin(w t) per joint, inside every limit.
  const double w = 2.0, amplitude = 0.3;
  std::vector<double> centre(dof);
  const std::vector<JointControl> defaults = DefaultJointControl(model);
  for (size_t j = 0; j < dof; ++j) {
    centre[j] =
        std::isfinite(defaults[j].lower) ? 0.5 * (defaults[j].lower + defaults[j].upper) : 0.0;
  }
  MemoryAccountant memory;
  RobotBatchConfig config = TorqueConfig(model, 100.0f, 20.0f);  // critically damped, 10 rad/s
  RobotBatch batch = Create(memory, model, 4, config);
  const auto set_reference = [&](double t) {
    for (size_t j = 0; j < dof; ++j) {
      const double phase = w * t + 0.5 * j;
      SetJoint(batch.q_target(), j, float(centre[j] + amplitude * std::sin(phase)));
      SetJoint(batch.qd_target(), j, float(amplitude * w * std::cos(phase)));
      SetJoint(batch.qdd_target(), j, float(-amplitude * w * w * std::sin(phase)));
    }
  };
  set_reference(0.0);
  for (size_t j = 0; j < dof; ++j) {
    std::copy_n(batch.q_target().Array(j), batch.size(), batch.q().Array(j));
    std::copy_n(batch.qd_target().Array(j), batch.size(), batch.qd().Array(j));
  }
  ThreadPool pool(2);
  double worst = 0.0;
  for (int step = 0; step < 2000; ++step) {
    set_reference(step * double(kDt));
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kComputedTorque).ok());
    for (size_t j = 0; j < dof; ++j) {
      const double want = centre[j] + amplitude * std::sin(w * (step + 1) * double(kDt) + 0.5 * j);
      worst = std::max(worst, std::fabs(double(batch.q().Array(j)[0]) - want));
    }
  }
  INFO("worst tracking error over 2 s: " << worst << " rad");
  // Each step applies the reference acceleration at the start of the step: an O(dt) lag of
  // A w^2 dt per step, corrected by the PD terms, bounded by A w^2 dt / (kd dt) ~ 6e-3 rad; the
  // measured error is far smaller.
  CHECK(worst < 2e-3);
}

// The depth at which a joint limit at rest carries `force` (tests/support/soft_constraint_model.h).
double LimitDepth(const SoftConstraint& soft, double w0, double force, double dt) {
  return test::RestingDepth(soft, w0, force, dt);
}

TEST_CASE("RobotBatch torque mode: effort limits hold, joint limits hold and never stick",
          "[dynamics]") {
  const RobotModel model = Load(Asset("ur5.urdf"));
  MemoryAccountant memory;
  RobotBatchConfig config = TorqueConfig(model, 5000.0f, 100.0f);
  for (JointControl& joint : config.control) joint.effort_limit = 1000.0f;  // the others hold
  // A target beyond the upper limit of joint 1 (shoulder lift): the controller saturates and
  // drives the joint into its limit with 200 N m plus the arm's weight.
  config.control[1].effort_limit = 200.0f;
  config.control[1].lower = -1.0f, config.control[1].upper = 0.5f;
  RobotBatch batch = Create(memory, model, 3, config);
  SetJoint(batch.q_target(), 1, 3.0f);
  ThreadPool pool(1);
  float deepest = -1.0f;
  for (int step = 0; step < 3000; ++step) {
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kPdGravity).ok());
    deepest = std::max(deepest, batch.q().Array(1)[0]);
  }
  const float joint_torque = std::fabs(batch.torque().Array(1)[0]);
  CHECK(joint_torque == 200.0f);  // saturated
  // At rest the limit's force carries the load at the depth the soft constraint's law says.
  const float final_q = batch.q().Array(1)[0];
  const double force = batch.limit_forces().Array(1)[0];
  const double depth = LimitDepth(batch.config().torque.limits,
                                  batch.joint_constraints()[1].inverse_inertia0, force, kDt);
  INFO("deepest " << deepest << ", after 3 s " << final_q << ", limit force " << force
                  << " N m, law's depth " << depth);
  CHECK(std::fabs(batch.qd().Array(1)[0]) < 1e-4f);  // at rest
  CHECK(force > 200.0);                              // the saturated torque and the arm's weight
  CHECK(std::fabs((final_q - 0.5) - depth) < 0.02 * depth);
  // Stiff where the effort needs it: 200 N m alone sinks it by at most limit_tolerance.
  CHECK(LimitDepth(batch.config().torque.limits, batch.joint_constraints()[1].inverse_inertia0,
                   200.0, kDt) <= 1.0001 * batch.config().torque.limit_tolerance);
  CHECK(deepest < 0.5f + 0.02f);  // the arrival stops it within a step
  // Never sticks: commanded back, the joint leaves the limit at once.
  SetJoint(batch.q_target(), 1, 0.0f);
  for (int step = 0; step < 100; ++step) {
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kPdGravity).ok());
  }
  CHECK(batch.q().Array(1)[0] < 0.4f);
  CHECK(batch.limit_forces().Array(1)[0] == 0.0f);
}

// Without torques or gravity a robot's kinetic energy can only go where the joint limits and the
// joint damping take it: it never grows. Panda arms in zero gravity, set spinning at up to 3 rad/s
// per joint, bounce between their limits for 5 s. Bound: the energy never exceeds its start by
// more than 0.2% (semi-implicit Euler with velocity-product terms evaluated at the step's start
// may let the energy of free motion wander by O(dt) of itself; measured: it never rose above its
// start), and with joint damping it ends below half its start.
TEST_CASE("RobotBatch torque mode: without torques or gravity kinetic energy never grows",
          "[dynamics]") {
  const RobotModel model = Load(Asset("panda_arm.urdf"));
  for (const double damping : {0.0, 0.5}) {
    INFO("joint damping " << damping);
    MemoryAccountant memory;
    RobotBatchConfig config = TorqueConfig(model, 0.0f, 0.0f, /*armature=*/0.1);
    config.torque.gravity[2] = 0.0f;
    config.torque.dynamics.joint_friction = false;
    constexpr size_t kRobots = 32;
    // Joint damping through the model's joints (the URDF has none).
    RobotModel damped = model;
    for (RobotJoint& joint : damped.joints) joint.damping = damping;
    config.torque.dynamics.joint_friction = damping > 0.0;
    RobotBatch batch = Create(memory, damped, kRobots, config);
    for (size_t r = 0; r < kRobots; ++r) {
      for (size_t j = 0; j < model.dof(); ++j) {
        batch.qd().Array(j)[r] = 3.0f * std::sin(float(r * 7 + j * 3) * 0.9f);
      }
    }
    ThreadPool pool(1);
    std::vector<float> kinetic(kRobots), potential(kRobots);
    batch.ForwardKinematics(pool);
    batch.MeasureEnergy(pool, kinetic, potential);
    const std::vector<float> start = kinetic;
    double worst = 0.0;
    for (int step = 0; step < 5000; ++step) {
      for (size_t j = 0; j < model.dof(); ++j) SetJoint(batch.torque(), j, 0.0f);
      REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kNone).ok());
      batch.MeasureEnergy(pool, kinetic, potential);
      for (size_t r = 0; r < kRobots; ++r) {
        worst = std::max(worst, double(kinetic[r]) / start[r] - 1.0);
      }
    }
    INFO("worst growth " << worst);
    CHECK(worst <= 2e-3);
    if (damping > 0.0) {
      for (size_t r = 0; r < kRobots; ++r) CHECK(kinetic[r] < 0.5f * start[r]);
    }
  }
}

TEST_CASE("RobotBatch torque mode: an undamped free swing conserves energy", "[dynamics]") {
  const RobotModel model = Load(std::string(SWARM_SHARED_URDF_DIR) + "/double_pendulum.urdf");
  MemoryAccountant memory;
  RobotBatchConfig config = TorqueConfig(model, 0.0f, 0.0f, /*armature=*/0.0);
  config.torque.dynamics.joint_friction = false;  // the file's joints have damping 0.05
  RobotBatch batch = Create(memory, model, 5, config);
  for (size_t r = 0; r < batch.size(); ++r) {
    // q = 0 is the upright (unstable) pose of this pendulum: swing about the hanging one.
    batch.q().Array(0)[r] = 3.14159265f + 0.3f + 0.1f * r;
    batch.q().Array(1)[r] = -0.2f - 0.05f * r;
  }
  ThreadPool pool(1);
  // The energy at rest, hanging straight down: the swing's energy is measured above it.
  RobotBatch rest = Create(memory, model, 1, config);
  SetJoint(rest.q(), 0, 3.14159265f);
  rest.ForwardKinematics(pool);
  const double rest_energy = Energy(rest)[0];
  batch.ForwardKinematics(pool);
  const std::vector<double> start = Energy(batch);
  double drift = 0.0;  // relative to the swing's energy
  for (int step = 1; step <= 10000; ++step) {
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kNone).ok());
    if (step % 500 != 0) continue;
    const std::vector<double> now = Energy(batch);
    for (size_t r = 0; r < batch.size(); ++r) {
      drift = std::max(drift, std::fabs(now[r] - start[r]) / (start[r] - rest_energy));
    }
  }
  INFO("worst energy change over 10^4 steps of 1 ms: " << drift << " of the swing's energy");
  // Semi-implicit Euler is symplectic only where M is constant; the velocity-dependent terms
  // evaluated at the step's start make the energy drift by O(dt) per swing, more for larger
  // swings (amplitudes here 0.3-0.7 rad; measured at most ~1%).
  CHECK(drift <= 0.02);
}

TEST_CASE("RobotBatch torque mode: RK4 conserves a swing's energy and converges at fourth order",
          "[dynamics]") {
  const RobotModel model = Load(std::string(SWARM_SHARED_URDF_DIR) + "/double_pendulum.urdf");
  MemoryAccountant memory;
  RobotBatchConfig config = TorqueConfig(model, 0.0f, 0.0f, /*armature=*/0.0);
  config.torque.dynamics.joint_friction = false;
  config.torque.integrator = TorqueIntegrator::kRungeKutta4;
  ThreadPool pool(1);
  // A large swing (1.2 rad and 0.8 rad from hanging) for 2 s at step sizes 20, 10 and 5 ms,
  // against 0.625 ms as the reference solution (below ~5 ms float32 rounding, ~3e-5 rad over the
  // run, hides the truncation error).
  const auto swing = [&](float dt, int steps) {
    RobotBatch batch = Create(memory, model, 1, config);
    SetJoint(batch.q(), 0, 3.14159265f + 1.2f);
    SetJoint(batch.q(), 1, -0.8f);
    batch.ForwardKinematics(pool);
    const double start = Energy(batch)[0];
    for (int step = 0; step < steps; ++step) {
      REQUIRE(batch.TorqueStep(pool, dt, TorqueController::kNone).ok());
    }
    return std::array<double, 3>{batch.q().Array(0)[0], batch.q().Array(1)[0],
                                 Energy(batch)[0] - start};
  };
  const float dt = 0.02f;
  const std::array<double, 3> coarse = swing(dt, 100), half = swing(dt / 2, 200),
                              quarter = swing(dt / 4, 400), fine = swing(dt / 32, 3200);
  const double error_coarse = std::fabs(coarse[0] - fine[0]) + std::fabs(coarse[1] - fine[1]);
  const double error_half = std::fabs(half[0] - fine[0]) + std::fabs(half[1] - fine[1]);
  const double error_quarter = std::fabs(quarter[0] - fine[0]) + std::fabs(quarter[1] - fine[1]);
  INFO("errors at dt, dt/2, dt/4: " << error_coarse << " " << error_half << " " << error_quarter
                                    << "; energy change " << coarse[2] << " " << half[2]);
  // Halving dt divides a fourth-order method's error by 16; float32 rounding (~1e-6 rad over
  // the run) limits how far this can be followed, so two halvings with a ratio above 8.
  CHECK(error_coarse / error_half > 8.0);
  CHECK(error_half / error_quarter > 8.0);
  CHECK(std::fabs(coarse[2]) < 1e-3);  // J, of a swing of ~0.5 J; Euler loses ~1e-2 here
}

TEST_CASE("RobotBatch torque mode: a floating quadruped in zero gravity keeps its momentum",
          "[dynamics]") {
  const RobotModel model = Load(Asset("quadruped.urdf"), /*floating_base=*/true);
  MemoryAccountant memory;
  RobotBatchConfig config = TorqueConfig(model, 0.0f, 0.0f);
  config.torque.gravity[2] = 0.0f;
  config.torque.dynamics.joint_friction = false;
  RobotBatch batch = Create(memory, model, 2, config);
  for (size_t k = 0; k < 6; ++k) SetJoint(batch.base_velocity(), k, 0.1f * (k + 1));
  for (size_t j = 0; j < model.dof(); ++j) SetJoint(batch.qd(), j, 0.5f - 0.1f * j);
  const DynamicsTree& tree = *batch.dynamics_tree();
  const size_t n = tree.velocity_count();
  // World linear and angular momentum (about the world origin) from M v: the base rows of M v are
  // the whole robot's momentum in base coordinates (linear first, angular about the base origin).
  const auto momentum = [&]() {
    const size_t stride = RoundUpToVector<float>(batch.size());
    auto mass = hwy::AllocateAligned<float>(n * n * stride);
    auto scratch = hwy::AllocateAligned<float>(RobotDynamicsScratchFloats(tree));
    MassMatrix(tree, batch.q(), {mass.get(), batch.size(), stride, n * n}, scratch.get());
    const auto v = [&](size_t k) {
      return double(k < 6 ? batch.base_velocity().Array(k)[0] : batch.qd().Array(k - 6)[0]);
    };
    double local[6] = {0, 0, 0, 0, 0, 0};
    for (size_t row = 0; row < 6; ++row) {
      for (size_t col = 0; col < n; ++col) local[row] += mass[(row * n + col) * stride] * v(col);
    }
    const auto q = [&](size_t k) { return double(batch.q().Array(k)[0]); };
    const double norm = std::sqrt(q(3) * q(3) + q(4) * q(4) + q(5) * q(5) + q(6) * q(6));
    const double w = q(3) / norm, x = q(4) / norm, y = q(5) / norm, z = q(6) / norm;
    const double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
                         2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                         2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
    std::array<double, 6> world{};
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k) {
        world[i] += r[3 * i + k] * local[k];
        world[3 + i] += r[3 * i + k] * local[3 + k];
      }
    }
    // About the world origin: L = R L_base + p x P.
    const double p[3] = {q(0), q(1), q(2)};
    world[3] += p[1] * world[2] - p[2] * world[1];
    world[4] += p[2] * world[0] - p[0] * world[2];
    world[5] += p[0] * world[1] - p[1] * world[0];
    return world;
  };
  // Internal torques: constant, different per joint.
  ThreadPool pool(1);
  const std::array<double, 6> start = momentum();
  double worst = 0.0, scale = 0.0;
  for (int step = 1; step <= 2000; ++step) {
    for (size_t j = 0; j < model.dof(); ++j)
      SetJoint(batch.torque(), j, 0.2f * std::sin(0.3f * j + step * 0.01f));
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kNone).ok());
    if (step % 200 != 0) continue;
    const std::array<double, 6> now = momentum();
    for (int k = 0; k < 6; ++k) {
      worst = std::max(worst, std::fabs(now[k] - start[k]));
      scale = std::max(scale, std::fabs(start[k]));
    }
  }
  INFO("worst momentum change over 2 s: " << worst << " of " << scale);
  // Semi-implicit Euler conserves momentum up to O(dt^2) per step from the position update:
  // 1e-3 of the largest component here.
  CHECK(worst <= 1e-3 * scale);
}

// Bits of robot r's q, qd and torque.
std::vector<float> RobotState(RobotBatch& batch, size_t r) {
  std::vector<float> bits;
  for (const ConstLanesView& view :
       {std::as_const(batch).q(), std::as_const(batch).qd(), std::as_const(batch).torque(),
        std::as_const(batch).base_velocity()}) {
    for (size_t k = 0; k < view.arrays; ++k) bits.push_back(view.Array(k)[r]);
  }
  return bits;
}

TEST_CASE("RobotBatch torque mode: golden bits of robot r alone, among 100, any threads and target",
          "[dynamics]") {
  for (const bool floating : {false, true}) {
    const RobotModel model = Load(Asset("quadruped.urdf"), floating);
    INFO((floating ? "floating base" : "fixed base"));
    MemoryAccountant memory;  // outlives every batch below
    const auto run = [&](size_t robots, size_t threads, size_t first,
                         TorqueIntegrator integrator = TorqueIntegrator::kSemiImplicitEuler,
                         size_t tile = 64) {
      RobotBatchConfig config = TorqueConfig(model, 50.0f, 2.0f);
      config.torque.integrator = integrator;
      config.torque.schedule.tile_elements = tile;
      RobotBatch batch = Create(memory, model, robots, config);
      for (size_t j = 0; j < model.dof(); ++j) {
        for (size_t r = 0; r < robots; ++r) {
          batch.q_target().Array(j)[r] = 0.3f * std::sin(float(first + r) + j);
        }
      }
      ThreadPool pool(threads);
      for (int step = 0; step < 50; ++step) {
        REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kPdGravity).ok());
      }
      return batch;
    };
    RobotBatch reference = run(100, 1, 0);
    test::CheckGolden(std::string("robots.torque.quadruped_") + (floating ? "floating" : "fixed") +
                          ".100_robots.pd_gravity_50_steps",
                      reference.StateHash());
    RobotBatch runge_kutta = run(100, 1, 0, TorqueIntegrator::kRungeKutta4);
    test::CheckGolden(std::string("robots.torque.quadruped_") + (floating ? "floating" : "fixed") +
                          ".100_robots.pd_gravity_rk4_50_steps",
                      runge_kutta.StateHash());
    // One tile (the automatic tile is larger than the batch) gives the same bits as two.
    CHECK(run(100, 1, 0, TorqueIntegrator::kSemiImplicitEuler, 0).StateHash() ==
          reference.StateHash());
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      INFO("target " << target.name);
      for (size_t threads : {size_t{1}, size_t{2}, size_t{3}}) {
        RobotBatch batch = run(100, threads, 0);
        CHECK(batch.StateHash() == reference.StateHash());
        RobotBatch rk4 = run(100, threads, 0, TorqueIntegrator::kRungeKutta4);
        CHECK(rk4.StateHash() == runge_kutta.StateHash());
      }
      for (size_t r : {size_t{0}, size_t{37}, size_t{99}}) {
        RobotBatch alone = run(1, 1, r);
        CHECK(RobotState(alone, 0) == RobotState(reference, r));
      }
    });
  }
}

TEST_CASE("RobotBatch torque mode: steady-state steps allocate nothing", "[dynamics]") {
  const RobotModel model = Load(Asset("quadruped.urdf"), true);
  MemoryAccountant memory;
  RobotBatch batch = Create(memory, model, 300, TorqueConfig(model, 50.0f, 2.0f));
  ThreadPool pool(2);
  REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kPdGravity).ok());
  const CategoryStats before = memory.Total();
  for (int step = 0; step < 50; ++step) {
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kPdGravity).ok());
    REQUIRE(batch.TorqueStep(pool, kDt, TorqueController::kNone).ok());
  }
  const CategoryStats after = memory.Total();
  CHECK(after.allocations == before.allocations);
  CHECK(after.bytes_in_use == before.bytes_in_use);
  CHECK(memory.Stats(MemoryCategory::kRobots).bytes_in_use == batch.allocated_bytes());
}

TEST_CASE("RobotBatch torque mode: a batch smaller than a tile allocates for its own width",
          "[dynamics]") {
  // Per-tile blocks (dynamics scratch, joint sines and cosines, re-solve staging, Jacobian) are
  // as wide as the padded batch when it is smaller than a tile: 16 robots cost the same whether
  // a tile holds the fewest robots a tile may hold, 64 or 4096.
  const RobotModel model = Load(Asset("quadruped.urdf"), false);
  MemoryAccountant memory;
  const auto bytes = [&](size_t tile) {
    RobotBatchConfig config = TorqueConfig(model, 50.0f, 2.0f);
    config.schedule.tile_elements = tile;
    config.torque.schedule.tile_elements = tile;
    return Create(memory, model, 16, config).allocated_bytes();
  };
  CHECK(bytes(4096) == bytes(64));
  CHECK(bytes(64) == bytes(test::PaddedFloats(1)));  // the smallest tile: 16 on x86, 64 on aarch64
}

TEST_CASE("RobotBatch torque mode: the automatic tile follows the robots' state size",
          "[dynamics]") {
  // tile_elements 0 picks the largest power of two in [kMinAutoTorqueTile, kMaxAutoTorqueTile]
  // whose robots' state takes at most kAutoTorqueTileBytes: a robot with more state (a Solo12 with
  // four contacts against a Panda; measured as the growth of the allocation from 8,192 to 16,384
  // robots) gets a smaller tile, and a tile the caller sets is kept.
  MemoryAccountant memory;
  const auto resolved = [&](const RobotModel& model, bool contacts, size_t tile) {
    RobotBatchConfig config = TorqueConfig(model, 50.0f, 2.0f);
    config.torque.contacts.enabled = contacts;
    config.torque.schedule.tile_elements = tile;
    return Create(memory, model, 16, config).config().torque.schedule.tile_elements;
  };
  const auto bytes_per_robot = [&](const RobotModel& model, bool contacts) {
    RobotBatchConfig config = TorqueConfig(model, 50.0f, 2.0f);
    config.torque.contacts.enabled = contacts;
    config.torque.schedule.tile_elements = 8192;
    const size_t small = Create(memory, model, 8192, config).allocated_bytes();
    const size_t large = Create(memory, model, 2 * 8192, config).allocated_bytes();
    return double(large - small) / 8192.0;
  };
  const RobotModel panda = Load(Asset("panda_arm.urdf"));
  const RobotModel solo = Load(std::string(SWARM_SHARED_URDF_DIR) + "/solo12.urdf", true);
  const size_t panda_tile = resolved(panda, false, 0), solo_tile = resolved(solo, true, 0);
  INFO("Panda: tile " << panda_tile << ", ~" << bytes_per_robot(panda, false)
                      << " bytes per robot; Solo12: tile " << solo_tile << ", ~"
                      << bytes_per_robot(solo, true));
  for (size_t tile : {panda_tile, solo_tile}) {
    CHECK((tile & (tile - 1)) == 0);
    CHECK(tile >= kMinAutoTorqueTile);
    CHECK(tile <= kMaxAutoTorqueTile);
  }
  CHECK(bytes_per_robot(solo, true) > 1.5 * bytes_per_robot(panda, false));
  CHECK(solo_tile < panda_tile);
  CHECK(resolved(panda, false, 128) == 128);
}

TEST_CASE("RobotBatch torque mode: bad configurations and calls give errors", "[dynamics]") {
  const RobotModel ur5 = Load(Asset("ur5.urdf"));
  MemoryAccountant memory;
  {
    RobotBatchConfig kinematic;
    RobotBatch batch = Create(memory, ur5, 2, kinematic);
    const Status s =
        batch.TorqueStep(*std::make_unique<ThreadPool>(1), kDt, TorqueController::kPdGravity);
    CHECK_THAT(s.message(), Contains("torque mode is off"));
  }
  RobotBatch batch = Create(memory, ur5, 2, TorqueConfig(ur5, 10.0f, 1.0f));
  ThreadPool pool(1);
  const std::vector<float> before = RobotState(batch, 0);
  CHECK_THAT(batch.TorqueStep(pool, std::nanf(""), TorqueController::kNone).message(),
             Contains("dt must be finite"));
  CHECK_THAT(batch.TorqueStep(pool, -1.0f, TorqueController::kNone).message(),
             Contains("dt must be finite"));
  CHECK(RobotState(batch, 0) == before);
  const RobotModel floating = Load(Asset("quadruped.urdf"), true);
  RobotBatch legged = Create(memory, floating, 2, TorqueConfig(floating, 10.0f, 1.0f));
  CHECK_THAT(legged.TorqueStep(pool, kDt, TorqueController::kComputedTorque).message(),
             Contains("computed torque needs a fixed base"));
  // A model without inertials cannot be torque controlled.
  const char* massless = R"(<robot name="massless"><link name="a"/><link name="b"/>
    <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>)";
  Result<RobotModel> model = LoadUrdfString(massless);
  REQUIRE(model.ok());
  RobotBatchConfig config = TorqueConfig(*model, 1.0f, 1.0f);
  Result<RobotBatch> refused = RobotBatch::Create(memory, *model, 2, config);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.status().message(), Contains("no mass"));
  config = TorqueConfig(ur5, 1.0f, 1.0f);
  config.torque.limits.time_constant = -1.0f;
  refused = RobotBatch::Create(memory, ur5, 2, config);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.status().message(), Contains("limits.time_constant"));
  config = TorqueConfig(ur5, 1.0f, 1.0f);
  config.torque.limits.power = 17;
  refused = RobotBatch::Create(memory, ur5, 2, config);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.status().message(), Contains("limits.power"));
  config = TorqueConfig(ur5, 1.0f, 1.0f);
  config.torque.limit_tolerance = 0.0f;
  refused = RobotBatch::Create(memory, ur5, 2, config);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.status().message(), Contains("limit_tolerance"));
  config = TorqueConfig(ur5, 1.0f, 1.0f);
  config.torque.max_joint_speed = 0.0f;
  refused = RobotBatch::Create(memory, ur5, 2, config);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.status().message(), Contains("max_joint_speed"));
  config = TorqueConfig(ur5, 1.0f, 1.0f);
  config.torque.gravity[1] = std::nanf("");
  refused = RobotBatch::Create(memory, ur5, 2, config);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.status().message(), Contains("gravity"));
}

}  // namespace
}  // namespace swarm
