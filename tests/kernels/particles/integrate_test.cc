// Tests for kernels/integrate.*: each kernel against its scalar reference on every compiled SIMD
// target (tests/kernels/particles/particle_fixture.h), then hand-computed collision and attractor
// cases. The integrators' analytic checks live in integrate_analytic_test.cc; the generator and the
// emitters have their own families (random_test.cc, emit_test.cc).
#include "swarm/kernels/particles/integrate.h"

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "swarm/kernels/particles/integrate_reference.h"
#include "tests/kernels/particles/particle_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::CheckKernelAgainstReference;
using test::Close;
using test::ForEachTarget;
using test::Particles;
using test::ParticlesAos;
using test::RandomParticles;
using test::TargetUnderTest;
using test::TestEulerParams;

// Unit roundoff of float: a correctly rounded operation has relative error at most u.
constexpr double kUnitRoundoff = 0x1p-24;

TEST_CASE("IntegrateEuler matches the reference on every target") {
  for (const float drag : {0.0f, 0.75f}) {
    INFO("drag " << drag);
    const EulerParams params = TestEulerParams(drag);
    CheckKernelAgainstReference(
        test::kWritesPositions | test::kWritesVelocities,
        [&](Particles& p) { IntegrateEuler(p.positions.view(), p.velocities.view(), params); },
        [&](ParticlesAos& p) { reference::IntegrateEuler(p.positions, p.velocities, params); });
  }
}

TEST_CASE("VerletKickDrift matches the reference on every target") {
  const float dt = 1.0f / 120.0f;
  CheckKernelAgainstReference(
      test::kWritesPositions | test::kWritesVelocities,
      [&](Particles& p) {
        VerletKickDrift(p.positions.view(), p.velocities.view(), p.accelerations.view(), dt);
      },
      [&](ParticlesAos& p) {
        reference::VerletKickDrift(p.positions, p.velocities, p.accelerations, dt);
      });
}

TEST_CASE("VerletKick matches the reference on every target") {
  const float dt = 1.0f / 120.0f;
  CheckKernelAgainstReference(
      test::kWritesVelocities,
      [&](Particles& p) { VerletKick(p.velocities.view(), p.accelerations.view(), dt); },
      [&](ParticlesAos& p) { reference::VerletKick(p.velocities, p.accelerations, dt); });
}

TEST_CASE("CollideBox matches the reference on every target") {
  // An off-centre box that excludes the origin, so zero padding would be moved by a stray store.
  BoxParams params;
  params.min = {-1.0f, 0.25f, -2.0f};
  params.max = {1.5f, 2.0f, -0.5f};
  params.restitution = 0.6f;
  params.friction = 0.15f;
  CheckKernelAgainstReference(
      test::kWritesPositions | test::kWritesVelocities,
      [&](Particles& p) { CollideBox(p.positions.view(), p.velocities.view(), params); },
      [&](ParticlesAos& p) { reference::CollideBox(p.positions, p.velocities, params); });
}

TEST_CASE("ApplyAttractor matches the reference on every target") {
  for (const float strength : {2.5f, -4.0f}) {
    INFO("strength " << strength);
    AttractorParams params;
    params.center = {0.25f, -0.5f, 1.0f};
    params.strength = strength;
    params.softening = 0.1f;
    params.dt_seconds = 1.0f / 60.0f;
    CheckKernelAgainstReference(
        test::kWritesVelocities,
        [&](Particles& p) { ApplyAttractor(p.positions.view(), p.velocities.view(), params); },
        [&](ParticlesAos& p) { reference::ApplyAttractor(p.positions, p.velocities, params); });
  }
}

TEST_CASE("AdvanceAge matches the reference on every target") {
  const float dt = 0.25f;
  CheckKernelAgainstReference(
      test::kWritesAges | test::kWritesDead,
      [&](Particles& p) { AdvanceAge(p.ages.view(), p.lifetimes.view(), p.dead.view(), dt); },
      [&](ParticlesAos& p) { reference::AdvanceAge(p.ages, p.lifetimes, p.dead, dt); });
}

