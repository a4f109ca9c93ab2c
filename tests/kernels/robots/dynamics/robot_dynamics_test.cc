// Tests for swarm/kernels/robots/dynamics/robot_dynamics.h on every real-world robot in
// ../shared/urdf and every robot shipped in assets/robots, fixed and floating base, with random
// armature, damping and friction on every joint: each kernel under every SIMD target against the
// double-precision textbook reference (swarm/kernels/robots/dynamics/robot_dynamics_reference.h),
// bit-identical results across targets and batch sizes, and the identities that tie the algorithms
// together (M symmetric, M's columns from RNEA, ABA(RNEA)); forward dynamics with added inertia
// (joint entries, point inertias) against the reference's dense solve.
//
// Tolerances, float32 against double, per robot and relative to the largest entry of the
// reference result (so a gravity torque of 100 N m sets the scale for a 0.01 N m coupling):
//   tau, h and M: 1e-5 (measured at most 1.1e-6: float32's 6e-8 rounding over a chain)
//   qdd, and the residual of M x = tau: 2e-4 of max(|qdd|, 1) (measured at most 1.6e-5 and 7.5e-5;
//        solves amplify by M's condition number, large for light fingers beside a heavy arm; with
//        added inertia at most 5.6e-5)
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "hwy/aligned_allocator.h"
#include "swarm/core/state_hash.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics_reference.h"
#include "swarm/robots/dynamics_model.h"
#include "swarm/robots/robot_model.h"
#include "tests/kernels/robots/robot_fixture.h"
#include "tests/support/dynamics_scratch.h"
#include "tests/support/for_each_target.h"
#include "tests/support/golden.h"

