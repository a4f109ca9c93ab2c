// Tests for the joint-control kernels of swarm/kernels/robots/robot_control.h: PdTorques and
// IntegrateJoints against their bitwise scalar references on every compiled SIMD target (several
// batch sizes, padding untouched), PD against its formula in double, PD + integration against a
// double-precision simulation of the same recurrence and against the continuous critically
// damped solution, every limit (torque, velocity, position; infinite = unlimited), and NaN
// confined to its robot.
#include "swarm/kernels/robots/robot_control.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <vector>

#include "swarm/kernels/robots/robot_control_reference.h"
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

// Joints whose limits are active for some of the inputs above and unlimited (infinite or the
// 1e30 defaults) for others.
std::vector<JointControl> MixedJoints(std::mt19937& rng, size_t count) {
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<JointControl> joints(count);
  for (size_t j = 0; j < count; ++j) {
    JointControl& joint = joints[j];
    joint.kp = 200.0f * unit(rng);
    joint.kd = 30.0f * unit(rng);
    joint.inverse_inertia = 0.2f + 5.0f * unit(rng);
    switch (j % 3) {
      case 0:
        joint.effort_limit = kInfinity;
        joint.velocity_limit = kInfinity;
        joint.lower = -kInfinity;
        joint.upper = kInfinity;
        break;
      case 1:  // the struct's defaults (1e30)
        break;
      default:
        joint.effort_limit = 1.0f + 50.0f * unit(rng);
        joint.velocity_limit = 0.5f + 2.0f * unit(rng);
        joint.lower = -1.0f + 0.5f * unit(rng);
        joint.upper = 0.5f + 0.5f * unit(rng);
    }
  }
  return joints;
}

TEST_CASE("PdTorques matches its reference bitwise on every target") {
  std::mt19937 rng(11);
  for (size_t robots : kBatchSizes) {
    const std::vector<JointControl> joints = MixedJoints(rng, 5);
    PaddedLanes q = Uniform(rng, robots, joints.size(), -1.5f, 1.5f);
    PaddedLanes qd = Uniform(rng, robots, joints.size(), -3.0f, 3.0f);
    PaddedLanes target = Uniform(rng, robots, joints.size(), -1.5f, 1.5f);
    PaddedLanes want(robots, joints.size(), kPadding);
    reference::PdTorques(joints.data(), joints.size(), View(q), View(qd), View(target), View(want));
    ForEachTarget([&](const TargetUnderTest& t) {
      INFO("target " << t.name << ", robots " << robots);
      PaddedLanes got(robots, joints.size(), kPadding);
      PdTorques(joints.data(), joints.size(), View(q), View(qd), View(target), View(got));
      CHECK(got.BitwiseEqual(want));  // includes the padding, which must still be kPadding
    });
  }
}

TEST_CASE("PdTorques agrees with the PD law evaluated in double") {
  std::mt19937 rng(12);
  const size_t robots = 1000;
  const std::vector<JointControl> joints = MixedJoints(rng, 6);
  PaddedLanes q = Uniform(rng, robots, joints.size(), -1.5f, 1.5f);
  PaddedLanes qd = Uniform(rng, robots, joints.size(), -3.0f, 3.0f);
  PaddedLanes target = Uniform(rng, robots, joints.size(), -1.5f, 1.5f);
  PaddedLanes torque(robots, joints.size(), kPadding);
  PdTorques(joints.data(), joints.size(), View(q), View(qd), View(target), View(torque));
  size_t clamped = 0;
  for (size_t j = 0; j < joints.size(); ++j) {
    const JointControl& joint = joints[j];
    for (size_t r = 0; r < robots; ++r) {
      const double proportional = double(joint.kp) * (double(target.Lane(j)[r]) - q.Lane(j)[r]);
      const double damping = double(joint.kd) * qd.Lane(j)[r];
      const double limit = joint.effort_limit;
      const double raw = proportional - damping;
      const double want = raw > limit ? limit : raw < -limit ? -limit : raw;
      clamped += want != raw;
      // Four roundings (difference, two products, final difference), each at most u times a
      // magnitude bounded by |proportional| + |damping|; the clamp is 1-Lipschitz and its bounds
      // are exact.
      const double tolerance =
          4 * test::kFloatRoundoff * (std::fabs(proportional) + std::fabs(damping));
      INFO("joint " << j << " robot " << r);
      REQUIRE(std::fabs(torque.Lane(j)[r] - want) <= tolerance);
    }
  }
  CHECK(clamped > 100);  // the effort limits were exercised
}