TEST_CASE("AdvanceAge flags death at age == lifetime and clears stale flags") {
  // Exact binary fractions: 0.5 + 0.25 == 0.75 with no rounding.
  const std::vector<float> ages = {0.5f, 0.5f, 0.5f, 0.0f, 2.0f};
  const std::vector<float> lifetimes = {0.75f, 0.8f, 0.7f, 3.0f, 1.0f};
  const std::vector<uint8_t> stale_dead = {0, 0, 0, 1, 1};
  const std::vector<uint8_t> want_dead = {1, 0, 1, 0, 1};
  const std::vector<float> want_ages = {0.75f, 0.75f, 0.75f, 0.25f, 2.25f};
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Particles state(ages.size(), 0.0f, 0);
    for (size_t i = 0; i < ages.size(); ++i) {
      state.ages[i] = ages[i];
      state.lifetimes[i] = lifetimes[i];
      state.dead[i] = stale_dead[i];
    }
    AdvanceAge(state.ages.view(), state.lifetimes.view(), state.dead.view(), 0.25f);
    for (size_t i = 0; i < ages.size(); ++i) {
      INFO("particle " << i);
      CHECK(Close(state.ages[i], want_ages[i]));
      CHECK(state.dead[i] == want_dead[i]);
    }
  });
}

struct CollisionCase {
  const char* name;
  glm::vec3 position;
  glm::vec3 velocity;
  glm::vec3 want_position;
  glm::vec3 want_velocity;
};

TEST_CASE("CollideBox reflects, clamps and applies friction as computed by hand") {
  // Box [-1, 1]^3, restitution 0.5, friction 0.25 (so tangential velocity keeps 0.75): all
  // values below are exact in float.
  BoxParams params;
  params.min = {-1.0f, -1.0f, -1.0f};
  params.max = {1.0f, 1.0f, 1.0f};
  params.restitution = 0.5f;
  params.friction = 0.25f;
  const std::vector<CollisionCase> cases = {
      {"below the floor moving outward: clamped, reflected, friction on x and z",
       {0.5f, -1.5f, 0.25f},
       {2.0f, -4.0f, 1.0f},
       {0.5f, -1.0f, 0.25f},
       {1.5f, 2.0f, 0.75f}},
      {"below the floor moving inward: clamped, not reflected, friction on x and z",
       {0.5f, -1.5f, 0.25f},
       {2.0f, 3.0f, 1.0f},
       {0.5f, -1.0f, 0.25f},
       {1.5f, 3.0f, 0.75f}},
      {"inside: untouched, no friction without contact",
       {0.5f, 0.5f, -0.5f},
       {2.0f, -4.0f, 1.0f},
       {0.5f, 0.5f, -0.5f},
       {2.0f, -4.0f, 1.0f}},
      {"exactly on the wall is not past it: untouched",
       {0.0f, -1.0f, 0.0f},
       {2.0f, -4.0f, 1.0f},
       {0.0f, -1.0f, 0.0f},
       {2.0f, -4.0f, 1.0f}},
      {"past the +x wall moving outward: reflected, friction on y and z",
       {3.0f, 0.0f, 0.0f},
       {4.0f, 2.0f, -2.0f},
       {1.0f, 0.0f, 0.0f},
       {-2.0f, 1.5f, -1.5f}},
      {"past the +x wall at rest along x: clamped, x velocity stays 0",
       {3.0f, 0.0f, 0.0f},
       {0.0f, 2.0f, -2.0f},
       {1.0f, 0.0f, 0.0f},
       {0.0f, 1.5f, -1.5f}},
      {"corner x+ y-: both reflected, each scaled by the other's friction, z by both contacts once",
       {1.5f, -2.0f, 0.0f},
       {1.0f, -1.0f, 4.0f},
       {1.0f, -1.0f, 0.0f},
       {-0.375f, 0.375f, 3.0f}},
  };
  Particles input(cases.size(), 0.0f, 0);
  for (size_t i = 0; i < cases.size(); ++i) {
    input.positions.Set(i, glm::vec4(cases[i].position, 7.0f));
    input.velocities.Set(i, glm::vec4(cases[i].velocity, -7.0f));
  }
  ParticlesAos reference_state(input);
  reference::CollideBox(reference_state.positions, reference_state.velocities, params);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Particles state = input;
    CollideBox(state.positions.view(), state.velocities.view(), params);
    for (size_t i = 0; i < cases.size(); ++i) {
      INFO(cases[i].name);
      for (int axis = 0; axis < 3; ++axis) {
        INFO("axis " << axis);
        CHECK(Close(state.positions.Get(i)[axis], cases[i].want_position[axis]));
        CHECK(Close(state.velocities.Get(i)[axis], cases[i].want_velocity[axis]));
        CHECK(Close(reference_state.positions[i][axis], cases[i].want_position[axis]));
        CHECK(Close(reference_state.velocities[i][axis], cases[i].want_velocity[axis]));
      }
      CHECK(state.positions.Get(i).w == 7.0f);
      CHECK(state.velocities.Get(i).w == -7.0f);
    }
  });
}