namespace swarm {
namespace {

using test::RobotLanes;

constexpr double kTermTolerance = 1e-5;
constexpr double kAccelerationTolerance = 2e-4;
constexpr float kGravity[3] = {0.0f, 0.0f, -9.81f};

// A URDF file: its directory and its name without ".urdf" (which also names the test case).
struct RobotFile {
  const char* directory;
  const char* name;
};

const RobotFile kFiles[] = {{SWARM_SHARED_URDF_DIR, "ur5_robot"},
                            {SWARM_SHARED_URDF_DIR, "panda"},
                            {SWARM_SHARED_URDF_DIR, "xarm7"},
                            {SWARM_SHARED_URDF_DIR, "z1"},
                            {SWARM_SHARED_URDF_DIR, "so100"},
                            {SWARM_SHARED_URDF_DIR, "solo12"},
                            {SWARM_SHARED_URDF_DIR, "double_pendulum"},
                            {SWARM_SHARED_URDF_DIR, "double_pendulum_continuous"},
                            {SWARM_ROBOT_ASSETS_DIR, "ur5"},
                            {SWARM_ROBOT_ASSETS_DIR, "panda_arm"},
                            {SWARM_ROBOT_ASSETS_DIR, "quadruped"}};

// A model with joint terms on every body (armature, damping, friction), owned by the test.
struct DynamicsCase {
  std::string name;
  RobotModel model;
  std::vector<DynamicsBody> bodies;
  std::vector<int32_t> velocity_parent;
  DynamicsTree tree;
};

std::vector<DynamicsCase> Cases() {
  std::vector<DynamicsCase> cases;
  for (const RobotFile& file : kFiles) {
    for (bool floating : {false, true}) {
      UrdfOptions options;
      options.floating_base = floating;
      Result<RobotModel> model =
          LoadUrdfFile(std::string(file.directory) + "/" + file.name + ".urdf", options);
      REQUIRE(model.ok());
      Result<DynamicsModel> dynamics = DynamicsModel::Build(*model);
      if (!dynamics.ok()) {
        // A floating base needs a root with mass; say which files are left out.
        REQUIRE(floating);
        UNSCOPED_INFO(file.name << " floating: " << dynamics.status().message());
        continue;
      }
      DynamicsCase c;
      c.name = std::string(file.name) + (floating ? " (floating)" : "");
      c.model = std::move(model).value();
      c.bodies = dynamics->bodies();
      c.velocity_parent = dynamics->velocity_parent();
      std::mt19937 rng(static_cast<uint32_t>(cases.size() + 1));
      std::uniform_real_distribution<float> unit(0.0f, 1.0f);
      for (size_t b = 1; b < c.bodies.size(); ++b) {
        c.bodies[b].armature = 0.01f * unit(rng);
        c.bodies[b].damping = 0.5f * unit(rng);
        c.bodies[b].friction = 0.2f * unit(rng);
      }
      c.tree = dynamics->tree();
      c.tree.bodies = c.bodies.data();
      c.tree.velocity_parent = c.velocity_parent.data();
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

struct Inputs {
  RobotLanes q, qd, qdd, tau;
};

Inputs RandomInputs(const DynamicsTree& tree, size_t robots, uint32_t seed) {
  const size_t n = tree.velocity_count();
  Inputs in{RobotLanes(robots, tree.q_count()), RobotLanes(robots, n), RobotLanes(robots, n),
            RobotLanes(robots, n)};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> angle(-3.0f, 3.0f), rate(-2.0f, 2.0f),
      acceleration(-5.0f, 5.0f), torque(-10.0f, 10.0f), unit(-1.0f, 1.0f);
  for (size_t r = 0; r < robots; ++r) {
    const size_t begin = tree.joint_q_begin();
    if (tree.floating_base) {
      for (size_t k = 0; k < 7; ++k) in.q.At(k, r) = unit(rng);  // position, unnormalised quat
    }
    for (size_t k = begin; k < tree.q_count(); ++k) in.q.At(k, r) = angle(rng);
    for (size_t k = 0; k < n; ++k) {
      in.qd.At(k, r) = rate(rng);
      in.qdd.At(k, r) = acceleration(rng);
      in.tau.At(k, r) = torque(rng);
    }
  }
  return in;
}

std::vector<double> Robot(const RobotLanes& lanes, size_t r) {
  std::vector<double> values(lanes.arrays());
  for (size_t k = 0; k < lanes.arrays(); ++k) values[k] = lanes.At(k, r);
  return values;
}

// max |got - want| / max(|want|, floor), over one robot's values.
double RelativeError(const RobotLanes& got, size_t r, const std::vector<double>& want,
                     double floor = 1.0) {
  double scale = floor, error = 0.0;
  for (size_t k = 0; k < want.size(); ++k) {
    scale = std::max(scale, std::fabs(want[k]));
    error = std::max(error, std::fabs(double(got.At(k, r)) - want[k]));
  }
  return error / scale;
}

using Scratch = test::DynamicsScratch;

struct Outputs {
  RobotLanes tau, mass, qdd, factor, solve, gravity, momentum;
  RobotLanes fused_mass, fused_factor;  // MassMatrixAndFactor's
};

Outputs RunKernels(const DynamicsTree& tree, const Inputs& in) {
  const size_t robots = in.q.count(), n = tree.velocity_count();
  Outputs out{RobotLanes(robots, n),     RobotLanes(robots, n * n), RobotLanes(robots, n),
              RobotLanes(robots, n * n), RobotLanes(robots, n),     RobotLanes(robots, n),
              RobotLanes(robots, n),     RobotLanes(robots, n * n), RobotLanes(robots, n * n)};
  Scratch scratch(tree);
  InverseDynamics(tree, kGravity, in.q.view(), in.qd.view(), in.qdd.view(), out.tau.view(),
                  scratch.get());
  MassMatrix(tree, in.q.view(), out.mass.view(), scratch.get());
  ForwardDynamics(tree, kGravity, in.q.view(), in.qd.view(), in.tau.view(), out.qdd.view(),
                  scratch.get());
  FactorMassMatrix(tree, out.mass.view(), out.factor.view(), scratch.get());
  SolveMassMatrix(tree, out.factor.view(), in.tau.view(), out.solve.view(), scratch.get());
  GravityTorques(tree, kGravity, in.q.view(), out.gravity.view(), scratch.get());
  MassTimes(tree, in.q.view(), in.qd.view(), out.momentum.view(), scratch.get());
  MassMatrixAndFactor(tree, in.q.view(), out.fused_mass.view(), out.fused_factor.view(),
                      scratch.get());
  return out;
}

// One revolute joint whose origin turns by `roll` about x; the child link has a mass.
DynamicsBody RolledJointBody(const std::string& roll) {
  const std::string xml = R"(<robot name="rolled"><link name="base"/>
  <link name="arm"><inertial><mass value="1"/><origin xyz="0 0 0.1"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0.2 0.3 0.4" rpy=")" +
                          roll + R"( 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="12" velocity="2"/></joint></robot>)";
  Result<RobotModel> model = LoadUrdfString(xml, UrdfOptions{});
  REQUIRE(model.ok());
  Result<DynamicsModel> dynamics = DynamicsModel::Build(*model);
  REQUIRE(dynamics.ok());
  REQUIRE(dynamics->bodies().size() == 2);
  return dynamics->bodies()[1];
}

TEST_CASE("joint frames a quarter turn apart become exact turned body frames, others keep cosines",
          "[dynamics]") {
  // rpy = pi/2 (cos = 6e-17 in double, whose products would reach subnormal floats): the body
  // frame is turned by exactly R_x(pi/2), so the joint frame's rotation is the identity and the
  // axis z of the joint frame is R_x(pi/2) e_z = -e_y; the inertia turns with it, exactly.
  const DynamicsBody quarter = RolledJointBody("1.5707963267948966");
  const float identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (size_t k = 0; k < 9; ++k) {
    INFO("entry " << k << ": " << double(quarter.origin_rotation[k]));
    CHECK(quarter.origin_rotation[k] == identity[k]);
  }
  CHECK(quarter.axis[0] == 0.0f);
  CHECK(quarter.axis[1] == -1.0f);
  CHECK(quarter.axis[2] == 0.0f);
  CHECK(quarter.origin_translation[0] == 0.2f);
  CHECK(quarter.origin_translation[1] == 0.3f);
  CHECK(quarter.origin_translation[2] == 0.4f);
  // The centre of mass (0, 0, 0.1) of the unit mass turns to (0, -0.1, 0); the inertia about the
  // origin, diag(0.02, 0.02, 0.01) in the link's frame, to diag(0.02, 0.01, 0.02).
  CHECK(quarter.first_moment[0] == 0.0f);
  CHECK(quarter.first_moment[1] == -0.1f);
  CHECK(quarter.first_moment[2] == 0.0f);
  const float turned_inertia[6] = {0.02f, 0.01f, 0.02f, 0.0f, 0.0f, 0.0f};  // xx yy zz xy xz yz
  for (size_t k = 0; k < 6; ++k) {
    INFO("inertia parameter " << k);
    CHECK(quarter.rotational_inertia[k] == Approx(turned_inertia[k]).margin(1e-9));
  }
  // 1.5708 is not pi/2: its cosine (-3.67e-6) is a real rotation, not a residue, and the body
  // frame is the link's.
  const DynamicsBody near = RolledJointBody("1.5708");
  CHECK(near.origin_rotation[4] == static_cast<float>(std::cos(1.5708)));
  CHECK(near.origin_rotation[4] != 0.0f);
  CHECK(near.origin_translation[0] == 0.2f);
  CHECK(near.axis[2] == 1.0f);
}

TEST_CASE("robot dynamics kernels match the double-precision reference on every target",
          "[dynamics]") {
  const double gravity[3] = {kGravity[0], kGravity[1], kGravity[2]};
  for (const DynamicsCase& c : Cases()) {
    INFO(c.name);
    REQUIRE(ValidDynamicsTree(c.tree));
    const size_t robots = 37, n = c.tree.velocity_count();
    const Inputs in = RandomInputs(c.tree, robots, 7);
    double worst_tau = 0, worst_mass = 0, worst_qdd = 0, worst_solve = 0;
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      INFO("target " << target.name);
      const Outputs out = RunKernels(c.tree, in);
      for (size_t r = 0; r < robots; ++r) {
        INFO("robot " << r);
        const std::vector<double> q = Robot(in.q, r), qd = Robot(in.qd, r), qdd = Robot(in.qdd, r),
                                  tau = Robot(in.tau, r);
        const std::vector<double> want_tau =
            reference::RobotInverseDynamics(c.tree, gravity, q.data(), qd.data(), qdd.data());
        const std::vector<double> want_mass = reference::RobotMassMatrix(c.tree, q.data());
        const std::vector<double> want_qdd =
            reference::RobotForwardDynamics(c.tree, gravity, q.data(), qd.data(), tau.data());
        REQUIRE(want_qdd.size() == n);
        const double e_tau = RelativeError(out.tau, r, want_tau);
        const double e_mass = RelativeError(out.mass, r, want_mass, 1e-12);
        const double e_qdd = RelativeError(out.qdd, r, want_qdd);
        worst_tau = std::max(worst_tau, e_tau);
        worst_mass = std::max(worst_mass, e_mass);
        worst_qdd = std::max(worst_qdd, e_qdd);
        CHECK(e_tau <= kTermTolerance);
        CHECK(e_mass <= kTermTolerance);
        // Gravity torques: the reference at qd = qdd = 0; (M + A) qd: the reference matrix times
        // qd.
        const std::vector<double> zeros(n, 0.0);
        CHECK(RelativeError(out.gravity, r,
                            reference::RobotInverseDynamics(c.tree, gravity, q.data(), zeros.data(),
                                                            zeros.data())) <= kTermTolerance);
        std::vector<double> want_momentum(n, 0.0);
        for (size_t row = 0; row < n; ++row) {
          for (size_t col = 0; col < n; ++col) {
            want_momentum[row] += want_mass[row * n + col] * qd[col];
          }
        }
        CHECK(RelativeError(out.momentum, r, want_momentum) <= kTermTolerance);
        CHECK(e_qdd <= kAccelerationTolerance);
        // The float solve against the float mass matrix it factored: M x = tau.
        double residual = 0.0, scale = 1.0;
        for (size_t row = 0; row < n; ++row) {
          double sum = 0.0;
          for (size_t col = 0; col < n; ++col) {
            sum += double(out.mass.At(row * n + col, r)) * out.solve.At(col, r);
          }
          residual = std::max(residual, std::fabs(sum - tau[row]));
          scale = std::max(scale, std::fabs(tau[row]));
        }
        worst_solve = std::max(worst_solve, residual / scale);
        CHECK(residual / scale <= kAccelerationTolerance);
        // M is exactly symmetric and the factor is zero above the diagonal.
        for (size_t row = 0; row < n; ++row) {
          for (size_t col = row + 1; col < n; ++col) {
            CHECK(out.mass.At(row * n + col, r) == out.mass.At(col * n + row, r));
            CHECK(out.factor.At(row * n + col, r) == 0.0f);
          }
        }
      }
    });
    WARN(c.name << ": worst relative error tau " << worst_tau << ", M " << worst_mass << ", qdd "
                << worst_qdd << ", M x = tau residual " << worst_solve);
  }
}

TEST_CASE("robot dynamics kernels give the same bits on every target and batch size",
          "[dynamics]") {
  for (const DynamicsCase& c : Cases()) {
    INFO(c.name);
    const size_t robots = 45;
    const Inputs in = RandomInputs(c.tree, robots, 11);
    std::vector<Outputs> per_target;
    std::vector<std::string> names;
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      per_target.push_back(RunKernels(c.tree, in));
      names.push_back(target.name);
    });
    for (size_t t = 0; t < per_target.size(); ++t) {
      INFO("target " << names[t] << ": MassMatrixAndFactor against the two kernels");
      CHECK(test::FirstBitDifference(per_target[t].fused_mass, per_target[t].mass) == "");
      CHECK(test::FirstBitDifference(per_target[t].fused_factor, per_target[t].factor) == "");
    }
    for (size_t t = 1; t < per_target.size(); ++t) {
      INFO("target " << names[t] << " against " << names[0]);
      CHECK(test::FirstBitDifference(per_target[t].tau, per_target[0].tau) == "");
      CHECK(test::FirstBitDifference(per_target[t].mass, per_target[0].mass) == "");
      CHECK(test::FirstBitDifference(per_target[t].qdd, per_target[0].qdd) == "");
      CHECK(test::FirstBitDifference(per_target[t].factor, per_target[0].factor) == "");
      CHECK(test::FirstBitDifference(per_target[t].solve, per_target[0].solve) == "");
      CHECK(test::FirstBitDifference(per_target[t].gravity, per_target[0].gravity) == "");
      CHECK(test::FirstBitDifference(per_target[t].momentum, per_target[0].momentum) == "");
    }
    // Robot r alone gets the bits it gets among 45.
    for (size_t r : {size_t{0}, size_t{17}, robots - 1}) {
      INFO("robot " << r << " alone");
      Inputs one{RobotLanes(1, in.q.arrays()), RobotLanes(1, in.qd.arrays()),
                 RobotLanes(1, in.qdd.arrays()), RobotLanes(1, in.tau.arrays())};
      for (size_t k = 0; k < in.q.arrays(); ++k) one.q.At(k, 0) = in.q.At(k, r);
      for (size_t k = 0; k < in.qd.arrays(); ++k) {
        one.qd.At(k, 0) = in.qd.At(k, r);
        one.qdd.At(k, 0) = in.qdd.At(k, r);
        one.tau.At(k, 0) = in.tau.At(k, r);
      }
      const Outputs alone = RunKernels(c.tree, one);
      CHECK(test::FirstBitDifference(alone.tau, per_target.back().tau, 0, r, 1) == "");
      CHECK(test::FirstBitDifference(alone.mass, per_target.back().mass, 0, r, 1) == "");
      CHECK(test::FirstBitDifference(alone.qdd, per_target.back().qdd, 0, r, 1) == "");
    }
  }
}

