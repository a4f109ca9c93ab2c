// Tests for the torque-control kernels of swarm/kernels/robots/robot_torque.h: every kernel against
// its bitwise scalar reference on every compiled SIMD target (several batch sizes, padding
// untouched, limits active and inactive), and against analytic results: the PD term in double, a
// limit spring's one-sided force (pushes back, damps only inward motion, nothing inside the
// limits), semi-implicit Euler under constant acceleration, and a floating base turning at a
// constant body rate (the rotation angle |w| t about a fixed axis, the position along the turning
// body axis).
#include "swarm/kernels/robots/robot_torque.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <vector>

#include "swarm/kernels/robots/robot_torque_reference.h"
#include "tests/kernels/geometry/pose_fixture.h"
#include "tests/kernels/robots/joint_lanes_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::PaddedLanes;
using test::TargetUnderTest;

constexpr float kInfinity = std::numeric_limits<float>::infinity();
constexpr float kPadding = test::kJointPadding;
constexpr const size_t (&kBatchSizes)[6] = test::kJointBatchSizes;
using test::Uniform;
using test::View;

// Joints with limits inside the sampled range (so both sides and the inside are exercised),
// infinite limits or the 1e30 defaults.
std::vector<JointControl> Joints(std::mt19937& rng, size_t count) {
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<JointControl> joints(count);
  for (size_t j = 0; j < count; ++j) {
    JointControl& joint = joints[j];
    joint.kp = 200.0f * unit(rng);
    joint.kd = 30.0f * unit(rng);
    if (j % 3 == 0) {
      joint.effort_limit = kInfinity;
      joint.lower = -kInfinity;
      joint.upper = kInfinity;
    } else if (j % 3 == 2) {
      joint.effort_limit = 1.0f + 50.0f * unit(rng);
      joint.lower = -1.0f + 0.5f * unit(rng);
      joint.upper = 0.5f + 0.5f * unit(rng);
    }
  }
  return joints;
}

