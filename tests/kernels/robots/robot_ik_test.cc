// Tests for the damped-least-squares IK step of swarm/kernels/robots/robot_ik.h: bitwise equality
// with the scalar reference on every compiled SIMD target (several batch and joint counts, in place
// and out of place, padding untouched), agreement with the weighted DLS step solved in double, the
// orientation error's sign and hemisphere convention, the step limit, the position limits, and,
// with a planar 3-link arm whose kinematics the test computes in double, convergence to reachable
// targets from many starts and bounded, NaN-free steps toward unreachable ones.
#include "swarm/kernels/robots/robot_ik.h"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <vector>

#include "swarm/kernels/robots/robot_ik_reference.h"
#include "swarm/kernels/robots/robot_kinematics.h"
#include "tests/kernels/geometry/pose_fixture.h"
#include "tests/kernels/robots/joint_lanes_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::PaddedLanes;
using test::TargetUnderTest;

constexpr float kInfinity = std::numeric_limits<float>::infinity();
constexpr float kPadding = 3.5f;  // any write to the padding changes it
constexpr double kPi = 3.14159265358979323846;

using test::View;

// The kernel's inputs and output for `robots` robots with `joints` joint columns.
struct IkBatch {
  IkBatch(size_t robot_count, size_t joint_count)
      : robots(robot_count),
        joints(joint_count),
        limits(joint_count),
        link(robot_count, 7, kPadding),
        target(robot_count, 7, kPadding),
        jacobian(robot_count, 6 * joint_count, kPadding),
        q(robot_count, joint_count, kPadding) {
    for (JointControl& joint : limits) {
      joint.lower = -kInfinity;
      joint.upper = kInfinity;
    }
  }

  void Step(const IkParams& params) {
    DampedLeastSquaresStep(limits.data(), joints, View(link), View(target), View(jacobian), View(q),
                           View(q), params);
  }
  void StepInto(PaddedLanes& q_out, const IkParams& params) {
    DampedLeastSquaresStep(limits.data(), joints, View(link), View(target), View(jacobian), View(q),
                           View(q_out), params);
  }
  void ReferenceStepInto(PaddedLanes& q_out, const IkParams& params) {
    reference::DampedLeastSquaresStep(limits.data(), joints, View(link), View(target),
                                      View(jacobian), View(q), View(q_out), params);
  }
  float& J(size_t row, size_t column, size_t robot) {
    return jacobian.Lane(row * joints + column)[robot];
  }

  size_t robots, joints;
  std::vector<JointControl> limits;
  PaddedLanes link, target, jacobian, q;
};

// A uniformly random unit quaternion (x, y, z, w), either sign of w.
std::array<double, 4> RandomQuaternion(std::mt19937& rng) {
  std::normal_distribution<double> normal;
  std::array<double, 4> q;
  double norm = 0.0;
  for (double& c : q) {
    c = normal(rng);
    norm += c * c;
  }
  for (double& c : q) c /= std::sqrt(norm);
  return q;
}

void SetPose(PaddedLanes& pose, size_t robot, const std::array<double, 3>& position,
             const std::array<double, 4>& rotation) {
  for (size_t k = 0; k < 3; ++k) pose.Lane(k)[robot] = static_cast<float>(position[k]);
  for (size_t k = 0; k < 4; ++k) pose.Lane(3 + k)[robot] = static_cast<float>(rotation[k]);
}

// Random poses, Jacobian entries in [-1, 1] and joint values in [-1, 1].
IkBatch RandomBatch(std::mt19937& rng, size_t robots, size_t joints) {
  IkBatch batch(robots, joints);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (size_t r = 0; r < robots; ++r) {
    SetPose(batch.link, r, {unit(rng), unit(rng), unit(rng)}, RandomQuaternion(rng));
    SetPose(batch.target, r, {unit(rng), unit(rng), unit(rng)}, RandomQuaternion(rng));
    for (size_t a = 0; a < 6 * joints; ++a) batch.jacobian.Lane(a)[r] = float(unit(rng));
    for (size_t c = 0; c < joints; ++c) batch.q.Lane(c)[r] = float(unit(rng));
  }
  return batch;
}