// The joints' sines and cosines (JointTrig) that GravityTorques writes against std::sin and
// std::cos of the joint values (1e-6: float32 rounding of values up to 3 rad), and every pairing
// of writer and reader against the kernels without them, bit for bit, on every target.
TEST_CASE("shared joint sines and cosines give the same bits as computing them", "[dynamics]") {
  for (const DynamicsCase& c : Cases()) {
    if (HasCouplings(c.tree)) continue;  // JointTrig is for trees without couplings
    INFO(c.name);
    const size_t robots = 37, n = c.tree.velocity_count(), arrays = JointTrigArrays(c.tree);
    REQUIRE(arrays == 2 * (c.tree.body_count - 1));
    const Inputs in = RandomInputs(c.tree, robots, 23);
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      INFO("target " << target.name);
      Scratch scratch(c.tree);
      RobotLanes gravity(robots, n), gravity_shared(robots, n), qdd(robots, n);
      RobotLanes qdd_read(robots, n), qdd_written(robots, n);
      RobotLanes from_gravity(robots, arrays), from_aba(robots, arrays);
      GravityTorques(c.tree, kGravity, in.q.view(), gravity.view(), scratch.get());
      ForwardDynamics(c.tree, kGravity, in.q.view(), in.qd.view(), in.tau.view(), qdd.view(),
                      scratch.get());
      const JointTrig write_gravity{from_gravity.view(), false};
      GravityTorques(c.tree, kGravity, in.q.view(), gravity_shared.view(), scratch.get(),
                     &write_gravity);
      const JointTrig read{from_gravity.view(), true};
      ForwardDynamics(c.tree, kGravity, in.q.view(), in.qd.view(), in.tau.view(), qdd_read.view(),
                      scratch.get(), nullptr, &read);
      const JointTrig write_aba{from_aba.view(), false};
      ForwardDynamics(c.tree, kGravity, in.q.view(), in.qd.view(), in.tau.view(),
                      qdd_written.view(), scratch.get(), nullptr, &write_aba);
      CHECK(test::FirstBitDifference(gravity_shared, gravity) == "");
      CHECK(test::FirstBitDifference(qdd_read, qdd) == "");
      CHECK(test::FirstBitDifference(qdd_written, qdd) == "");
      CHECK(test::FirstBitDifference(from_aba, from_gravity) == "");
      for (size_t b = 1; b < c.tree.body_count; ++b) {
        const DynamicsBody& body = c.tree.bodies[b];
        const bool revolute = body.motion == JointMotion::kRevolute;
        for (size_t r = 0; r < robots; ++r) {
          const double value = in.q.At(c.tree.joint_q_begin() + size_t(body.q_index), r);
          INFO("body " << b << " robot " << r << " value " << value);
          CHECK(from_gravity.At(2 * (b - 1), r) ==
                Approx(revolute ? std::sin(value) : 0.0).margin(1e-6));
          CHECK(from_gravity.At(2 * (b - 1) + 1, r) ==
                Approx(revolute ? std::cos(value) : 0.0).margin(1e-6));
        }
      }
    });
  }
}