TEST_CASE("IntegrateJoints matches its reference bitwise on every target") {
  std::mt19937 rng(13);
  for (size_t robots : kBatchSizes) {
    const std::vector<JointControl> joints = MixedJoints(rng, 5);
    PaddedLanes torque = Uniform(rng, robots, joints.size(), -100.0f, 100.0f);
    PaddedLanes q = Uniform(rng, robots, joints.size(), -1.2f, 1.2f);
    PaddedLanes qd = Uniform(rng, robots, joints.size(), -3.0f, 3.0f);
    PaddedLanes want_q = q, want_qd = qd;
    const float dt = 0.01f;
    reference::IntegrateJoints(joints.data(), joints.size(), View(torque), View(want_q),
                               View(want_qd), dt);
    ForEachTarget([&](const TargetUnderTest& t) {
      INFO("target " << t.name << ", robots " << robots);
      PaddedLanes got_q = q, got_qd = qd;
      IntegrateJoints(joints.data(), joints.size(), View(torque), View(got_q), View(got_qd), dt);
      CHECK(got_q.BitwiseEqual(want_q));
      CHECK(got_qd.BitwiseEqual(want_qd));
    });
  }
}

// One joint, inverse inertia 1, no limits: x'' = kp (target - x) - kd x'. With kd = 2 sqrt(kp)
// the continuous system is critically damped: for e = x - target and w = sqrt(kp),
//   e(t) = (e0 + (v0 + w e0) t) exp(-w t).
struct PdRun {
  std::vector<double> q;  // after each step
};

constexpr size_t kPdRobots = 17;  // a full vector and a partial one on every target

// Steps PdTorques + IntegrateJoints for kPdRobots robots with initial errors e0[r], velocities
// v0[r] and target 0.25; returns every robot's trajectory.
std::vector<PdRun> RunPd(const JointControl& joint, float dt, size_t steps,
                         const std::vector<float>& e0, const std::vector<float>& v0) {
  PaddedLanes q(kPdRobots, 1, kPadding), qd(kPdRobots, 1, kPadding);
  PaddedLanes target(kPdRobots, 1, kPadding), torque(kPdRobots, 1, kPadding);
  for (size_t r = 0; r < kPdRobots; ++r) {
    target.Lane(0)[r] = 0.25f;
    q.Lane(0)[r] = 0.25f + e0[r];
    qd.Lane(0)[r] = v0[r];
  }
  std::vector<PdRun> runs(kPdRobots);
  for (size_t step = 0; step < steps; ++step) {
    PdTorques(&joint, 1, View(q), View(qd), View(target), View(torque));
    IntegrateJoints(&joint, 1, View(torque), View(q), View(qd), dt);
    for (size_t r = 0; r < kPdRobots; ++r) runs[r].q.push_back(q.Lane(0)[r]);
  }
  return runs;
}

void InitialStates(std::vector<float>& e0, std::vector<float>& v0) {
  std::mt19937 rng(14);
  std::uniform_real_distribution<float> error(-1.0f, 1.0f), velocity(-5.0f, 5.0f);
  e0.resize(kPdRobots);
  v0.resize(kPdRobots);
  for (size_t r = 0; r < kPdRobots; ++r) {
    e0[r] = error(rng);
    v0[r] = velocity(rng);
  }
}

JointControl CriticallyDamped() {
  JointControl joint;
  joint.kp = 100.0f;
  joint.kd = 20.0f;  // 2 sqrt(kp)
  joint.effort_limit = kInfinity;
  joint.velocity_limit = kInfinity;
  joint.lower = -kInfinity;
  joint.upper = kInfinity;
  return joint;
}

TEST_CASE("PD + IntegrateJoints follows the same recurrence simulated in double") {
  const JointControl joint = CriticallyDamped();
  std::vector<float> e0, v0;
  InitialStates(e0, v0);
  const float dt = 0.002f;
  const size_t steps = 2000;
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    const std::vector<PdRun> runs = RunPd(joint, dt, steps, e0, v0);
    double worst = 0.0;
    for (size_t r = 0; r < kPdRobots; ++r) {
      // The recurrence the kernels implement, in double, with the same float parameters.
      double q = 0.25 + double(e0[r]), qd = v0[r];
      const double gain = double(joint.inverse_inertia * dt);
      const double scale = std::fabs(e0[r]) + std::fabs(v0[r]) * dt;
      for (size_t step = 0; step < steps; ++step) {
        const double torque = double(joint.kp) * (0.25 - q) - double(joint.kd) * qd;
        qd = qd + torque * gain;
        q = q + qd * double(dt);
        worst = std::max(worst, std::fabs(runs[r].q[step] - q) / (scale + 0.25));
      }
    }
    // Each float step rounds the state by a few u relative to |q| + |qd dt|; the discrete system
    // contracts (spectral radius ~1 - w dt = 0.98), so the accumulated error stays bounded near
    // (per-step error) / (1 - 0.98). Measured: about 2e-6 relative; allowed 2e-5.
    CHECK(worst <= 2e-5);
  });
}