TEST_CASE("DampedLeastSquaresStep matches its reference bitwise on every target") {
  std::mt19937 rng(21);
  const IkParams params_list[] = {
      {0.05f, 1.0f, 0.2f}, {0.5f, 0.0f, kInfinity}, {0.1f, 0.5f, 0.05f}};
  for (size_t robots : {1, 15, 16, 17, 1000}) {
    for (size_t joints : {1, 3, 6, 7}) {
      IkBatch batch = RandomBatch(rng, robots, joints);
      for (size_t c = 0; c < joints; c += 2) {  // finite limits on every other joint
        batch.limits[c].lower = -0.9f;
        batch.limits[c].upper = 0.8f;
      }
      for (const IkParams& params : params_list) {
        PaddedLanes want(robots, joints, kPadding);
        batch.ReferenceStepInto(want, params);
        ForEachTarget([&](const TargetUnderTest& t) {
          INFO("target " << t.name << ", robots " << robots << ", joints " << joints << ", damping "
                         << params.damping);
          PaddedLanes got(robots, joints, kPadding);
          batch.StepInto(got, params);
          CHECK(got.BitwiseEqual(want));  // padding included
          IkBatch in_place = batch;
          in_place.Step(params);
          CHECK(in_place.q.BitwiseEqual(want));
        });
      }
    }
  }
}

// The weighted DLS step in double, solved by Gaussian elimination with partial pivoting (an
// algorithm independent of the kernel's LDL^T): dq = (W J)^T ((W J)(W J)^T + lambda^2 I)^-1 W e.
std::vector<double> DoubleStep(IkBatch& batch, size_t r, const IkParams& params, double* scale) {
  const size_t n = batch.joints;
  double e[6];
  for (size_t k = 0; k < 3; ++k) e[k] = double(batch.target.Lane(k)[r]) - batch.link.Lane(k)[r];
  const double ax = batch.target.Lane(3)[r], ay = batch.target.Lane(4)[r],
               az = batch.target.Lane(5)[r], aw = batch.target.Lane(6)[r];
  const double bx = -double(batch.link.Lane(3)[r]), by = -double(batch.link.Lane(4)[r]),
               bz = -double(batch.link.Lane(5)[r]), bw = batch.link.Lane(6)[r];
  double error[4] = {aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz};
  const double sign = error[3] < 0 ? -1.0 : 1.0;
  const double w = params.orientation_weight;
  for (size_t k = 0; k < 3; ++k) e[3 + k] = w * 2.0 * sign * error[k];
  std::vector<double> wj(6 * n);
  double frobenius = 0.0;
  for (size_t k = 0; k < 6; ++k) {
    for (size_t c = 0; c < n; ++c) {
      wj[k * n + c] = (k >= 3 ? w : 1.0) * batch.J(k, c, r);
      frobenius += wj[k * n + c] * wj[k * n + c];
    }
  }
  const double lambda_squared = double(params.damping) * params.damping;
  *scale = (frobenius + lambda_squared) / lambda_squared;  // bounds the condition number
  double a[6][7];
  for (size_t i = 0; i < 6; ++i) {
    for (size_t k = 0; k < 6; ++k) {
      double sum = i == k ? lambda_squared : 0.0;
      for (size_t c = 0; c < n; ++c) sum += wj[i * n + c] * wj[k * n + c];
      a[i][k] = sum;
    }
    a[i][6] = e[i];
  }
  for (size_t col = 0; col < 6; ++col) {
    size_t pivot = col;
    for (size_t i = col + 1; i < 6; ++i) {
      if (std::fabs(a[i][col]) > std::fabs(a[pivot][col])) pivot = i;
    }
    std::swap(a[col], a[pivot]);
    for (size_t i = col + 1; i < 6; ++i) {
      const double factor = a[i][col] / a[col][col];
      for (size_t k = col; k < 7; ++k) a[i][k] -= factor * a[col][k];
    }
  }
  double y[6];
  for (size_t i = 6; i-- > 0;) {
    double sum = a[i][6];
    for (size_t k = i + 1; k < 6; ++k) sum -= a[i][k] * y[k];
    y[i] = sum / a[i][i];
  }
  std::vector<double> dq(n, 0.0);
  for (size_t c = 0; c < n; ++c) {
    for (size_t k = 0; k < 6; ++k) dq[c] += wj[k * n + c] * y[k];
  }
  return dq;
}