TEST_CASE("mass matrices larger than the caches stream with the same bits", "[dynamics]") {
  // From kStreamMassMatrixBytes of output the mass matrix kernels store past the cache (StreamAll);
  // the bits must equal those of small calls, which store normally, and partial last vectors stay
  // masked.
  for (const DynamicsCase& c : Cases()) {
    if (c.name != "panda_arm") continue;
    const size_t n = c.tree.velocity_count();
    // Matrices and factors of 1 to 4 MiB stream one vector of robots at a time, from
    // kStreamOutputBytes in groups of vectors through the scratch.
    for (const size_t bytes : {kStreamMassMatrixBytes, kStreamOutputBytes}) {
      const size_t robots = bytes / (sizeof(float) * n * n) + 37;
      const Inputs in = RandomInputs(c.tree, robots, 5);
      Scratch scratch(c.tree);
      test::ForEachTarget([&](const test::TargetUnderTest& target) {
        INFO("target " << target.name << ", " << robots << " robots");
        RobotLanes mass(robots, n * n), factor(robots, n * n), fused_factor(robots, n * n);
        MassMatrixAndFactor(c.tree, in.q.view(), mass.view(), fused_factor.view(), scratch.get());
        REQUIRE(mass.arrays() * mass.stride() * sizeof(float) >= kStreamMassMatrixBytes);
        // Small calls (well under the threshold) give the reference bits.
        RobotLanes small_mass(robots, n * n), small_factor(robots, n * n);
        for (size_t begin = 0; begin < robots; begin += 1024) {
          const size_t count = std::min<size_t>(1024, robots - begin);
          MassMatrix(c.tree, in.q.view().Slice(begin, count), small_mass.view().Slice(begin, count),
                     scratch.get());
          FactorMassMatrix(c.tree, small_mass.view().Slice(begin, count),
                           small_factor.view().Slice(begin, count), scratch.get());
        }
        CHECK(test::FirstBitDifference(mass, small_mass) == "");
        CHECK(test::FirstBitDifference(fused_factor, small_factor) == "");
        // MassMatrix alone reaches the threshold too.
        MassMatrix(c.tree, in.q.view(), mass.view(), scratch.get());
        FactorMassMatrix(c.tree, mass.view(), factor.view(), scratch.get());
        CHECK(test::FirstBitDifference(mass, small_mass) == "");
        CHECK(test::FirstBitDifference(factor, small_factor) == "");
      });
    }
  }
}

