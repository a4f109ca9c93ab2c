// Tests for the torque-control kernels of swarm/kernels/robots/robot_torque.h: every kernel against
// its bitwise scalar reference on every compiled SIMD target (several batch sizes, padding
// untouched, limits active and inactive; MJCF actuators against their formula in double too), and
// against analytic results: semi-implicit Euler under
// constant acceleration, speed limits that hold after the step and leave slower lanes' bits alone,
// a floating base turning at a constant body rate (the rotation angle |w| t about a fixed axis, the
// position on a circle), and a free body's velocity carried exactly through its turning frame (the
// world velocity of a body without forces stays constant).
#include "swarm/kernels/robots/robot_torque.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <glm/gtc/quaternion.hpp>
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

// Joints with effort limits that clamp, infinite ones or the 1e30 defaults.
std::vector<JointControl> Joints(std::mt19937& rng, size_t count) {
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<JointControl> joints(count);
  for (size_t j = 0; j < count; ++j) {
    JointControl& joint = joints[j];
    joint.kp = 200.0f * unit(rng);
    joint.kd = 30.0f * unit(rng);
    if (j % 3 == 0) {
      joint.effort_limit = kInfinity;
    } else if (j % 3 == 2) {
      joint.effort_limit = 1.0f + 50.0f * unit(rng);
    }
  }
  return joints;
}

TEST_CASE("torque-control kernels match their references bitwise on every target", "[dynamics]") {
  std::mt19937 rng(31);
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
    PaddedLanes want_q = q, want_qd = qd;
    PaddedLanes want_base_q = base_q, want_base_qd = base_qd;
    reference::AddPdTorques(joints.data(), n, View(q), View(qd), targets, View(want_pd));
    reference::PdAccelerations(joints.data(), n, View(q), View(qd), targets, View(want_a));
    reference::ClampTorques(joints.data(), n, View(want_clamped));
    reference::IntegrateAccelerations(View(qdd), View(want_q), View(want_qd), dt);
    reference::IntegrateFloatingBase(View(base_qdd), View(want_base_q), View(want_base_qd), dt);
    PaddedLanes want_advanced(robots, 7, kPadding), want_scaled(robots, n, kPadding);
    reference::AdvanceFloatingBase(View(base_q), View(base_qd), 0.37f, View(want_advanced));
    reference::AddScaled(View(q), View(qdd), -0.3f, View(want_scaled));
    ForEachTarget([&](const TargetUnderTest& t) {
      INFO("target " << t.name << ", robots " << robots);
      PaddedLanes pd = tau, a(robots, n, kPadding), clamped = tau;
      PaddedLanes got_q = q, got_qd = qd, got_base_q = base_q, got_base_qd = base_qd;
      AddPdTorques(joints.data(), n, View(q), View(qd), targets, View(pd));
      PdAccelerations(joints.data(), n, View(q), View(qd), targets, View(a));
      ClampTorques(joints.data(), n, View(clamped));
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
      CHECK(got_q.BitwiseEqual(want_q));
      CHECK(got_qd.BitwiseEqual(want_qd));
      CHECK(got_base_q.BitwiseEqual(want_base_q));
      CHECK(got_base_qd.BitwiseEqual(want_base_qd));
    });
  }
}

// Actuators as MJCF files have them: position servos (gain kp, bias -kp q) with control and force
// ranges, motors with gears, two actuators on one joint, unlimited ranges.
std::vector<JointActuator> Actuators(std::mt19937& rng, size_t joints) {
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<JointActuator> actuators;
  for (size_t a = 0; a < joints + 2; ++a) {
    JointActuator actuator;
    actuator.dof = static_cast<uint32_t>(a % joints);
    actuator.gear = a % 3 == 1 ? -2.5f : 1.0f;
    if (a % 2 == 0) {  // a position servo
      actuator.gain = 10.0f + 90.0f * unit(rng);
      actuator.bias_position = -actuator.gain;
      actuator.bias_velocity = -5.0f * unit(rng);
      actuator.ctrl_lower = -1.0f - unit(rng), actuator.ctrl_upper = 1.0f + unit(rng);
      actuator.force_lower = -20.0f, actuator.force_upper = 15.0f;
    } else {  // a motor
      actuator.bias_constant = 2.0f * unit(rng) - 1.0f;
      if (a % 4 == 1) actuator.force_lower = -kInfinity, actuator.force_upper = kInfinity;
    }
    actuators.push_back(actuator);
  }
  return actuators;
}