TEST_CASE("DampedLeastSquaresStep solves the weighted DLS step of double precision") {
  std::mt19937 rng(22);
  const IkParams params_list[] = {
      {0.3f, 1.0f, kInfinity}, {0.3f, 0.4f, kInfinity}, {0.2f, 0.0f, kInfinity}};
  for (size_t joints : {2, 6, 7}) {
    for (const IkParams& params : params_list) {
      IkBatch batch = RandomBatch(rng, 200, joints);
      for (size_t c = 0; c < joints; ++c) {
        for (size_t r = 0; r < batch.robots; ++r) batch.q.Lane(c)[r] = 0.0f;
      }
      PaddedLanes dq(batch.robots, joints, kPadding);
      batch.StepInto(dq, params);  // q = 0, so q_out = dq
      for (size_t r = 0; r < batch.robots; ++r) {
        double condition = 0.0;
        const std::vector<double> want = DoubleStep(batch, r, params, &condition);
        double largest = 0.0;
        for (double v : want) largest = std::max(largest, std::fabs(v));
        for (size_t c = 0; c < joints; ++c) {
          // Float rounding of the 6x6 system and its solve is amplified by at most the condition
          // number of the system (bounded by (|W J|_F^2 + lambda^2) / lambda^2); 16 u covers the
          // few roundings per entry of J J^T, the factorisation and J^T y. Measured: at most
          // 0.63 of this tolerance (2 joints), below 0.04 of it with 6 or 7.
          const double error = std::fabs(dq.Lane(c)[r] - want[c]);
          const double tolerance = 16 * test::kFloatRoundoff * condition * (largest + 1e-3);
          INFO("robot " << r << " joint " << c << " joints " << joints << " weight "
                        << params.orientation_weight);
          REQUIRE(error <= tolerance);
        }
      }
    }
  }
}

// With six joints and J = I, the step is dq = W (W^2 + lambda^2)^-1 W e: it shows the error the
// kernel computed, here compared with the error computed in double from the stated convention
// (q_err = q_target q_link^* in the hemisphere w >= 0, orientation error 2 vec(q_err)).
IkBatch IdentityJacobianBatch(size_t robots) {
  IkBatch batch(robots, 6);
  for (size_t r = 0; r < robots; ++r) {
    for (size_t k = 0; k < 6; ++k) {
      for (size_t c = 0; c < 6; ++c) batch.J(k, c, r) = k == c ? 1.0f : 0.0f;
      batch.q.Lane(k)[r] = 0.0f;
    }
  }
  return batch;
}