// Largest |q(t_n) - exact(t_n)| over a trajectory of `seconds`, relative to |e0| + |v0| / w.
double ContinuousError(float dt, double seconds) {
  const JointControl joint = CriticallyDamped();
  std::vector<float> e0, v0;
  InitialStates(e0, v0);
  const size_t steps = static_cast<size_t>(std::lround(seconds / dt));
  const std::vector<PdRun> runs = RunPd(joint, dt, steps, e0, v0);
  const double w = 10.0;
  double worst = 0.0;
  for (size_t r = 0; r < kPdRobots; ++r) {
    for (size_t step = 0; step < steps; ++step) {
      const double time = double(step + 1) * dt;
      const double exact = 0.25 + (e0[r] + (v0[r] + w * e0[r]) * time) * std::exp(-w * time);
      worst = std::max(
          worst, std::fabs(runs[r].q[step] - exact) / (std::fabs(e0[r]) + std::fabs(v0[r]) / w));
    }
  }
  return worst;
}

TEST_CASE("PD + IntegrateJoints converges to the critically damped solution at first order") {
  // Semi-implicit Euler is first-order accurate: the global error is C w dt times the motion's
  // scale. Measured 0.69 w dt (0.0138 at dt = 2 ms, w = 10); allowed w dt. Halving dt must
  // halve the error (ratio 2.0 measured for this first-order method; allowed 1.8 .. 2.2).
  const double coarse = ContinuousError(0.002f, 1.5);
  const double fine = ContinuousError(0.001f, 1.5);
  INFO("error at dt 2 ms " << coarse << ", at 1 ms " << fine);
  CHECK(coarse <= 10.0 * 0.002);
  CHECK(coarse / fine >= 1.8);
  CHECK(coarse / fine <= 2.2);
}

// One robot, one joint, one PD + integration step.
struct SingleStep {
  float torque, q, qd;
};
SingleStep StepOnce(const JointControl& joint, float q0, float qd0, float target, float dt) {
  PaddedLanes q(1, 1, kPadding), qd(1, 1, kPadding), goal(1, 1, kPadding), torque(1, 1, kPadding);
  q.Lane(0)[0] = q0;
  qd.Lane(0)[0] = qd0;
  goal.Lane(0)[0] = target;
  PdTorques(&joint, 1, View(q), View(qd), View(goal), View(torque));
  const float applied = torque.Lane(0)[0];
  IntegrateJoints(&joint, 1, View(torque), View(q), View(qd), dt);
  return {applied, q.Lane(0)[0], qd.Lane(0)[0]};
}

TEST_CASE("Joint limits hold on every target: torque, velocity and position") {
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    JointControl joint = CriticallyDamped();
    joint.effort_limit = 30.0f;
    joint.velocity_limit = 2.0f;
    joint.lower = -0.5f;
    joint.upper = 0.75f;

    // A large error saturates the torque at exactly +-effort_limit.
    CHECK(StepOnce(joint, 0.0f, 0.0f, 10.0f, 0.001f).torque == 30.0f);
    CHECK(StepOnce(joint, 0.0f, 0.0f, -10.0f, 0.001f).torque == -30.0f);
    // A torque that would push |qd| past the limit stops at exactly +-velocity_limit.
    CHECK(StepOnce(joint, 0.0f, 1.9f, 10.0f, 0.01f).qd == 2.0f);
    CHECK(StepOnce(joint, 0.0f, -1.9f, -10.0f, 0.01f).qd == -2.0f);
    // Moving out through the upper limit: held at the limit, outward velocity removed.
    const SingleStep up = StepOnce(joint, 0.74f, 1.5f, 10.0f, 0.01f);
    CHECK(up.q == 0.75f);
    CHECK(up.qd == 0.0f);
    const SingleStep down = StepOnce(joint, -0.49f, -1.5f, -10.0f, 0.01f);
    CHECK(down.q == -0.5f);
    CHECK(down.qd == 0.0f);
    // At a limit and pulled back inward: the inward velocity is kept and the joint leaves.
    const SingleStep back = StepOnce(joint, 0.75f, 0.0f, 0.0f, 0.01f);
    CHECK(back.qd < 0.0f);
    CHECK(back.q < 0.75f);
    // Already past a limit (a state the caller wrote) with inward velocity: clamped to the limit,
    // velocity kept because it points inward.
    const SingleStep outside = StepOnce(joint, 1.0f, -0.1f, 1.0f, 0.01f);
    CHECK(outside.q == 0.75f);
    CHECK(outside.qd < 0.0f);

    // A long run against the limits never leaves them.
    PaddedLanes q(33, 1, kPadding), qd(33, 1, kPadding), target(33, 1, kPadding),
        torque(33, 1, kPadding);
    for (size_t r = 0; r < 33; ++r) target.Lane(0)[r] = r % 2 ? 5.0f : -5.0f;
    for (size_t step = 0; step < 500; ++step) {
      PdTorques(&joint, 1, View(q), View(qd), View(target), View(torque));
      for (size_t r = 0; r < 33; ++r) REQUIRE(std::fabs(torque.Lane(0)[r]) <= 30.0f);
      IntegrateJoints(&joint, 1, View(torque), View(q), View(qd), 0.004f);
      for (size_t r = 0; r < 33; ++r) {
        REQUIRE(q.Lane(0)[r] >= -0.5f);
        REQUIRE(q.Lane(0)[r] <= 0.75f);
        REQUIRE(std::fabs(qd.Lane(0)[r]) <= 2.0f);
      }
    }
    for (size_t r = 0; r < 33; ++r) CHECK(q.Lane(0)[r] == (r % 2 ? 0.75f : -0.5f));
  });
}

