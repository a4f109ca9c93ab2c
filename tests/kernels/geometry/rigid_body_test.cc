// Tests for the rigid-body kernels of kernels/rigid_body.*: WorldInverseInertia against its bitwise
// reference and double-precision R D R^T, and IntegrateRigidBodies against its std::sin/std::cos
// reference, the analytic rotation under constant angular velocity, and its degenerate inputs.
#include "swarm/kernels/geometry/rigid_body.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <limits>
#include <optional>
#include <random>
#include <string>

#include "swarm/kernels/geometry/pose_reference.h"
#include "swarm/kernels/geometry/quaternion_reference.h"
#include "swarm/kernels/geometry/rigid_body_reference.h"
#include "tests/kernels/geometry/pose_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::Arrays;
using test::ErrorBound;
using test::ForEachTarget;
using test::TargetUnderTest;

enum : size_t { kRotations, kInverseInertia, kMatrices };

Arrays InertiaInputs(size_t count, std::mt19937& rng, float padding) {
  std::uniform_real_distribution<float> inverse_moment(0.1f, 10.0f);
  Arrays arrays;
  arrays.push_back(test::RandomLanes(rng, count, 4, padding));
  arrays.push_back(test::RandomLanes(rng, count, 4, padding));
  arrays.push_back(test::RandomLanes(rng, count, 16, padding));
  for (size_t i = 0; i < count; ++i) {
    arrays[kRotations].SetQuat(i, test::RandomRotation(rng));
    arrays[kInverseInertia].Set3(i,
                                 {inverse_moment(rng), inverse_moment(rng), inverse_moment(rng)});
  }
  return arrays;
}

void RunWorldInverseInertia(Arrays& p) {
  WorldInverseInertia(p[kRotations].vec4(), p[kInverseInertia].vec4(), p[kMatrices].mat4());
}

// Writes the reference's 3x3 into the upper-left of matrix i and the identity's elsewhere.
void SetMatrix(test::PaddedLanes& matrices, size_t i, const glm::mat3& upper_left) {
  for (size_t column = 0; column < 4; ++column) {
    for (size_t row = 0; row < 4; ++row) {
      const float value = column < 3 && row < 3
                              ? upper_left[static_cast<int>(column)][static_cast<int>(row)]
                              : (column == row ? 1.0f : 0.0f);
      matrices.Lane(4 * column + row)[i] = value;
    }
  }
}

float MatrixElement(const test::PaddedLanes& matrices, size_t i, size_t column, size_t row) {
  return matrices.Lane(4 * column + row)[i];
}

TEST_CASE("WorldInverseInertia matches the reference and R diag(inv) R^T in double") {
  // Each float entry is a sum of three products (R_jk d_k) R_lk with R entries computed from q in
  // two or three roundings (relative error <= 3 u on entries of magnitude <= 1, plus |q|^2 - 1 of
  // about u from the float input); with d_k <= 10 the entry error stays below about 16 u * max d.
  // We allow 32 u * max d.
  test::CheckKernelOnEveryTarget(
      InertiaInputs, RunWorldInverseInertia,
      [](Arrays& p) {
        for (size_t i = 0; i < p[0].count(); ++i) {
          SetMatrix(
              p[kMatrices], i,
              reference::WorldInverseInertia(p[kRotations].GetQuat(i), p[kInverseInertia].Get3(i)));
        }
      },
      [](const Arrays& input, const Arrays& got) {
        ErrorBound entry("inertia entry");
        std::string asymmetric;
        for (size_t i = 0; i < got[0].count(); ++i) {
          const glm::quat q = input[kRotations].GetQuat(i);
          const glm::dmat3 r = glm::mat3_cast(glm::normalize(glm::dquat(q.w, q.x, q.y, q.z)));
          const glm::dvec3 inverse_moments(input[kInverseInertia].Get3(i));
          glm::dmat3 diagonal(0.0);
          for (int k = 0; k < 3; ++k) diagonal[k][k] = inverse_moments[k];
          const glm::dmat3 want = r * diagonal * glm::transpose(r);
          const double scale = std::max({inverse_moments.x, inverse_moments.y, inverse_moments.z});
          double error = 0.0;
          for (size_t column = 0; column < 3; ++column) {
            for (size_t row = 0; row < 3; ++row) {
              const float value = MatrixElement(got[kMatrices], i, column, row);
              error = std::max(
                  error, std::abs(value - want[static_cast<int>(column)][static_cast<int>(row)]));
              if (!test::SameBits(value, MatrixElement(got[kMatrices], i, row, column)) &&
                  asymmetric.empty()) {
                asymmetric = "not exactly symmetric at element " + std::to_string(i) + "\n";
              }
            }
          }
          entry.Add(error, 32 * test::kFloatRoundoff * scale, i);
        }
        return entry.Report() + asymmetric;
      });
}