TEST_CASE("ActuatorTorques matches its reference bitwise on every target and the formula",
          "[dynamics]") {
  std::mt19937 rng(47);
  for (size_t robots : kBatchSizes) {
    constexpr size_t kJoints = 4;
    const std::vector<JointActuator> actuators = Actuators(rng, kJoints);
    const size_t nu = actuators.size();
    PaddedLanes q = Uniform(rng, robots, kJoints, -1.5f, 1.5f);
    PaddedLanes qd = Uniform(rng, robots, kJoints, -4.0f, 4.0f);
    PaddedLanes ctrl = Uniform(rng, robots, nu, -3.0f, 3.0f);
    PaddedLanes want(robots, kJoints, kPadding);
    reference::ActuatorTorques(actuators.data(), nu, View(q), View(qd), View(ctrl), View(want));
    // The formula in double: each actuator's clamped force through its gear, summed per joint.
    for (size_t r = 0; r < robots; ++r) {
      std::vector<double> tau(kJoints, 0.0), magnitude(kJoints, 0.0);
      for (size_t a = 0; a < nu; ++a) {
        const JointActuator& u = actuators[a];
        const double c = std::clamp<double>(ctrl.Lane(a)[r], u.ctrl_lower, u.ctrl_upper);
        const double force = u.gain * c + u.bias_constant +
                             u.bias_position * u.gear * q.Lane(u.dof)[r] +
                             u.bias_velocity * u.gear * qd.Lane(u.dof)[r];
        tau[u.dof] += u.gear * std::clamp<double>(force, u.force_lower, u.force_upper);
        // The terms' sizes, which float rounding is relative to.
        magnitude[u.dof] +=
            std::abs(u.gear) * (std::abs(u.gain * c) + std::abs(u.bias_constant) +
                                std::abs(u.bias_position * u.gear * q.Lane(u.dof)[r]) +
                                std::abs(u.bias_velocity * u.gear * qd.Lane(u.dof)[r]));
      }
      for (size_t j = 0; j < kJoints; ++j) {
        CHECK(std::abs(want.Lane(j)[r] - tau[j]) <= 1e-6 * std::max(1.0, magnitude[j]));
      }
    }
    ForEachTarget([&](const TargetUnderTest& t) {
      INFO("target " << t.name << ", robots " << robots);
      PaddedLanes got(robots, kJoints, kPadding);
      ActuatorTorques(actuators.data(), nu, View(q), View(qd), View(ctrl), View(got));
      CHECK(got.BitwiseEqual(want));  // the padding too
    });
  }
}

// Velocities and accelerations of 6 + joints arrays (a floating base's first) whose steps v + dt a
// reach past the limits below in a sixth of the joint lanes, some lanes exactly at a limit.
struct SpeedCase {
  PaddedLanes v, a;
};
SpeedCase RandomSpeeds(std::mt19937& rng, size_t robots, size_t arrays, float dt) {
  SpeedCase c{Uniform(rng, robots, arrays, -110.0f, 110.0f),
              Uniform(rng, robots, arrays, -60.0f / dt, 60.0f / dt)};
  for (size_t k = 0; k < arrays; ++k) {
    for (size_t r = 0; r < robots; r += 7) c.v.Lane(k)[r] = 100.0f, c.a.Lane(k)[r] = 0.0f;
  }
  return c;
}