TEST_CASE("The orientation error takes the shorter rotation, target relative to link") {
  const IkParams params{0.1f, 0.7f, kInfinity};
  const double w = params.orientation_weight, lambda_squared = 0.1 * 0.1;
  std::mt19937 rng(23);
  const size_t robots = 301;
  IkBatch batch = IdentityJacobianBatch(robots);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (size_t r = 0; r < robots; ++r) {
    SetPose(batch.link, r, {unit(rng), unit(rng), unit(rng)}, RandomQuaternion(rng));
    SetPose(batch.target, r, {unit(rng), unit(rng), unit(rng)}, RandomQuaternion(rng));
  }
  size_t flipped = 0;
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    PaddedLanes dq(robots, 6, kPadding);
    batch.StepInto(dq, params);
    flipped = 0;
    for (size_t r = 0; r < robots; ++r) {
      double condition = 0.0;
      const std::vector<double> want = DoubleStep(batch, r, params, &condition);
      // The closed form of the step for J = I.
      for (size_t k = 0; k < 3; ++k) {
        const double position_error = double(batch.target.Lane(k)[r]) - batch.link.Lane(k)[r];
        CHECK(want[k] == Approx(position_error / (1.0 + lambda_squared)).margin(1e-12));
      }
      const double a[4] = {batch.target.Lane(3)[r], batch.target.Lane(4)[r],
                           batch.target.Lane(5)[r], batch.target.Lane(6)[r]};
      const double b[4] = {batch.link.Lane(3)[r], batch.link.Lane(4)[r], batch.link.Lane(5)[r],
                           batch.link.Lane(6)[r]};
      // Scalar part of a b^*: the cosine of half the angle from link to target.
      const double cosine = a[3] * b[3] + a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
      flipped += cosine < 0.0;
      for (size_t k = 0; k < 6; ++k) {
        INFO("robot " << r << " component " << k);
        CHECK(std::fabs(dq.Lane(k)[r] - want[k]) <= 1e-6);
      }
      // |orientation part| = 2 w^2 / (w^2 + lambda^2) sin(angle / 2) with angle <= pi.
      double length = 0.0;
      for (size_t k = 3; k < 6; ++k) length += double(dq.Lane(k)[r]) * dq.Lane(k)[r];
      const double half_angle = std::acos(std::min(1.0, std::fabs(cosine)));
      CHECK(std::sqrt(length) ==
            Approx(2 * w * w / (w * w + lambda_squared) * std::sin(half_angle)).margin(1e-6));
    }
  });
  CHECK(flipped > 50);  // both hemispheres were exercised
  CHECK(flipped < robots - 50);

  // A 10 degree turn about +z, written with either sign of the quaternion, gives a positive z
  // error; 350 degrees about +z is the shorter -10 degrees and gives a negative one.
  IkBatch turns = IdentityJacobianBatch(3);
  const double half = 5.0 * kPi / 180.0;
  for (size_t r = 0; r < 3; ++r) SetPose(turns.link, r, {0, 0, 0}, {0, 0, 0, 1});
  SetPose(turns.target, 0, {0, 0, 0}, {0, 0, std::sin(half), std::cos(half)});
  SetPose(turns.target, 1, {0, 0, 0}, {0, 0, -std::sin(half), -std::cos(half)});
  SetPose(turns.target, 2, {0, 0, 0}, {0, 0, std::sin(35 * half), std::cos(35 * half)});
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    PaddedLanes dq(3, 6, kPadding);
    turns.StepInto(dq, params);
    const double expected = 2 * w * w / (w * w + lambda_squared) * std::sin(half);
    CHECK(dq.Lane(5)[0] == Approx(expected).epsilon(1e-6));
    CHECK(test::SameBits(dq.Lane(5)[1], dq.Lane(5)[0]));
    CHECK(dq.Lane(5)[2] == Approx(-expected).epsilon(1e-5));
    for (size_t k = 0; k < 5; ++k) CHECK(dq.Lane(k)[0] == 0.0f);
  });
}