TEST_CASE("WorldInverseInertia of the identity and the zero quaternion is diag(inv)") {
  // Documented: R(0) = I as for the identity (every product in R vanishes), so both give the body
  // tensor unchanged, bitwise.
  std::mt19937 rng(1);
  Arrays arrays = InertiaInputs(2, rng, 0.0f);
  arrays[kRotations].SetQuat(0, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  arrays[kRotations].SetQuat(1, glm::quat(0.0f, 0.0f, 0.0f, 0.0f));
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Arrays got = arrays;
    RunWorldInverseInertia(got);
    for (size_t i = 0; i < 2; ++i) {
      const glm::vec3 moments = arrays[kInverseInertia].Get3(i);
      for (size_t column = 0; column < 4; ++column) {
        for (size_t row = 0; row < 4; ++row) {
          const float want = column != row ? 0.0f
                             : column == 3 ? 1.0f
                                           : moments[static_cast<int>(column)];
          CHECK(MatrixElement(got[kMatrices], i, column, row) == want);
        }
      }
    }
  });
}

enum : size_t { kRotation, kTranslation, kLinearVelocity, kAngularVelocity };

constexpr float kDt = 1.0f / 60.0f;

// Random poses and velocities: |v| up to 17 m/s, omega in [-10, 10]^3 rad/s, with every fifth
// body not spinning and every seventh spinning at 1e-20 rad/s (the Sinc polynomial's lanes).
Arrays BodyInputs(size_t count, std::mt19937& rng, float padding) {
  std::uniform_real_distribution<float> velocity(-10.0f, 10.0f);
  Arrays arrays;
  test::AddRandomPoses(arrays, rng, count, padding);
  arrays.push_back(test::RandomLanes(rng, count, 4, padding));
  arrays.push_back(test::RandomLanes(rng, count, 4, padding));
  for (size_t i = 0; i < count; ++i) {
    arrays[kLinearVelocity].Set3(i, {velocity(rng), velocity(rng), velocity(rng)});
    glm::vec3 omega(velocity(rng), velocity(rng), velocity(rng));
    if (i % 5 == 0) omega = glm::vec3(0.0f);
    if (i % 7 == 0) omega = glm::vec3(1e-20f, -1e-20f, 1e-20f);
    arrays[kAngularVelocity].Set3(i, omega);
  }
  return arrays;
}

void Step(Arrays& p, float dt_seconds = kDt) {
  IntegrateRigidBodies(test::Poses(p, kRotation, kTranslation), p[kLinearVelocity].vec4(),
                       p[kAngularVelocity].vec4(), dt_seconds);
}

reference::Pose GetBody(const Arrays& p, size_t i) {
  return test::GetPose(p, kRotation, kTranslation, i);
}

// exp((omega, 0) dt / 2) q in double: the exact step from the float inputs, normalised.
glm::dquat ExactStep(const glm::quat& q, const glm::vec3& omega, double dt) {
  const glm::dvec3 w(omega);
  const double angle = glm::length(w) * dt;
  const glm::dvec3 axis = glm::length(w) > 0.0 ? w / glm::length(w) : glm::dvec3(1.0, 0.0, 0.0);
  const glm::dquat dq = glm::angleAxis(angle, axis);
  return glm::normalize(dq * glm::dquat(q.w, q.x, q.y, q.z));
}

double QuaternionDistance(const glm::quat& got, const glm::dquat& want) {
  double error = 0.0;
  for (int k = 0; k < 4; ++k) error = std::max(error, std::abs(double{got[k]} - want[k]));
  return error;
}