TEST_CASE("robot dynamics identities: M from RNEA columns, ABA inverts RNEA", "[dynamics]") {
  for (const DynamicsCase& c : Cases()) {
    INFO(c.name);
    const size_t robots = 20, n = c.tree.velocity_count();
    const Inputs in = RandomInputs(c.tree, robots, 23);
    const Outputs out = RunKernels(c.tree, in);
    Scratch scratch(c.tree);
    // Column k of M (with armature) = RNEA(q, qd = 0, qdd = e_k) without gravity, less nothing
    // else: damping and friction vanish at qd = 0.
    const float no_gravity[3] = {0.0f, 0.0f, 0.0f};
    RobotLanes zero(robots, n), unit(robots, n), column(robots, n);
    for (size_t k = 0; k < n; ++k) {
      unit.FillValid(0.0f);
      for (size_t r = 0; r < robots; ++r) unit.At(k, r) = 1.0f;
      InverseDynamics(c.tree, no_gravity, in.q.view(), zero.view(), unit.view(), column.view(),
                      scratch.get());
      for (size_t r = 0; r < robots; ++r) {
        double scale = 1e-12, error = 0.0;
        for (size_t row = 0; row < n; ++row) {
          scale = std::max(scale, std::fabs(double(out.mass.At(row * n + k, r))));
          error =
              std::max(error, std::fabs(double(column.At(row, r)) - out.mass.At(row * n + k, r)));
        }
        CHECK(error / scale <= kTermTolerance);
      }
    }
    // ABA(RNEA(qdd)) = qdd.
    RobotLanes tau(robots, n), qdd(robots, n);
    InverseDynamics(c.tree, kGravity, in.q.view(), in.qd.view(), in.qdd.view(), tau.view(),
                    scratch.get());
    ForwardDynamics(c.tree, kGravity, in.q.view(), in.qd.view(), tau.view(), qdd.view(),
                    scratch.get());
    for (size_t r = 0; r < robots; ++r) {
      CHECK(RelativeError(qdd, r, Robot(in.qdd, r)) <= kAccelerationTolerance);
    }
  }
}