TEST_CASE("LimitSpeeds matches its reference bitwise on every target", "[dynamics]") {
  std::mt19937 rng(5);
  const float dt = 0.002f;
  const float joint_limits[] = {100.0f, 3.0f, kInfinity};
  const float base_limits[] = {20.0f, kInfinity};
  for (size_t robots : kBatchSizes) {
    const size_t arrays = 6 + 4;
    const SpeedCase c = RandomSpeeds(rng, robots, arrays, dt);
    for (size_t base : {size_t{0}, size_t{6}}) {
      for (float joint_limit : joint_limits) {
        for (float base_limit : base_limits) {
          PaddedLanes want = c.a;
          PaddedLanes v = c.v;
          reference::LimitSpeeds(View(v), View(want), dt, base, joint_limit, base_limit);
          ForEachTarget([&](const TargetUnderTest& t) {
            INFO("target " << t.name << ", robots " << robots << ", base " << base << ", limits "
                           << joint_limit << " " << base_limit);
            PaddedLanes got = c.a;
            LimitSpeeds(View(v), View(got), dt, base, joint_limit, base_limit);
            CHECK(got.BitwiseEqual(want));  // includes the padding
          });
        }
      }
    }
  }
}

bool SameBits(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }

TEST_CASE("LimitSpeeds keeps the step's speeds within their limits", "[dynamics]") {
  // After LimitSpeeds, v + dt a is within the joint limit per joint array and the base's angular
  // velocity within its limit in norm, along the direction it had; lanes already within keep the
  // bits of a, and a floating base's linear arrays are never touched. Checked in double on the
  // kernel's a: (clamped - v) / dt rounds twice, and v + dt a once more in the integrator, each
  // relative to |clamped| + |v| <= 2 limit + dt |a|: 4 roundings of that bound.
  std::mt19937 rng(12);
  const float dt = 0.002f, joint_limit = 100.0f, base_limit = 20.0f;
  const size_t robots = 1000, arrays = 6 + 5;
  const SpeedCase c = RandomSpeeds(rng, robots, arrays, dt);
  PaddedLanes v = c.v;
  size_t clamped_joints = 0, clamped_bases = 0;
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    PaddedLanes a = c.a;
    LimitSpeeds(View(v), View(a), dt, 6, joint_limit, base_limit);
    clamped_joints = clamped_bases = 0;
    for (size_t r = 0; r < robots; ++r) {
      INFO("robot " << r);
      for (size_t k = 0; k < 3; ++k) CHECK(SameBits(a.Lane(k)[r], c.a.Lane(k)[r]));
      for (size_t k = 6; k < arrays; ++k) {
        const double before = double(v.Lane(k)[r]) + double(dt) * c.a.Lane(k)[r];
        const double after = double(v.Lane(k)[r]) + double(dt) * a.Lane(k)[r];
        const double slack = 4.0 * test::kFloatRoundoff * (2.0 * joint_limit + std::fabs(before));
        // Within (exactly at the limit too) or past it, by more than the float step's rounding.
        if (std::fabs(before) <= joint_limit * (1.0 - 1e-6) || before == joint_limit) {
          CHECK(SameBits(a.Lane(k)[r], c.a.Lane(k)[r]));
        } else if (std::fabs(before) > joint_limit * (1.0 + 1e-6)) {
          ++clamped_joints;
          CHECK(std::fabs(std::fabs(after) - joint_limit) <= slack);
          CHECK(after * before > 0.0);
        }
        CHECK(std::fabs(after) <= joint_limit + slack);
      }
      double before[3], after[3];
      for (size_t k = 0; k < 3; ++k) {
        before[k] = double(v.Lane(3 + k)[r]) + double(dt) * c.a.Lane(3 + k)[r];
        after[k] = double(v.Lane(3 + k)[r]) + double(dt) * a.Lane(3 + k)[r];
      }
      const double speed_before = std::hypot(before[0], before[1], before[2]);
      const double speed_after = std::hypot(after[0], after[1], after[2]);
      const double slack = 8.0 * test::kFloatRoundoff * (2.0 * base_limit + speed_before);
      if (speed_before <= base_limit * (1.0 - 1e-5)) {
        for (size_t k = 3; k < 6; ++k) CHECK(SameBits(a.Lane(k)[r], c.a.Lane(k)[r]));
      } else if (speed_before > base_limit * (1.0 + 1e-5)) {
        ++clamped_bases;
        CHECK(std::fabs(speed_after - base_limit) <= slack);
        // Along the direction the step had: the cross product vanishes, the dot product is
        // positive.
        const double cross[3] = {before[1] * after[2] - before[2] * after[1],
                                 before[2] * after[0] - before[0] * after[2],
                                 before[0] * after[1] - before[1] * after[0]};
        CHECK(std::hypot(cross[0], cross[1], cross[2]) <= slack * speed_before);
        CHECK(before[0] * after[0] + before[1] * after[1] + before[2] * after[2] > 0.0);
      }
      CHECK(speed_after <= base_limit + slack);
    }
  });
  CHECK(clamped_joints > robots / 2);  // about a sixth of 5000 joint lanes
  CHECK(clamped_bases > robots / 4);
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
  // Body rate w about the body z axis, body velocity v along body x and no body-frame acceleration:
  // the base turns about world z by |w| t and its origin runs on a circle of radius |v| / |w|. The
  // integrator turns the velocity with the frame explicitly, u = v + dt w x v, a turn of
  // atan(|w| dt) per step that gains speed by the factor (1 + (|w| dt)^2)^(1/2) (u's two terms are
  // orthogonal), so after N steps |v| = |v_0| (1 + (|w| dt)^2)^(N/2) to rounding: at most half an
  // ulp per step, 6e-5 after 1000 (measured 2.5e-5). The position follows the circle to within half
  // a step's turn (it moves with each step's end velocity: |v| dt angle) plus the distance the
  // speed gain adds (|v| t N (|w| dt)^2 / 2).
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
    const double time = steps * dt, angle = w * time, turn = double(w) * dt;
    // Orientation: (qw, qz) = (cos(angle / 2), sin(angle / 2)), unit.
    CHECK(q.Lane(3)[0] == Approx(std::cos(angle / 2)).margin(1e-5));
    CHECK(q.Lane(6)[0] == Approx(std::sin(angle / 2)).margin(1e-5));
    CHECK(std::fabs(q.Lane(4)[0]) < 1e-6);
    CHECK(std::fabs(q.Lane(5)[0]) < 1e-6);
    // The body velocity: along body x, its speed gained as predicted; the rate unchanged.
    const double speed = v * std::pow(1.0 + turn * turn, 0.5 * double(steps));
    CHECK(qd.Lane(0)[0] == Approx(speed).epsilon(steps * 6e-8));
    CHECK(std::fabs(qd.Lane(1)[0]) <= v * steps * turn * turn * turn + 1e-6);
    CHECK(qd.Lane(2)[0] == 0.0f);
    CHECK(qd.Lane(5)[0] == w);
    // Position on the circle x = r sin(angle), y = r (1 - cos(angle)).
    const double radius = v / w;
    const double bound = v * dt * angle + v * time * steps * turn * turn / 2;
    CHECK(std::fabs(q.Lane(0)[0] - radius * std::sin(angle)) <= bound);
    CHECK(std::fabs(q.Lane(1)[0] - radius * (1 - std::cos(angle))) <= bound);
    CHECK(std::fabs(q.Lane(2)[0]) < 1e-6);
  });
}