TEST_CASE("IntegrateRigidBodies matches the reference and the exact exponential map") {
  // Translations: the same Add(t, Mul(v, dt)) as the reference, bitwise. Rotations: the
  // reference uses std::sin / std::cos, the kernel the project's polynomials; both sinc(h) and
  // cos(h) (h <= 0.15 here) are within 2 ulp of exact, which moves dq by at most 2 u per
  // component; the Hamilton product sums four such products and the normalisation divides by a
  // length within a few u of 1, so the two results differ by at most about 8 u. We allow 16 u
  // (9.5e-7) against the reference and 24 u against the exact double-precision step (measured
  // worst over 4096 random bodies: 1 u and 2 u).
  test::HarnessOptions options;
  for (size_t lane = 0; lane < 4; ++lane) options.tolerance_lanes.push_back({kRotation, lane});
  options.tolerance = 16 * test::kFloatRoundoff;
  test::CheckKernelOnEveryTarget(
      BodyInputs, [](Arrays& p) { Step(p); },
      [](Arrays& p) {
        for (size_t i = 0; i < p[0].count(); ++i) {
          reference::Pose body = GetBody(p, i);
          reference::IntegrateRigidBody(body, p[kLinearVelocity].Get3(i),
                                        p[kAngularVelocity].Get3(i), kDt);
          test::SetPose(p, kRotation, kTranslation, i, body);
        }
      },
      [](const Arrays& input, const Arrays& got) {
        ErrorBound rotation("rotation");
        for (size_t i = 0; i < got[0].count(); ++i) {
          const glm::dquat want =
              ExactStep(input[kRotation].GetQuat(i), input[kAngularVelocity].Get3(i), kDt);
          rotation.Add(QuaternionDistance(got[kRotation].GetQuat(i), want),
                       24 * test::kFloatRoundoff, i);
        }
        return rotation.Report();
      },
      options);
}

TEST_CASE("Constant angular velocity rotates by exactly n |omega| dt about its axis") {
  // After n steps from q0 the exact orientation is q_n = (sin(a/2) axis, cos(a/2)) q0 with
  // a = n |omega| dt. Each float step differs from the exact step by at most about 10 u (dq within
  // 4 u: sinc, cos and the rounded |omega| dt / 2; product 4 u; normalisation 2 u), and left
  // multiplication by a unit quaternion is an isometry of the unit sphere, so per-step errors
  // add without amplification: |q_n - exact| <= n * 10 u = 6e-4 for n = 1000. (A first-order
  // map dq = normalize(omega dt / 2, 1) would be off by ~h^3/3 per step: 0.05 after 1000 steps
  // at |omega| = 10, so the bound separates the exact map from an approximation.) Measured worst
  // over 4096 bodies: 1.7e-5 at |omega| = 25 rad/s, rounding errors mostly cancel.
  constexpr int kSteps = 1000;
  constexpr double kTolerance = kSteps * 10 * test::kFloatRoundoff;
  std::mt19937 rng(11);
  const size_t count = 67;
  std::uniform_real_distribution<float> component(-1.0f, 1.0f);
  Arrays bodies;
  test::AddRandomPoses(bodies, rng, count, 0.0f);
  bodies.push_back(test::RandomLanes(rng, count, 4, 0.0f));
  bodies.push_back(test::RandomLanes(rng, count, 4, 0.0f));
  const float speeds[] = {0.5f, 3.0f, 10.0f, 25.0f};
  for (size_t i = 0; i < count; ++i) {
    const glm::vec3 direction =
        glm::normalize(glm::vec3(component(rng), component(rng), component(rng)));
    bodies[kAngularVelocity].Set3(i, direction * speeds[i % 4]);
    bodies[kLinearVelocity].Set3(i, glm::vec3(1.0f, -2.0f, 0.5f));
  }
  std::optional<Arrays> first;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Arrays p = bodies;
    for (int step = 0; step < kSteps; ++step) Step(p);
    ErrorBound rotation("rotation after 1000 steps");
    for (size_t i = 0; i < count; ++i) {
      const glm::dvec3 omega(bodies[kAngularVelocity].Get3(i));
      const double angle = kSteps * glm::length(omega) * double{kDt};
      const glm::quat q0 = bodies[kRotation].GetQuat(i);
      const glm::dquat want =
          glm::angleAxis(angle, glm::normalize(omega)) * glm::dquat(q0.w, q0.x, q0.y, q0.z);
      rotation.Add(QuaternionDistance(p[kRotation].GetQuat(i), want), kTolerance, i);
    }
    CHECK(rotation.Report() == "");
    if (!first) {
      first.emplace(p);
    } else {
      CHECK(p[kRotation].BitwiseEqual((*first)[kRotation]));
      CHECK(p[kTranslation].BitwiseEqual((*first)[kTranslation]));
    }
  });
}