TEST_CASE("The step limit scales the whole step and keeps its direction") {
  std::mt19937 rng(24);
  const size_t robots = 500, joints = 7;
  IkBatch batch = RandomBatch(rng, robots, joints);
  // max_step = the median of the unlimited steps' largest joint change, so about half the robots
  // are scaled and half are not.
  PaddedLanes unlimited(robots, joints, kPadding);
  batch.StepInto(unlimited, {0.1f, 1.0f, kInfinity});
  std::vector<float> largest_steps(robots);
  for (size_t r = 0; r < robots; ++r) {
    for (size_t c = 0; c < joints; ++c) {
      largest_steps[r] =
          std::max(largest_steps[r], std::fabs(unlimited.Lane(c)[r] - batch.q.Lane(c)[r]));
    }
  }
  std::nth_element(largest_steps.begin(), largest_steps.begin() + robots / 2, largest_steps.end());
  const float max_step = largest_steps[robots / 2];
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name << ", max_step " << max_step);
    PaddedLanes free_q(robots, joints, kPadding), limited_q(robots, joints, kPadding);
    batch.StepInto(free_q, {0.1f, 1.0f, kInfinity});
    batch.StepInto(limited_q, {0.1f, 1.0f, max_step});
    size_t scaled = 0;
    for (size_t r = 0; r < robots; ++r) {
      double largest = 0.0;
      for (size_t c = 0; c < joints; ++c) {
        largest = std::max(largest, std::fabs(double(free_q.Lane(c)[r]) - batch.q.Lane(c)[r]));
      }
      scaled += largest > max_step;
      for (size_t c = 0; c < joints; ++c) {
        INFO("robot " << r << " joint " << c);
        const double q = batch.q.Lane(c)[r];
        const double free_step = double(free_q.Lane(c)[r]) - q;
        const double step = double(limited_q.Lane(c)[r]) - q;
        // Rounding q + dq adds at most half an ulp of |q + dq| (below 2^-23 for |q + dq| < 2
        // plus the step); scaling adds a few u of the step. The free step carries the same
        // rounding of q + dq, hence twice the allowance in the direction check.
        const double rounding = (1.0 + max_step) * 0x1p-23 + 4 * test::kFloatRoundoff * max_step;
        REQUIRE(std::fabs(step) <= max_step + rounding);
        if (largest > max_step) {
          CHECK(std::fabs(step - free_step * (max_step / largest)) <= 2 * rounding);
        } else {
          CHECK(test::SameBits(limited_q.Lane(c)[r], free_q.Lane(c)[r]));
        }
      }
    }
    CHECK(scaled > 200);
    CHECK(scaled < 300);
  });
}

TEST_CASE("Position limits hold after an IK step, infinite limits leave it unclamped") {
  std::mt19937 rng(25);
  const size_t robots = 300, joints = 6;
  IkBatch batch = RandomBatch(rng, robots, joints);
  IkBatch limited = batch;
  for (size_t c = 0; c < joints; c += 2) {
    limited.limits[c].lower = -0.5f - 0.1f * c;
    limited.limits[c].upper = 0.4f + 0.1f * c;
  }
  limited.limits[1].lower = -kInfinity;  // one-sided
  limited.limits[1].upper = 0.3f;
  for (size_t c = 0; c < joints; ++c) {  // start inside the limits
    for (size_t r = 0; r < robots; ++r) {
      float& q = limited.q.Lane(c)[r];
      q = std::clamp(q, limited.limits[c].lower, limited.limits[c].upper);
      batch.q.Lane(c)[r] = q;
    }
  }
  const IkParams params{0.05f, 1.0f, 0.5f};
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    PaddedLanes free_q(robots, joints, kPadding), limited_q(robots, joints, kPadding);
    batch.StepInto(free_q, params);
    limited.StepInto(limited_q, params);
    size_t clamped = 0;
    for (size_t c = 0; c < joints; ++c) {
      const float lower = limited.limits[c].lower, upper = limited.limits[c].upper;
      for (size_t r = 0; r < robots; ++r) {
        INFO("robot " << r << " joint " << c);
        const float got = limited_q.Lane(c)[r], free = free_q.Lane(c)[r];
        REQUIRE(got >= lower);
        REQUIRE(got <= upper);
        // The limits clamp the same step (they do not change the solve).
        CHECK(test::SameBits(got, std::clamp(free, lower, upper)));
        clamped += got != free;
      }
    }
    CHECK(clamped > 50);
  });
}

TEST_CASE("A NaN in one robot's IK inputs stays in that robot") {
  std::mt19937 rng(26);
  const size_t robots = 40, joints = 6;
  IkBatch batch = RandomBatch(rng, robots, joints);
  IkBatch poisoned = batch;
  const size_t bad = 18;
  poisoned.J(2, 3, bad) = std::numeric_limits<float>::quiet_NaN();
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    PaddedLanes clean_q(robots, joints, kPadding), got(robots, joints, kPadding);
    batch.StepInto(clean_q, {});
    poisoned.StepInto(got, {});
    for (size_t c = 0; c < joints; ++c) {
      for (size_t r = 0; r < robots; ++r) {
        INFO("robot " << r << " joint " << c);
        if (r == bad) {
          CHECK(std::isnan(got.Lane(c)[r]));
        } else {
          CHECK(test::SameBits(got.Lane(c)[r], clean_q.Lane(c)[r]));
        }
      }
    }
  });
}