// The rotation matrix of the float quaternion (x y z qw qx qy qz arrays 3-6), normalised in double.
glm::dmat3 BaseRotation(const PaddedLanes& q, size_t r) {
  return glm::mat3_cast(
      glm::normalize(glm::dquat(q.Lane(3)[r], q.Lane(4)[r], q.Lane(5)[r], q.Lane(6)[r])));
}

TEST_CASE("a free floating base keeps its world velocity while it turns", "[dynamics]") {
  // No force on the base, turning at a constant body rate w about an oblique axis: its origin's
  // world velocity R v stays constant, so in body coordinates v turns against the frame,
  // qdd = (-w x v, 0) (computed here in double from each step's state). The integrator carries v
  // through the frame's turn exactly (u = v + dt (qdd + w x v) = v up to rounding, then a
  // rotation): |v| is kept, R v stays the initial world velocity and the origin moves on the
  // straight line p_0 + t R_0 v_0. Tolerances after 2000 steps: 2e-5 of |v| for the velocity (each
  // step's rotation rounds by ~1e-7 of |v|; measured 4e-6), and for the position the float sum's
  // half ulp of |p| per step on top of that (measured 7.2e-5 m of a 4.8e-4 m bound).
  const float dt = 0.002f;
  const size_t steps = 2000;
  const glm::dvec3 rate(1.5, -2.0, 2.5), start_velocity(0.7, -0.4, 0.2);
  PaddedLanes base_q(1, 7, kPadding), base_qd(1, 6, kPadding), base_qdd(1, 6, kPadding);
  const float pose[7] = {0.1f, 0.2f, 0.3f, 0.8f, 0.3f, -0.5f, 0.2f};  // x y z qw qx qy qz
  for (size_t k = 0; k < 7; ++k) base_q.Lane(k)[0] = pose[k];
  for (size_t k = 0; k < 3; ++k) {
    base_qd.Lane(k)[0] = static_cast<float>(start_velocity[k]);
    base_qd.Lane(3 + k)[0] = static_cast<float>(rate[k]);
  }
  const glm::dvec3 world_velocity =
      BaseRotation(base_q, 0) *
      glm::dvec3(base_qd.Lane(0)[0], base_qd.Lane(1)[0], base_qd.Lane(2)[0]);
  const double speed = glm::length(world_velocity);
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    PaddedLanes q = base_q, qd = base_qd, qdd = base_qdd;
    for (size_t k = 0; k < steps; ++k) {
      const glm::dvec3 w(qd.Lane(3)[0], qd.Lane(4)[0], qd.Lane(5)[0]);
      const glm::dvec3 v(qd.Lane(0)[0], qd.Lane(1)[0], qd.Lane(2)[0]);
      const glm::dvec3 turning = -glm::cross(w, v);
      for (size_t i = 0; i < 3; ++i) qdd.Lane(i)[0] = static_cast<float>(turning[i]);
      IntegrateFloatingBase(View(qdd), View(q), View(qd), dt);
    }
    const glm::dvec3 v(qd.Lane(0)[0], qd.Lane(1)[0], qd.Lane(2)[0]);
    const double time = steps * double(dt);
    const glm::dvec3 end_position(q.Lane(0)[0], q.Lane(1)[0], q.Lane(2)[0]);
    const glm::dvec3 line = glm::dvec3(pose[0], pose[1], pose[2]) + time * world_velocity;
    const double tolerance = 2e-5;
    CHECK(std::fabs(glm::length(v) - speed) <= tolerance * speed);
    CHECK(glm::length(BaseRotation(q, 0) * v - world_velocity) <= tolerance * speed);
    const double sum_rounding = steps * test::kFloatRoundoff * glm::length(line);
    CHECK(glm::length(end_position - line) <= tolerance * speed * time + sum_rounding);
    // The body rate is untouched and the velocity did turn in the body frame.
    for (size_t k = 0; k < 3; ++k) CHECK(qd.Lane(3 + k)[0] == static_cast<float>(rate[k]));
    CHECK(glm::length(v - start_velocity) > 0.1 * speed);
  });
}

}  // namespace
}  // namespace swarm