TEST_CASE("Zero angular velocity only normalises q and translates") {
  // Documented: omega = 0 (either sign of zero) gives dq = (0, 0, 0, 1) exactly, dq q = q
  // exactly, so q becomes normalize(q) (reference::NormalizedQuaternion, bitwise) and t += v dt.
  std::mt19937 rng(12);
  const size_t count = 33;
  Arrays input = BodyInputs(count, rng, 0.0f);
  std::uniform_real_distribution<float> off_unit(0.5f, 2.0f);
  for (size_t i = 0; i < count; ++i) {
    input[kAngularVelocity].Set3(i, i % 2 ? glm::vec3(0.0f) : glm::vec3(-0.0f, 0.0f, -0.0f));
    if (i % 3 == 0) input[kRotation].SetQuat(i, input[kRotation].GetQuat(i) * off_unit(rng));
  }
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Arrays p = input;
    Step(p);
    for (size_t i = 0; i < count; ++i) {
      INFO("body " << i);
      const reference::Pose before = GetBody(input, i), after = GetBody(p, i);
      const glm::quat want = reference::NormalizedQuaternion(before.rotation);
      for (int k = 0; k < 4; ++k) CHECK(test::SameBits(after.rotation[k], want[k]));
      const glm::vec3 want_t = before.translation + input[kLinearVelocity].Get3(i) * kDt;
      for (int k = 0; k < 3; ++k) CHECK(test::SameBits(after.translation[k], want_t[k]));
    }
  });
}

TEST_CASE("|q| stays 1 within 1e-6 over 10000 steps") {
  std::mt19937 rng(13);
  const size_t count = 64;
  const Arrays input = BodyInputs(count, rng, 0.0f);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Arrays p = input;
    double worst = 0.0;
    for (int step = 0; step < 10000; ++step) {
      Step(p);
      if (step % 100 != 99) continue;
      for (size_t i = 0; i < count; ++i) {
        const glm::quat q = p[kRotation].GetQuat(i);
        worst = std::max(worst, std::abs(glm::length(glm::dquat(q.w, q.x, q.y, q.z)) - 1.0));
      }
    }
    INFO("largest | |q| - 1 | " << worst);
    CHECK(worst <= 1e-6);
  });
}

TEST_CASE("Tiny angular velocities give finite unit quaternions") {
  // omega down to subnormal squares: |omega|^2 underflows (to a subnormal or 0), and Sinc's
  // polynomial lanes never divide, so dq = (omega dt / 2, 1) and q stays finite and unit.
  const float speeds[] = {1e-8f, 1e-20f, 1e-30f, 1e-40f, 1e-45f};
  std::mt19937 rng(14);
  const size_t count = 5;
  Arrays input = BodyInputs(count, rng, 0.0f);
  for (size_t i = 0; i < count; ++i) {
    input[kAngularVelocity].Set3(i, glm::vec3(speeds[i], -speeds[i], speeds[i]));
  }
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Arrays p = input;
    for (int step = 0; step < 100; ++step) Step(p);
    for (size_t i = 0; i < count; ++i) {
      INFO("speed " << speeds[i]);
      const glm::quat q = p[kRotation].GetQuat(i), q0 = input[kRotation].GetQuat(i);
      for (int k = 0; k < 4; ++k) {
        CHECK(std::isfinite(q[k]));
        // 100 steps of at most 1e-8 * dt / 2 rad each, plus renormalisation rounding.
        CHECK(std::abs(q[k] - q0[k]) <= 1e-6f);
      }
      CHECK(std::abs(glm::length(glm::dquat(q.w, q.x, q.y, q.z)) - 1.0) <= 1e-6);
    }
  });
}

TEST_CASE(
    "IntegrateRigidBodies on a zero quaternion, NaN and infinity gives the documented results") {
  // Documented in swarm/kernels/geometry/pose.h: a zero quaternion becomes the identity; NaN in q
  // or omega, or an infinite omega, makes that body's q NaN; NaN in v makes its t NaN; other bodies
  // and the other half of the pose are unaffected.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::mt19937 rng(15);
  const size_t count = 21;
  Arrays input = BodyInputs(count, rng, 0.0f);
  enum : size_t { kZeroQ = 1, kNanQ = 3, kNanOmega = 8, kInfOmega = 12, kNanV = 17 };
  input[kRotation].SetQuat(kZeroQ, glm::quat(0.0f, 0.0f, 0.0f, 0.0f));
  input[kRotation].Lane(2)[kNanQ] = nan;
  input[kAngularVelocity].Lane(0)[kNanOmega] = nan;
  input[kAngularVelocity].Lane(1)[kInfOmega] = inf;
  input[kLinearVelocity].Lane(2)[kNanV] = nan;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Arrays p = input;
    Step(p);
    for (size_t i = 0; i < count; ++i) {
      INFO("body " << i);
      const reference::Pose after = GetBody(p, i);
      const bool nan_q = i == kNanQ || i == kNanOmega || i == kInfOmega;
      for (int k = 0; k < 4; ++k) CHECK(std::isnan(after.rotation[k]) == nan_q);
      CHECK(std::isnan(after.translation.z) == (i == kNanV));
      CHECK(std::isfinite(after.translation.x));
    }
    CHECK(GetBody(p, kZeroQ).rotation == glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  });
}

}  // namespace
}  // namespace swarm