// A planar arm in the world xy plane: three revolute joints about +z at the base and at the end
// of each link, link lengths below. Kinematics in double, straight from the geometry.
constexpr double kLinkLengths[3] = {0.5, 0.4, 0.3};
constexpr double kReach = 1.2;

struct PlanarKinematics {
  double x = 0.0, y = 0.0, heading = 0.0;
  double joint_x[3] = {}, joint_y[3] = {};  // world position of each joint axis
};

PlanarKinematics PlanarForward(const double q[3]) {
  PlanarKinematics k;
  for (size_t c = 0; c < 3; ++c) {
    k.joint_x[c] = k.x;
    k.joint_y[c] = k.y;
    k.heading += q[c];
    k.x += kLinkLengths[c] * std::cos(k.heading);
    k.y += kLinkLengths[c] * std::sin(k.heading);
  }
  return k;
}

std::array<double, 4> HeadingQuaternion(double heading) {
  return {0.0, 0.0, std::sin(heading / 2), std::cos(heading / 2)};
}

// Writes robot r's end-effector pose and geometric Jacobian (columns: z x (p_end - p_joint), z)
// for its current q into the batch, as float.
void UpdatePlanarArm(IkBatch& batch, size_t r) {
  const double q[3] = {batch.q.Lane(0)[r], batch.q.Lane(1)[r], batch.q.Lane(2)[r]};
  const PlanarKinematics k = PlanarForward(q);
  SetPose(batch.link, r, {k.x, k.y, 0.0}, HeadingQuaternion(k.heading));
  for (size_t c = 0; c < 3; ++c) {
    const double column[6] = {-(k.y - k.joint_y[c]), k.x - k.joint_x[c], 0.0, 0.0, 0.0, 1.0};
    for (size_t row = 0; row < 6; ++row) batch.J(row, c, r) = static_cast<float>(column[row]);
  }
}

// Robots with random starts, each with a target pose of the arm at a random configuration whose
// end is between 0.2 and 1.0 m from the base (reachable, away from the outer singular circle).
IkBatch PlanarTargets(std::mt19937& rng, size_t robots) {
  IkBatch batch(robots, 3);
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  for (size_t r = 0; r < robots; ++r) {
    double goal[3];
    PlanarKinematics k;
    do {
      for (double& g : goal) g = angle(rng);
      k = PlanarForward(goal);
    } while (std::hypot(k.x, k.y) < 0.2 || std::hypot(k.x, k.y) > 1.0);
    SetPose(batch.target, r, {k.x, k.y, 0.0}, HeadingQuaternion(k.heading));
    for (size_t c = 0; c < 3; ++c) batch.q.Lane(c)[r] = static_cast<float>(angle(rng));
  }
  return batch;
}

double PositionError(IkBatch& batch, size_t r) {
  return std::hypot(double(batch.target.Lane(0)[r]) - batch.link.Lane(0)[r],
                    double(batch.target.Lane(1)[r]) - batch.link.Lane(1)[r]);
}

// Angle between the end's heading and the target's (both rotations about z).
double HeadingError(IkBatch& batch, size_t r) {
  const double target = 2 * std::atan2(batch.target.Lane(5)[r], batch.target.Lane(6)[r]);
  const double link = 2 * std::atan2(batch.link.Lane(5)[r], batch.link.Lane(6)[r]);
  return std::fabs(std::remainder(target - link, 2 * kPi));
}

