// Tests for swarm/particles/particle_ops.h and swarm/particles/particle_params.h: the checked
// entry points compute what the scalar references compute, and every kind of bad input (mismatched
// sizes, bad dt, bad parameters) returns kInvalidArgument with a message naming the problem while
// every buffer, including the ones that would have been written, keeps its bits.
#include "swarm/particles/particle_ops.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <glm/vec4.hpp>
#include <limits>
#include <string>
#include <vector>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/state_hash.h"
#include "swarm/kernels/particles/emit.h"
#include "swarm/kernels/particles/integrate_reference.h"
#include "swarm/particles/particle_params.h"

namespace swarm {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Reproducible values in [-4, 4) for element i, lane `lane` of buffer `which`.
float Value(size_t i, int lane, int which) {
  uint32_t x =
      static_cast<uint32_t>(i * 16 + static_cast<size_t>(lane) * 4 + static_cast<size_t>(which)) *
      2654435761u;
  x ^= x >> 15;
  return static_cast<float>(x % 8192u) / 1024.0f - 4.0f;
}

std::vector<glm::vec4> Values(size_t count, int which) {
  std::vector<glm::vec4> out(count);
  for (size_t i = 0; i < count; ++i) {
    for (int lane = 0; lane < 4; ++lane) out[i][lane] = Value(i, lane, which);
  }
  return out;
}

struct Particles {
  Vec4Buffer positions;
  Vec4Buffer velocities;
  Vec4Buffer accelerations;
  FloatArray ages;
  FloatArray lifetimes;
  ByteArray dead;

  Particles(MemoryAccountant& memory, size_t count, size_t velocity_count)
      : positions(Vec4Buffer::Create(memory, count).value()),
        velocities(Vec4Buffer::Create(memory, velocity_count).value()),
        accelerations(Vec4Buffer::Create(memory, count).value()),
        ages(FloatArray::Create(memory, count).value()),
        lifetimes(FloatArray::Create(memory, count).value()),
        dead(ByteArray::Create(memory, count).value()) {
    REQUIRE(positions.CopyFrom(Values(count, 0)).ok());
    REQUIRE(velocities.CopyFrom(Values(velocity_count, 1)).ok());
    REQUIRE(accelerations.CopyFrom(Values(count, 2)).ok());
    for (size_t i = 0; i < count; ++i) {
      ages[i] = std::abs(Value(i, 0, 3));
      lifetimes[i] = std::abs(Value(i, 1, 3));
      dead[i] = static_cast<uint8_t>(i % 3 == 0 ? 7 : 0);  // garbage the op must not clear
    }
  }