// --- Added inertia (AddedInertia) ---------------------------------------------------------------

// Random added inertia for `robots` robots: joint entries up to 2 (the scale of the arms' own
// inertias, so they change the accelerations), and, on trees without couplings, three point
// inertias: on the root (ignored by a fixed base, as its Jacobian is zero), on a middle body and on
// the last one, at points within 0.3 m of the body origin, with unit normals and masses up to 20
// kg, some sliding (m_t = 0) and some inactive (both zero).
struct AddedCase {
  RobotLanes joints, points;
  std::vector<uint32_t> bodies;

  AddedInertia View(bool with_joints) const {
    AddedInertia added;
    if (with_joints) added.joints = joints.view();
    added.point_bodies = bodies.data();
    added.point_count = bodies.size();
    added.points = points.view();
    return added;
  }
  reference::RobotAddedInertia Robot(size_t r, bool with_joints) const {
    reference::RobotAddedInertia added;
    if (with_joints) {
      for (size_t k = 0; k < joints.arrays(); ++k) added.joints.push_back(joints.At(k, r));
    }
    for (size_t p = 0; p < bodies.size(); ++p) {
      reference::RobotAddedPoint point;
      point.body = bodies[p];
      for (size_t k = 0; k < 3; ++k) {
        point.point[k] = points.At(kAddedPointArrays * p + k, r);
        point.normal[k] = points.At(kAddedPointArrays * p + 3 + k, r);
      }
      point.normal_mass = points.At(kAddedPointArrays * p + 6, r);
      point.tangent_mass = points.At(kAddedPointArrays * p + 7, r);
      added.points.push_back(point);
    }
    return added;
  }
};