TEST_CASE("CollideBox keeps NaN positions and signed zeros on the walls on every target") {
  // Box [0, 1] x [-0, 2] x [-1, 1]: a zero of either sign on a zero wall is not past it, and a
  // NaN is neither below nor above, so all of them come back unchanged, bit for bit, as in the
  // reference; Min/Max would map them differently per ISA.
  BoxParams params;
  params.min = {0.0f, -0.0f, -1.0f};
  params.max = {1.0f, 2.0f, 1.0f};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<glm::vec3> positions = {{-0.0f, 0.0f, 0.5f}, {0.0f, -0.0f, 0.5f},
                                            {nan, 0.5f, 0.5f},   {0.5f, nan, 2.0f},
                                            {nan, nan, nan},     {-0.0f, -0.0f, 0.0f}};
  Particles input(positions.size(), 0.0f, 0);
  for (size_t i = 0; i < positions.size(); ++i) {
    input.positions.Set(i, glm::vec4(positions[i], 1.0f));
    input.velocities.Set(i, glm::vec4(-1.0f, -2.0f, 3.0f, 0.0f));
  }
  ParticlesAos reference_state(input);
  reference::CollideBox(reference_state.positions, reference_state.velocities, params);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Particles state = input;
    CollideBox(state.positions.view(), state.velocities.view(), params);
    for (size_t i = 0; i < positions.size(); ++i) {
      for (int axis = 0; axis < 3; ++axis) {
        INFO("particle " << i << " axis " << axis);
        CHECK(std::bit_cast<uint32_t>(state.positions.Get(i)[axis]) ==
              std::bit_cast<uint32_t>(reference_state.positions[i][axis]));
        CHECK(std::bit_cast<uint32_t>(state.velocities.Get(i)[axis]) ==
              std::bit_cast<uint32_t>(reference_state.velocities[i][axis]));
      }
    }
    CHECK(std::signbit(state.positions.Get(0).x));
    CHECK(std::isnan(state.positions.Get(2).x));
    CHECK(state.positions.Get(3).z == 1.0f);  // the z wall still clamps a lane whose y is NaN
  });
}

// The attractor's velocity change a dt in double, from the float inputs the kernel sees.
glm::dvec3 AttractorDeltaV(const AttractorParams& params, const glm::vec3& position) {
  const glm::dvec3 d = glm::dvec3(params.center) - glm::dvec3(position);
  const double softening = params.softening;
  const double r2 = glm::dot(d, d) + softening * softening;
  return double{params.strength} * double{params.dt_seconds} * d / (r2 * std::sqrt(r2));
}

// Particles at rest (w = 5) at the given positions.
Particles AtRest(const std::vector<glm::vec3>& positions) {
  Particles particles(positions.size(), 0.0f, 0);
  for (size_t i = 0; i < positions.size(); ++i) {
    particles.positions.Set(i, glm::vec4(positions[i], 5.0f));
    particles.velocities.Set(i, glm::vec4(0.0f, 0.0f, 0.0f, 5.0f));
  }
  return particles;
}

AttractorParams TestAttractor(float strength) {
  AttractorParams params;
  params.center = {0.25f, -0.5f, 1.0f};
  params.strength = strength;
  params.softening = 0.1f;
  params.dt_seconds = 1.0f / 60.0f;
  return params;
}