TEST_CASE("Repeated IK steps bring a planar arm to reachable targets from many starts") {
  const size_t robots = 200, steps = 300;
  for (const float weight : {0.0f, 1.0f}) {
    const IkParams params{0.05f, weight, 0.2f};
    ForEachTarget([&](const TargetUnderTest& t) {
      INFO("target " << t.name << ", orientation weight " << weight);
      std::mt19937 rng(27);
      IkBatch batch = PlanarTargets(rng, robots);
      for (size_t step = 0; step < steps; ++step) {
        for (size_t r = 0; r < robots; ++r) UpdatePlanarArm(batch, r);
        batch.Step(params);
      }
      for (size_t r = 0; r < robots; ++r) UpdatePlanarArm(batch, r);
      for (size_t r = 0; r < robots; ++r) {
        INFO("robot " << r);
        REQUIRE(PositionError(batch, r) < 1e-4);
        if (weight > 0.0f) REQUIRE(HeadingError(batch, r) < 1e-4);
      }
    });
  }
}

TEST_CASE("IK steps toward unreachable targets stay bounded and stretch the arm toward them") {
  const size_t robots = 64, steps = 400;
  const IkParams params{0.05f, 0.0f, 0.1f};
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    std::mt19937 rng(28);
    IkBatch batch = PlanarTargets(rng, robots);
    std::uniform_real_distribution<double> angle(-kPi, kPi);
    std::vector<double> distance(robots);
    for (size_t r = 0; r < robots; ++r) {
      const double direction = angle(rng);
      distance[r] = 1.5 + 3.0 * (r % 4);  // 1.25x to 9x the reach
      SetPose(batch.target, r,
              {distance[r] * std::cos(direction), distance[r] * std::sin(direction), 0.0},
              {0.0, 0.0, 0.0, 1.0});
    }
    for (size_t step = 0; step < steps; ++step) {
      for (size_t r = 0; r < robots; ++r) UpdatePlanarArm(batch, r);
      PaddedLanes before = batch.q;
      batch.Step(params);
      for (size_t r = 0; r < robots; ++r) {
        for (size_t c = 0; c < 3; ++c) {
          const float q = batch.q.Lane(c)[r];
          INFO("step " << step << " robot " << r << " joint " << c);
          REQUIRE(std::isfinite(q));
          REQUIRE(std::fabs(double(q) - before.Lane(c)[r]) <= 0.1 + 1e-6);
        }
      }
    }
    for (size_t r = 0; r < robots; ++r) {
      UpdatePlanarArm(batch, r);
      INFO("robot " << r);
      // Stretched straight at the target the arm would be distance - reach away. Near that
      // singular pose the damped step overshoots through it and max_step bounds the swing, so
      // the arm stays slightly bent: measured 2.6 mm short of full stretch; allowed 5 mm.
      CHECK(PositionError(batch, r) <= distance[r] - kReach + 5e-3);
    }
  });
}

// A UR5-class arm built by hand from the published UR5 URDF (ur5_robot.urdf): six revolute joints
// and the fixed end-effector joint; link 7 is the end effector.
std::vector<KinematicJoint> Ur5Joints() {
  const double s = std::sqrt(0.5);
  struct Row {
    double translation[3];
    double rotation[4];  // x y z w
    double axis[3];
  };
  const Row rows[7] = {
      {{0, 0, 0.089159}, {0, 0, 0, 1}, {0, 0, 1}},
      {{0, 0.13585, 0}, {0, s, 0, s}, {0, 1, 0}},  // rpy (0, pi/2, 0)
      {{0, -0.1197, 0.425}, {0, 0, 0, 1}, {0, 1, 0}},
      {{0, 0, 0.39225}, {0, s, 0, s}, {0, 1, 0}},
      {{0, 0.093, 0}, {0, 0, 0, 1}, {0, 0, 1}},
      {{0, 0, 0.09465}, {0, 0, 0, 1}, {0, 1, 0}},
      {{0, 0.0823, 0}, {0, 0, s, s}, {1, 0, 0}},  // fixed, rpy (0, 0, pi/2)
  };
  std::vector<KinematicJoint> joints(7);
  for (size_t i = 0; i < 7; ++i) {
    KinematicJoint& joint = joints[i];
    joint.parent_link = static_cast<uint32_t>(i);
    joint.motion = i < 6 ? JointMotion::kRevolute : JointMotion::kFixed;
    joint.q_index = i < 6 ? static_cast<int32_t>(i) : -1;
    for (size_t k = 0; k < 3; ++k) {
      joint.origin_translation[k] = static_cast<float>(rows[i].translation[k]);
      joint.axis[k] = static_cast<float>(rows[i].axis[k]);
    }
    for (size_t k = 0; k < 4; ++k)
      joint.origin_rotation[k] = static_cast<float>(rows[i].rotation[k]);
  }
  return joints;
}