AddedCase RandomAdded(const DynamicsTree& tree, size_t robots, uint32_t seed) {
  std::vector<uint32_t> bodies;
  if (!HasCouplings(tree)) {
    bodies = {0, static_cast<uint32_t>(tree.body_count / 2),
              static_cast<uint32_t>(tree.body_count - 1)};
  }
  AddedCase added{RobotLanes(robots, tree.joint_q_count),
                  RobotLanes(robots, kAddedPointArrays * bodies.size()), bodies};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f), signed_unit(-1.0f, 1.0f);
  for (size_t r = 0; r < robots; ++r) {
    for (size_t k = 0; k < tree.joint_q_count; ++k) added.joints.At(k, r) = 2.0f * unit(rng);
    for (size_t p = 0; p < bodies.size(); ++p) {
      const size_t first = kAddedPointArrays * p;
      double normal[3], length = 0.0;
      for (size_t k = 0; k < 3; ++k) {
        added.points.At(first + k, r) = 0.3f * signed_unit(rng);
        normal[k] = signed_unit(rng);
        length += normal[k] * normal[k];
      }
      length = std::sqrt(length);
      for (size_t k = 0; k < 3; ++k) {
        added.points.At(first + 3 + k, r) = static_cast<float>(normal[k] / length);
      }
      const float pick = unit(rng);
      added.points.At(first + 6, r) = pick < 0.1f ? 0.0f : 20.0f * unit(rng);
      added.points.At(first + 7, r) = pick < 0.4f ? 0.0f : 20.0f * unit(rng);
    }
  }
  return added;
}