TEST_CASE("Infinite limits mean unlimited") {
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    const JointControl joint = CriticallyDamped();  // all limits +-infinity
    // 1e6 rad of error: torque 1e8 passes unclamped, as do the velocity and position it causes.
    const SingleStep big = StepOnce(joint, 0.0f, 0.0f, 1e6f, 0.01f);
    CHECK(big.torque == 100.0f * 1e6f);
    CHECK(big.qd == 1e8f * (1.0f * 0.01f));
    CHECK(big.q == 0.0f + big.qd * 0.01f);
    const SingleStep negative = StepOnce(joint, 0.0f, 0.0f, -1e6f, 0.01f);
    CHECK(negative.torque == -1e8f);
    CHECK(negative.q == negative.qd * 0.01f);
    // Infinite torque and velocity pass through as well (no limit turns them into NaN).
    const SingleStep infinite = StepOnce(joint, 0.0f, 0.0f, kInfinity, 0.01f);
    CHECK(infinite.torque == kInfinity);
    CHECK(infinite.qd == kInfinity);
    CHECK(infinite.q == kInfinity);
  });
}

TEST_CASE("A NaN stays in its robot") {
  std::mt19937 rng(15);
  const size_t robots = 40;
  const std::vector<JointControl> joints = MixedJoints(rng, 3);
  PaddedLanes q = Uniform(rng, robots, joints.size(), -1.0f, 1.0f);
  PaddedLanes qd = Uniform(rng, robots, joints.size(), -1.0f, 1.0f);
  PaddedLanes target = Uniform(rng, robots, joints.size(), -1.0f, 1.0f);
  PaddedLanes clean_q = q, clean_qd = qd;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const size_t poisoned = 17;  // second vector on AVX-512, shares a vector with 16..31
  q.Lane(1)[poisoned] = nan;
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    PaddedLanes torque(robots, joints.size(), kPadding), clean_torque = torque;
    PaddedLanes step_q = q, step_qd = qd, step_clean_q = clean_q, step_clean_qd = clean_qd;
    PdTorques(joints.data(), joints.size(), View(step_q), View(step_qd), View(target),
              View(torque));
    PdTorques(joints.data(), joints.size(), View(step_clean_q), View(step_clean_qd), View(target),
              View(clean_torque));
    IntegrateJoints(joints.data(), joints.size(), View(torque), View(step_q), View(step_qd), 0.01f);
    IntegrateJoints(joints.data(), joints.size(), View(clean_torque), View(step_clean_q),
                    View(step_clean_qd), 0.01f);
    for (size_t j = 0; j < joints.size(); ++j) {
      for (size_t r = 0; r < robots; ++r) {
        INFO("joint " << j << " robot " << r);
        if (j == 1 && r == poisoned) {
          CHECK(std::isnan(torque.Lane(j)[r]));
          CHECK(std::isnan(step_q.Lane(j)[r]));
          CHECK(std::isnan(step_qd.Lane(j)[r]));
        } else {
          CHECK(test::SameBits(torque.Lane(j)[r], clean_torque.Lane(j)[r]));
          CHECK(test::SameBits(step_q.Lane(j)[r], step_clean_q.Lane(j)[r]));
          CHECK(test::SameBits(step_qd.Lane(j)[r], step_clean_qd.Lane(j)[r]));
        }
      }
    }
  });
}

}  // namespace
}  // namespace swarm