TEST_CASE("torque-control kernels match their references bitwise on every target", "[dynamics]") {
  std::mt19937 rng(31);
  const JointLimitSpring spring{5000.0f, 40.0f};
  for (size_t robots : kBatchSizes) {
    const std::vector<JointControl> joints = Joints(rng, 5);
    const size_t n = joints.size();
    PaddedLanes q = Uniform(rng, robots, n, -1.5f, 1.5f);
    PaddedLanes qd = Uniform(rng, robots, n, -3.0f, 3.0f);
    PaddedLanes target = Uniform(rng, robots, n, -1.5f, 1.5f);
    PaddedLanes target_qd = Uniform(rng, robots, n, -2.0f, 2.0f);
    PaddedLanes target_qdd = Uniform(rng, robots, n, -10.0f, 10.0f);
    const JointTargets targets{View(target), View(target_qd), View(target_qdd)};
    PaddedLanes tau = Uniform(rng, robots, n, -60.0f, 60.0f);
    PaddedLanes qdd = Uniform(rng, robots, n, -50.0f, 50.0f);
    PaddedLanes base_q = Uniform(rng, robots, 7, -1.0f, 1.0f);
    PaddedLanes base_qd = Uniform(rng, robots, 6, -4.0f, 4.0f);
    PaddedLanes base_qdd = Uniform(rng, robots, 6, -20.0f, 20.0f);
    const float dt = 0.002f;
    PaddedLanes want_pd = tau, want_a(robots, n, kPadding), want_clamped = tau;
    PaddedLanes want_limited(robots, n, kPadding), want_q = q, want_qd = qd;
    PaddedLanes want_base_q = base_q, want_base_qd = base_qd;
    reference::AddPdTorques(joints.data(), n, View(q), View(qd), targets, View(want_pd));
    reference::PdAccelerations(joints.data(), n, View(q), View(qd), targets, View(want_a));
    reference::ClampTorques(joints.data(), n, View(want_clamped));
    reference::AddJointLimitForces(joints.data(), n, spring, View(q), View(qd), View(tau),
                                   View(want_limited));
    reference::IntegrateAccelerations(View(qdd), View(want_q), View(want_qd), dt);
    reference::IntegrateFloatingBase(View(base_qdd), View(want_base_q), View(want_base_qd), dt);
    PaddedLanes want_advanced(robots, 7, kPadding), want_scaled(robots, n, kPadding);
    reference::AdvanceFloatingBase(View(base_q), View(base_qd), 0.37f, View(want_advanced));
    reference::AddScaled(View(q), View(qdd), -0.3f, View(want_scaled));
    ForEachTarget([&](const TargetUnderTest& t) {
      INFO("target " << t.name << ", robots " << robots);
      PaddedLanes pd = tau, a(robots, n, kPadding), clamped = tau, limited(robots, n, kPadding);
      PaddedLanes got_q = q, got_qd = qd, got_base_q = base_q, got_base_qd = base_qd;
      AddPdTorques(joints.data(), n, View(q), View(qd), targets, View(pd));
      PdAccelerations(joints.data(), n, View(q), View(qd), targets, View(a));
      ClampTorques(joints.data(), n, View(clamped));
      AddJointLimitForces(joints.data(), n, spring, View(q), View(qd), View(tau), View(limited));
      IntegrateAccelerations(View(qdd), View(got_q), View(got_qd), dt);
      IntegrateFloatingBase(View(base_qdd), View(got_base_q), View(got_base_qd), dt);
      PaddedLanes advanced(robots, 7, kPadding), scaled(robots, n, kPadding);
      AdvanceFloatingBase(View(base_q), View(base_qd), 0.37f, View(advanced));
      AddScaled(View(q), View(qdd), -0.3f, View(scaled));
      CHECK(advanced.BitwiseEqual(want_advanced));
      CHECK(scaled.BitwiseEqual(want_scaled));
      CHECK(pd.BitwiseEqual(want_pd));  // includes the padding, which must still be kPadding
      CHECK(a.BitwiseEqual(want_a));
      CHECK(clamped.BitwiseEqual(want_clamped));
      CHECK(limited.BitwiseEqual(want_limited));
      CHECK(got_q.BitwiseEqual(want_q));
      CHECK(got_qd.BitwiseEqual(want_qd));
      CHECK(got_base_q.BitwiseEqual(want_base_q));
      CHECK(got_base_qd.BitwiseEqual(want_base_qd));
    });
  }
}

TEST_CASE("joint limit springs push back one-sidedly and damp only inward motion", "[dynamics]") {
  JointControl joint;
  joint.lower = -1.0f;
  joint.upper = 2.0f;
  const JointLimitSpring spring{1000.0f, 10.0f};
  // q, qd, expected force (the spring's torque added to tau = 0.5).
  struct Case {
    float q, qd, force;
  };
  const Case cases[] = {
      {0.0f, 5.0f, 0.0f},                      // inside: nothing, whatever the velocity
      {2.0f, 1.0f, 0.0f},                      // on the limit: nothing
      {2.1f, 1.0f, 1000.0f * -0.1f - 10.0f},   // past upper, moving out: spring and damping
      {2.1f, -1.0f, 1000.0f * -0.1f},          // past upper, coming back: spring only
      {-1.2f, -2.0f, 1000.0f * 0.2f + 20.0f},  // past lower, moving out
      {-1.2f, 3.0f, 1000.0f * 0.2f},           // past lower, coming back
  };
  PaddedLanes q(std::size(cases), 1, kPadding), qd(std::size(cases), 1, kPadding);
  PaddedLanes tau(std::size(cases), 1, kPadding), out(std::size(cases), 1, kPadding);
  for (size_t i = 0; i < std::size(cases); ++i) {
    q.Lane(0)[i] = cases[i].q, qd.Lane(0)[i] = cases[i].qd, tau.Lane(0)[i] = 0.5f;
  }
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    AddJointLimitForces(&joint, 1, spring, View(q), View(qd), View(tau), View(out));
    for (size_t i = 0; i < std::size(cases); ++i) {
      INFO("case " << i);
      // Two roundings of terms up to ~220: a few float ulps.
      CHECK(out.Lane(0)[i] == Approx(0.5 + cases[i].force).margin(1e-4));
    }
  });
}