TEST_CASE("ApplyAttractor pulls towards the centre with the Plummer magnitude") {
  // From rest, v = a dt. Float error: about a dozen correctly rounded operations (c - p, three
  // squares, three sums, the softening square, sqrt, product, quotient, strength dt, final
  // product) each within u = 2^-24 relative, first-order sum below 16 u; we allow 24 u per
  // component relative to the double value, and the same for the magnitude.
  constexpr double kTolerance = 24 * kUnitRoundoff;
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> coordinate(-3.0f, 3.0f);
  std::vector<glm::vec3> positions(1000);
  for (glm::vec3& p : positions) p = {coordinate(rng), coordinate(rng), coordinate(rng)};
  const AttractorParams params = TestAttractor(2.5f);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Particles state = AtRest(positions);
    ApplyAttractor(state.positions.view(), state.velocities.view(), params);
    size_t wrong_direction = 0, wrong_component = 0, wrong_magnitude = 0;
    for (size_t i = 0; i < positions.size(); ++i) {
      const glm::dvec3 got = glm::dvec3(glm::vec3(state.velocities.Get(i)));
      const glm::dvec3 want = AttractorDeltaV(params, positions[i]);
      const glm::dvec3 to_center = glm::dvec3(params.center) - glm::dvec3(positions[i]);
      // Towards the centre: positive projection, no sideways component beyond rounding.
      const double sideways = glm::length(glm::cross(got, to_center));
      if (!(glm::dot(got, to_center) > 0.0) ||
          sideways > kTolerance * glm::length(got) * glm::length(to_center)) {
        ++wrong_direction;
      }
      for (int axis = 0; axis < 3; ++axis) {
        if (std::abs(got[axis] - want[axis]) > kTolerance * std::abs(want[axis])) {
          ++wrong_component;
        }
      }
      // |a| = strength r / (r^2 + eps^2)^(3/2).
      const double r = glm::length(to_center);
      const double eps = params.softening;
      const double magnitude = double{params.strength} * r / std::pow(r * r + eps * eps, 1.5);
      if (std::abs(glm::length(got) / params.dt_seconds - magnitude) > kTolerance * magnitude) {
        ++wrong_magnitude;
      }
    }
    CHECK(wrong_direction == 0);
    CHECK(wrong_component == 0);
    CHECK(wrong_magnitude == 0);
    CHECK(test::UntouchedReport(state, AtRest(positions), test::kWritesVelocities) == "");
  });
}

TEST_CASE("ApplyAttractor stays finite at and near the centre thanks to softening") {
  // |a| = s r / (r^2 + eps^2)^(3/2) peaks at r = eps / sqrt(2) with s 2 / (3 sqrt(3) eps^2).
  const AttractorParams params = TestAttractor(2.5f);
  const glm::vec3 c = params.center;
  const float peak_offset = params.softening / std::sqrt(2.0f);
  const std::vector<glm::vec3> positions = {c,
                                            c + glm::vec3(1e-7f, 0.0f, 0.0f),
                                            c + glm::vec3(0.0f, 3e-8f, 0.0f),
                                            c + glm::vec3(0.0f, 0.0f, 1e-6f),
                                            c + glm::vec3(peak_offset, 0.0f, 0.0f),
                                            c - glm::vec3(0.0f, peak_offset, 0.0f)};
  const double eps = params.softening;
  const double peak = params.strength * 2.0 / (3.0 * std::sqrt(3.0) * eps * eps);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Particles state = AtRest(positions);
    ApplyAttractor(state.positions.view(), state.velocities.view(), params);
    for (size_t i = 0; i < positions.size(); ++i) {
      INFO("particle " << i);
      const glm::vec3 v = glm::vec3(state.velocities.Get(i));
      CHECK((std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z)));
      CHECK(glm::length(glm::dvec3(v)) / params.dt_seconds <= peak * (1.0 + 24 * kUnitRoundoff));
    }
    // Exactly at the centre the direction is zero, so nothing changes.
    CHECK(glm::vec3(state.velocities.Get(0)) == glm::vec3(0.0f));
  });
}

TEST_CASE("ApplyAttractor with negative strength repels by the mirrored amount") {
  // Negating strength negates strength * dt and every later product exactly (round-to-nearest
  // is symmetric), so the repulsor's velocity change is bitwise the attractor's negated.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> coordinate(-3.0f, 3.0f);
  std::vector<glm::vec3> positions(257);
  for (glm::vec3& p : positions) p = {coordinate(rng), coordinate(rng), coordinate(rng)};
  const AttractorParams attract = TestAttractor(2.5f);
  const AttractorParams repel = TestAttractor(-2.5f);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Particles pulled = AtRest(positions);
    Particles pushed = AtRest(positions);
    ApplyAttractor(pulled.positions.view(), pulled.velocities.view(), attract);
    ApplyAttractor(pushed.positions.view(), pushed.velocities.view(), repel);
    size_t not_away = 0, not_mirrored = 0;
    for (size_t i = 0; i < positions.size(); ++i) {
      const glm::vec3 v = glm::vec3(pushed.velocities.Get(i));
      if (!(glm::dot(glm::dvec3(v), glm::dvec3(repel.center - positions[i])) < 0.0)) ++not_away;
      for (int axis = 0; axis < 3; ++axis) {
        if (!test::SameBits(v[axis], -pulled.velocities.Get(i)[axis])) ++not_mirrored;
      }
    }
    CHECK(not_away == 0);
    CHECK(not_mirrored == 0);
  });
}

}  // namespace
}  // namespace swarm