TEST_CASE("forward dynamics with added inertia matches the dense double reference on every target",
          "[dynamics]") {
  // (M + A + E) qdd = tau - h with E's joint entries and point inertias (trees with couplings:
  // joint entries only, through CRBA and LTDL), against the reference's dense solve with E built
  // from point Jacobians; with and without the joint entries. Gravity and random velocities act,
  // and must not act on the added inertia (it stands for forces on J qdd, not for mass). The
  // tolerance of the plain forward dynamics (kAccelerationTolerance). The accelerations must move
  // by far more than the tolerance (the added inertia is not lost), and every target, and each
  // robot alone, gives the same bits.
  const double gravity[3] = {kGravity[0], kGravity[1], kGravity[2]};
  for (const DynamicsCase& c : Cases()) {
    INFO(c.name);
    const size_t robots = 37, n = c.tree.velocity_count();
    const Inputs in = RandomInputs(c.tree, robots, 13);
    const AddedCase added = RandomAdded(c.tree, robots, 17);
    for (bool with_joints : {true, false}) {
      if (!with_joints && added.bodies.empty()) continue;
      INFO((with_joints ? "joint entries and points" : "points only"));
      const AddedInertia view = added.View(with_joints);
      std::vector<std::vector<double>> want(robots);
      size_t moved = 0;
      for (size_t r = 0; r < robots; ++r) {
        const std::vector<double> q = Robot(in.q, r), qd = Robot(in.qd, r), tau = Robot(in.tau, r);
        want[r] = reference::RobotForwardDynamics(c.tree, gravity, q.data(), qd.data(), tau.data(),
                                                  added.Robot(r, with_joints));
        REQUIRE(want[r].size() == n);
        const std::vector<double> plain =
            reference::RobotForwardDynamics(c.tree, gravity, q.data(), qd.data(), tau.data());
        double difference = 0.0, scale = 1.0;
        for (size_t k = 0; k < n; ++k) {
          difference = std::max(difference, std::fabs(plain[k] - want[r][k]));
          scale = std::max(scale, std::fabs(want[r][k]));
        }
        if (difference > 100 * kAccelerationTolerance * scale) ++moved;
      }
      CHECK(moved > robots / 2);
      std::vector<RobotLanes> per_target;
      test::ForEachTarget([&](const test::TargetUnderTest& target) {
        INFO("target " << target.name);
        RobotLanes qdd(robots, n);
        Scratch scratch(c.tree);
        ForwardDynamics(c.tree, kGravity, in.q.view(), in.qd.view(), in.tau.view(), qdd.view(),
                        scratch.get(), &view);
        for (size_t r = 0; r < robots; ++r) {
          INFO("robot " << r);
          CHECK(RelativeError(qdd, r, want[r]) <= kAccelerationTolerance);
        }
        per_target.push_back(qdd);
      });
      for (size_t t = 1; t < per_target.size(); ++t) {
        CHECK(test::FirstBitDifference(per_target[t], per_target[0]) == "");
      }
      // Robot r alone gets the bits it gets among 37.
      for (size_t r : {size_t{0}, size_t{18}, robots - 1}) {
        INFO("robot " << r << " alone");
        RobotLanes q(1, in.q.arrays()), qd(1, n), tau(1, n), qdd(1, n);
        RobotLanes joints(1, added.joints.arrays()), points(1, added.points.arrays());
        for (size_t k = 0; k < in.q.arrays(); ++k) q.At(k, 0) = in.q.At(k, r);
        for (size_t k = 0; k < n; ++k) qd.At(k, 0) = in.qd.At(k, r), tau.At(k, 0) = in.tau.At(k, r);
        for (size_t k = 0; k < joints.arrays(); ++k) joints.At(k, 0) = added.joints.At(k, r);
        for (size_t k = 0; k < points.arrays(); ++k) points.At(k, 0) = added.points.At(k, r);
        AddedInertia one = view;
        if (with_joints) one.joints = joints.view();
        one.points = points.view();
        Scratch scratch(c.tree);
        ForwardDynamics(c.tree, kGravity, q.view(), qd.view(), tau.view(), qdd.view(),
                        scratch.get(), &one);
        CHECK(test::FirstBitDifference(qdd, per_target.back(), 0, r, 1) == "");
      }
    }
  }
}

// Every output value of the seven kernels for 45 robots, hashed in array order.
uint64_t OutputsHash(const Outputs& out) {
  StateHasher hasher;
  for (const RobotLanes* lanes :
       {&out.tau, &out.mass, &out.qdd, &out.factor, &out.solve, &out.gravity, &out.momentum}) {
    for (size_t a = 0; a < lanes->arrays(); ++a) {
      hasher.Add(ConstFloatView{lanes->data() + a * lanes->stride(), lanes->count()});
    }
  }
  return hasher.Digest();
}

TEST_CASE("robot dynamics kernels: cross-architecture golden values", "[dynamics]") {
  // The x86-64 bits of every kernel's outputs, on every target here and under qemu-aarch64.
  const char* const golden_cases[] = {"ur5", "panda", "solo12 (floating)", "quadruped (floating)"};
  for (const DynamicsCase& c : Cases()) {
    if (std::find(std::begin(golden_cases), std::end(golden_cases), c.name) ==
        std::end(golden_cases)) {
      continue;
    }
    INFO(c.name);
    const Inputs in = RandomInputs(c.tree, 45, 11);
    std::string key = "kernels.robot_dynamics." + c.name;
    std::replace(key.begin(), key.end(), ' ', '_');
    key.erase(
        std::remove_if(key.begin(), key.end(), [](char ch) { return ch == '(' || ch == ')'; }),
        key.end());
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      INFO("target " << target.name);
      test::CheckGolden(key, OutputsHash(RunKernels(c.tree, in)));
    });
  }
}

}  // namespace
}  // namespace swarm