TEST_CASE("IK with the FK and Jacobian kernels brings a UR5-class arm to reachable poses") {
  const std::vector<KinematicJoint> joints = Ur5Joints();
  KinematicTree tree;
  tree.joints = joints.data();
  tree.joint_count = joints.size();
  tree.q_count = 6;
  const size_t end_link = 7, robots = 100, steps = 200;
  const IkParams params{0.01f, 1.0f, 0.2f};
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    std::mt19937 rng(29);
    std::uniform_real_distribution<float> angle(-3.0f, 3.0f), offset(-0.4f, 0.4f);
    IkBatch batch(robots, 6);
    PaddedLanes poses(robots, kPoseArrays * tree.link_count(), kPadding);
    // Targets: the end pose at a random configuration; starts: that configuration moved by up to
    // 0.4 rad per joint (DLS is a local method: far starts may meet the arm's other solutions).
    for (size_t c = 0; c < 6; ++c) {
      for (size_t r = 0; r < robots; ++r) batch.q.Lane(c)[r] = angle(rng);
    }
    ForwardKinematics(tree, View(batch.q), View(poses));
    for (size_t k = 0; k < 7; ++k) {
      for (size_t r = 0; r < robots; ++r) {
        batch.target.Lane(k)[r] = poses.Lane(kPoseArrays * end_link + k)[r];
      }
    }
    for (size_t c = 0; c < 6; ++c) {
      for (size_t r = 0; r < robots; ++r) batch.q.Lane(c)[r] += offset(rng);
    }
    const LanesView end_pose = View(poses).Arrays(kPoseArrays * end_link, kPoseArrays);
    for (size_t step = 0; step <= steps; ++step) {
      ForwardKinematics(tree, View(batch.q), View(poses));
      if (step == steps) break;
      LinkJacobian(tree, end_link, View(poses), View(batch.jacobian));
      DampedLeastSquaresStep(batch.limits.data(), 6, end_pose, View(batch.target),
                             View(batch.jacobian), View(batch.q), View(batch.q), params);
    }
    // Measured after 200 steps: at most 1.1e-5 m and 5.4e-7 rad (the slowest robot starts near a
    // wrist singularity), the median 3.4e-7 m.
    for (size_t r = 0; r < robots; ++r) {
      double position = 0.0;
      for (size_t k = 0; k < 3; ++k) {
        const double d = double(end_pose.Array(k)[r]) - batch.target.Lane(k)[r];
        position += d * d;
      }
      // The rotation angle from 2 |vec(q_target q_end^*)| (accurate near 0, unlike acos).
      const double a[4] = {batch.target.Lane(3)[r], batch.target.Lane(4)[r],
                           batch.target.Lane(5)[r], batch.target.Lane(6)[r]};
      const double b[4] = {-double(end_pose.Array(3)[r]), -double(end_pose.Array(4)[r]),
                           -double(end_pose.Array(5)[r]), end_pose.Array(6)[r]};
      const double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
      const double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
      const double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
      const double rotation = 2 * std::sqrt(x * x + y * y + z * z);
      INFO("robot " << r << " position error " << std::sqrt(position) << " m, rotation error "
                    << rotation << " rad");
      CHECK(std::sqrt(position) < 1e-4);
      CHECK(rotation < 1e-4);
    }
  });
}

}  // namespace
}  // namespace swarm