  uint64_t Hash() const {
    return StateHasher()
        .Add(positions.view())
        .Add(velocities.view())
        .Add(accelerations.view())
        .Add(ages.view())
        .Add(lifetimes.view())
        .Add(dead.view())
        .Digest();
  }
};

std::vector<glm::vec4> ToAos(const Vec4Buffer& buffer) {
  std::vector<glm::vec4> out(buffer.size());
  REQUIRE(buffer.CopyTo(out).ok());
  return out;
}

bool SameBits(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0;
}

// Runs `op` on particles and expects the error `expected` (a substring) with nothing changed.
template <class Op>
void ExpectRejected(Particles& particles, const Op& op, const std::string& expected) {
  const uint64_t before = particles.Hash();
  const Status status = op(particles);
  INFO("message: " << status.message());
  CHECK(status.code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(status.message(), Catch::Contains(expected));
  CHECK(particles.Hash() == before);
}

TEST_CASE("Checked entry points compute what the scalar references compute") {
  MemoryAccountant memory;
  const size_t n = 37;
  Particles p(memory, n, n);
  std::vector<glm::vec4> pos = Values(n, 0);
  std::vector<glm::vec4> vel = Values(n, 1);
  const std::vector<glm::vec4> acc = Values(n, 2);

  const EulerParams euler{{0.5f, -9.81f, 0.25f}, 0.3f, 1.0f / 60.0f};
  REQUIRE(IntegrateEuler(p.positions, p.velocities, euler).ok());
  reference::IntegrateEuler(pos, vel, euler);
  CHECK(SameBits(ToAos(p.positions), pos));
  CHECK(SameBits(ToAos(p.velocities), vel));

  const AttractorParams attractor{{1.0f, 2.0f, 3.0f}, 5.0f, 0.25f, 0.02f};
  REQUIRE(ApplyAttractor(p.positions, p.velocities, attractor).ok());
  reference::ApplyAttractor(pos, vel, attractor);
  CHECK(SameBits(ToAos(p.velocities), vel));

  REQUIRE(VerletKickDrift(p.positions, p.velocities, p.accelerations, 0.01f).ok());
  reference::VerletKickDrift(pos, vel, acc, 0.01f);
  REQUIRE(VerletKick(p.velocities, p.accelerations, 0.01f).ok());
  reference::VerletKick(vel, acc, 0.01f);
  CHECK(SameBits(ToAos(p.positions), pos));
  CHECK(SameBits(ToAos(p.velocities), vel));

  const BoxParams box{{-1.0f, -2.0f, -1.5f}, {1.0f, 2.0f, 1.5f}, 0.75f, 0.2f};
  REQUIRE(CollideBox(p.positions, p.velocities, box).ok());
  reference::CollideBox(pos, vel, box);
  CHECK(SameBits(ToAos(p.positions), pos));
  CHECK(SameBits(ToAos(p.velocities), vel));

  std::vector<float> ages(p.ages.span().begin(), p.ages.span().end());
  const std::vector<float> lifetimes(p.lifetimes.span().begin(), p.lifetimes.span().end());
  std::vector<uint8_t> dead(n, 0);
  REQUIRE(AdvanceAge(p.ages, p.lifetimes, p.dead, 0.5f).ok());
  reference::AdvanceAge(ages, lifetimes, dead, 0.5f);
  CHECK(std::memcmp(p.ages.span().data(), ages.data(), n * sizeof(float)) == 0);
  CHECK(std::memcmp(p.dead.span().data(), dead.data(), n) == 0);
}

TEST_CASE("Mismatched sizes are rejected with both sizes named and nothing written") {
  MemoryAccountant memory;
  Particles p(memory, 17, 16);  // velocities one short
  ExpectRejected(
      p, [](Particles& q) { return IntegrateEuler(q.positions, q.velocities, EulerParams{}); },
      "IntegrateEuler: positions, velocities must have the same size, got 17, 16");
  ExpectRejected(
      p,
      [](Particles& q) {
        return VerletKickDrift(q.positions, q.velocities, q.accelerations, 0.01f);
      },
      "VerletKickDrift: positions, velocities, accelerations must have the same size, got 17, 16, "
      "17");
  ExpectRejected(
      p, [](Particles& q) { return VerletKick(q.velocities, q.accelerations, 0.01f); },
      "VerletKick: velocities, accelerations must have the same size, got 16, 17");
  ExpectRejected(
      p, [](Particles& q) { return CollideBox(q.positions, q.velocities, BoxParams{}); },
      "CollideBox: positions, velocities must have the same size, got 17, 16");
  ExpectRejected(
      p, [](Particles& q) { return ApplyAttractor(q.positions, q.velocities, AttractorParams{}); },
      "ApplyAttractor: positions, velocities must have the same size, got 17, 16");

  REQUIRE(p.dead.Resize(18).ok());
  ExpectRejected(
      p, [](Particles& q) { return AdvanceAge(q.ages, q.lifetimes, q.dead, 0.01f); },
      "AdvanceAge: ages, lifetimes, dead must have the same size, got 17, 17, 18");
}

TEST_CASE("Bad dt (0, negative, NaN, infinite) is rejected by every op that takes one") {
  MemoryAccountant memory;
  Particles p(memory, 33, 33);
  const std::pair<float, const char*> bad_dts[] = {
      {0.0f, "got 0"},   {-0.0f, "got -0"}, {-1.0f / 60.0f, "got -0.016666668"},
      {kNaN, "got nan"}, {kInf, "got inf"}, {-kInf, "got -inf"}};
  for (const auto& [dt, shown] : bad_dts) {
    INFO("dt " << dt);
    const std::string expected = std::string("dt_seconds must be finite and > 0, ") + shown;
    ExpectRejected(
        p,
        [dt = dt](Particles& q) {
          return IntegrateEuler(q.positions, q.velocities, EulerParams{{0, -9.81f, 0}, 0.1f, dt});
        },
        expected);
    ExpectRejected(
        p,
        [dt = dt](Particles& q) {
          return VerletKickDrift(q.positions, q.velocities, q.accelerations, dt);
        },
        expected);
    ExpectRejected(
        p, [dt = dt](Particles& q) { return VerletKick(q.velocities, q.accelerations, dt); },
        expected);
    ExpectRejected(
        p,
        [dt = dt](Particles& q) {
          return ApplyAttractor(q.positions, q.velocities,
                                AttractorParams{{0, 0, 0}, 1.0f, 0.1f, dt});
        },
        expected);
    ExpectRejected(
        p, [dt = dt](Particles& q) { return AdvanceAge(q.ages, q.lifetimes, q.dead, dt); },
        expected);
  }
  // The smallest positive float is a valid (if useless) step.
  CHECK(ValidateDt(std::numeric_limits<float>::denorm_min()).ok());
}

TEST_CASE("Bad integration parameters are rejected with the parameter named") {
  MemoryAccountant memory;
  Particles p(memory, 40, 40);
  const auto euler = [](EulerParams params) {
    return [params](Particles& q) { return IntegrateEuler(q.positions, q.velocities, params); };
  };
  ExpectRejected(p, euler({{0.0f, kNaN, 0.0f}, 0.1f, 0.01f}),
                 "gravity must be finite, got (0, nan, 0)");
  ExpectRejected(p, euler({{kInf, 0.0f, 0.0f}, 0.1f, 0.01f}), "gravity must be finite");
  ExpectRejected(p, euler({{0.0f, -9.81f, 0.0f}, -0.5f, 0.01f}),
                 "drag_per_second must be finite and >= 0, got -0.5");
  ExpectRejected(p, euler({{0.0f, -9.81f, 0.0f}, kNaN, 0.01f}), "drag_per_second");

  const auto box = [](BoxParams params) {
    return [params](Particles& q) { return CollideBox(q.positions, q.velocities, params); };
  };
  ExpectRejected(p, box({{-1.0f, 3.0f, -1.0f}, {1.0f, 1.0f, 1.0f}, 0.5f, 0.1f}),
                 "box min must not exceed box max on axis y: 3 > 1");
  ExpectRejected(p, box({{-1.0f, -1.0f, 2.0f}, {1.0f, 1.0f, -2.0f}, 0.5f, 0.1f}), "axis z: 2 > -2");
  ExpectRejected(p, box({{-1.0f, -1.0f, -1.0f}, {1.0f, 1.0f, 1.0f}, 1.5f, 0.1f}),
                 "restitution must be in [0, 1], got 1.5");
  ExpectRejected(p, box({{-1.0f, -1.0f, -1.0f}, {1.0f, 1.0f, 1.0f}, -0.1f, 0.1f}), "restitution");
  ExpectRejected(p, box({{-1.0f, -1.0f, -1.0f}, {1.0f, 1.0f, 1.0f}, kNaN, 0.1f}), "restitution");
  ExpectRejected(p, box({{-1.0f, -1.0f, -1.0f}, {1.0f, 1.0f, 1.0f}, 0.5f, 2.0f}),
                 "friction must be in [0, 1], got 2");
  ExpectRejected(p, box({{kNaN, -1.0f, -1.0f}, {1.0f, 1.0f, 1.0f}, 0.5f, 0.1f}),
                 "box min must be finite");
  ExpectRejected(p, box({{-1.0f, -1.0f, -1.0f}, {1.0f, kInf, 1.0f}, 0.5f, 0.1f}),
                 "box max must be finite");
  // A flat box (min == max on an axis) is legal.
  CHECK(ValidateBox({{-1.0f, 0.0f, -1.0f}, {1.0f, 0.0f, 1.0f}, 1.0f, 0.0f}).ok());

  const auto attractor = [](AttractorParams params) {
    return [params](Particles& q) { return ApplyAttractor(q.positions, q.velocities, params); };
  };
  ExpectRejected(p, attractor({{0, 0, 0}, 1.0f, 0.0f, 0.01f}),
                 "attractor softening must be finite and > 0, got 0");
  ExpectRejected(p, attractor({{0, 0, 0}, 1.0f, -0.5f, 0.01f}),
                 "attractor softening must be finite and > 0, got -0.5");
  ExpectRejected(p, attractor({{0, 0, 0}, 1.0f, kNaN, 0.01f}), "attractor softening");
  ExpectRejected(p, attractor({{0, 0, 0}, kInf, 0.1f, 0.01f}),
                 "attractor strength must be finite, got inf");
  ExpectRejected(p, attractor({{0, kNaN, 0}, 1.0f, 0.1f, 0.01f}),
                 "attractor center must be finite");
}

TEST_CASE("Bad emitter parameters are rejected with the parameter named") {
  const auto expect = [](EmitterParams params, const char* expected) {
    const Status status = ValidateEmitter(params);
    CHECK(status.code() == ErrorCode::kInvalidArgument);
    CHECK_THAT(status.message(), Catch::Contains(expected));
  };
  CHECK(ValidateEmitter(EmitterParams{}).ok());
  EmitterParams e;
  e.lifetime_min = 0.0f;
  expect(e, "emitter lifetime_min must be finite and > 0, got 0");
  e = {};
  e.lifetime_max = 0.5f;  // below lifetime_min = 1
  expect(e, "emitter lifetime_max must be finite and >= lifetime_min, got 0.5");
  e = {};
  e.velocity.x = kNaN;
  expect(e, "emitter velocity must be finite");
  e = {};
  e.half_extent.z = kInf;
  expect(e, "emitter half_extent must be finite");
}

TEST_CASE("Bad emitter shape parameters are rejected with the field named") {
  const auto expect = [](EmitterParams params, const char* expected) {
    const Status status = ValidateEmitter(params);
    CHECK(status.code() == ErrorCode::kInvalidArgument);
    CHECK_THAT(status.message(), Catch::Contains(expected));
  };
  for (const EmitterShape shape :
       {EmitterShape::kBox, EmitterShape::kSphere, EmitterShape::kRing}) {
    EmitterParams e;
    e.shape = shape;
    CHECK(ValidateEmitter(e).ok());
    // Zero radius and radial speed are legal (a disc of radius half_extent.x, a still cloud),
    // and so is a negative tangential speed (turning the other way).
    e.radius = 0.0f;
    e.radial_speed = 0.0f;
    e.tangential_speed = -3.0f;
    CHECK(ValidateEmitter(e).ok());
  }
  EmitterParams e;
  e.shape = static_cast<EmitterShape>(3);
  expect(e, "emitter shape must be box (0), sphere (1) or ring (2), got 3");
  e.shape = static_cast<EmitterShape>(255);
  expect(e, "emitter shape must be box (0), sphere (1) or ring (2), got 255");
  // Every shape's fields are checked whatever the shape in use.
  for (const EmitterShape shape :
       {EmitterShape::kBox, EmitterShape::kSphere, EmitterShape::kRing}) {
    INFO("shape " << static_cast<int>(shape));
    e = {};
    e.shape = shape;
    e.radius = -0.5f;
    expect(e, "emitter radius must be finite and >= 0, got -0.5");
    e.radius = kNaN;
    expect(e, "emitter radius must be finite and >= 0, got nan");
    e.radius = kInf;
    expect(e, "emitter radius must be finite and >= 0, got inf");
    e = {};
    e.shape = shape;
    e.radial_speed = -2.0f;
    expect(e, "emitter radial_speed must be finite and >= 0, got -2");
    e.radial_speed = kNaN;
    expect(e, "emitter radial_speed must be finite and >= 0, got nan");
    e = {};
    e.shape = shape;
    e.tangential_speed = -kInf;
    expect(e, "emitter tangential_speed must be finite, got -inf");
    e.tangential_speed = kNaN;
    expect(e, "emitter tangential_speed must be finite, got nan");
  }
}

}  // namespace
}  // namespace swarm