TEST_CASE("semi-implicit Euler under constant acceleration", "[dynamics]") {
  // qd_k = qd_0 + k a dt, q_k = q_0 + dt sum_{i=1..k} qd_i = q_0 + k dt qd_0 + a dt^2 k (k + 1)
  // / 2.
  const size_t robots = 3, steps = 500;
  const float dt = 0.01f, a = 2.0f;
  PaddedLanes q(robots, 1, kPadding), qd(robots, 1, kPadding), qdd(robots, 1, kPadding);
  for (size_t r = 0; r < robots; ++r) {
    q.Lane(0)[r] = 0.5f * r, qd.Lane(0)[r] = -1.0f + r, qdd.Lane(0)[r] = a;
  }
  for (size_t k = 0; k < steps; ++k) IntegrateAccelerations(View(qdd), View(q), View(qd), dt);
  for (size_t r = 0; r < robots; ++r) {
    const double k = steps;
    const double want_qd = (-1.0 + r) + k * a * dt;
    const double want_q = 0.5 * r + k * dt * (-1.0 + r) + a * dt * dt * k * (k + 1) / 2;
    CHECK(qd.Lane(0)[r] == Approx(want_qd).epsilon(1e-5));
    CHECK(q.Lane(0)[r] == Approx(want_q).epsilon(1e-4));
  }
}

TEST_CASE("a floating base turning at a constant body rate", "[dynamics]") {
  // Body rate w about the body z axis, body velocity v along body x: the base turns about world z
  // by |w| t and its origin runs on a circle of radius |v| / |w| (exactly, up to rounding: each
  // step's position update uses the orientation before the step, an O(dt) chord error bounded
  // below).
  const float dt = 0.001f, w = 2.0f, v = 0.5f;
  const size_t steps = 1000;
  PaddedLanes base_q(1, 7, kPadding), base_qd(1, 6, kPadding), base_qdd(1, 6, kPadding);
  for (size_t k = 0; k < 7; ++k) base_q.Lane(k)[0] = 0.0f;
  for (size_t k = 0; k < 6; ++k) base_qd.Lane(k)[0] = 0.0f, base_qdd.Lane(k)[0] = 0.0f;
  base_q.Lane(3)[0] = 1.0f;  // qw
  base_qd.Lane(0)[0] = v;
  base_qd.Lane(5)[0] = w;
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    PaddedLanes q = base_q, qd = base_qd;
    for (size_t k = 0; k < steps; ++k) IntegrateFloatingBase(View(base_qdd), View(q), View(qd), dt);
    const double time = steps * dt, angle = w * time;
    // Orientation: (qw, qz) = (cos(angle / 2), sin(angle / 2)), unit.
    CHECK(q.Lane(3)[0] == Approx(std::cos(angle / 2)).margin(1e-5));
    CHECK(q.Lane(6)[0] == Approx(std::sin(angle / 2)).margin(1e-5));
    CHECK(std::fabs(q.Lane(4)[0]) < 1e-6);
    CHECK(std::fabs(q.Lane(5)[0]) < 1e-6);
    // Position on the circle x = r sin(angle), y = r (1 - cos(angle)); the explicit-in-rotation
    // position update lags by half a step's turn: error <= |v| dt * angle.
    const double radius = v / w;
    const double lag = v * dt * angle;
    CHECK(std::fabs(q.Lane(0)[0] - radius * std::sin(angle)) <= lag);
    CHECK(std::fabs(q.Lane(1)[0] - radius * (1 - std::cos(angle))) <= lag);
    CHECK(std::fabs(q.Lane(2)[0]) < 1e-6);
    CHECK(qd.Lane(0)[0] == v);
    CHECK(qd.Lane(5)[0] == w);
  });
}

}  // namespace
}  // namespace swarm
