// Tests for the emitter shapes of swarm/kernels/particles/emit.h (EmitterShape: box, sphere, ring)
// in EmitParticles and RespawnDead: every shape bitwise equal to reference::Emit on every compiled
// target, the geometry each shape promises (sphere: speed bound, unit directions spread over all
// octants; ring: distance from the axis, tangential velocity), fields a shape does not use left
// unused, independence from how a range is split, and RespawnDead touching dead particles only.
// emit_test.cc covers the box emitter's ranges; random_test.cc the generator.
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <string>

#include "swarm/kernels/base/random.h"
#include "swarm/kernels/base/random_reference.h"
#include "swarm/kernels/particles/emit.h"
#include "swarm/kernels/particles/emit_reference.h"
#include "tests/kernels/particles/particle_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::CheckKernelAgainstReference;
using test::EmitInto;
using test::ForEachTarget;
using test::Particles;
using test::ParticlesAos;
using test::TargetUnderTest;

constexpr RandomStream kStream{0xfedcba9876543210ull, 7};
constexpr EmitterShape kShapes[] = {EmitterShape::kBox, EmitterShape::kSphere, EmitterShape::kRing};

const char* ShapeName(EmitterShape shape) {
  switch (shape) {
    case EmitterShape::kBox:
      return "box";
    case EmitterShape::kSphere:
      return "sphere";
    case EmitterShape::kRing:
      return "ring";
  }
  return "unknown";
}

// Every field non-trivial, so a term taken from the wrong field or draw shows up.
EmitterParams TestEmitter(EmitterShape shape) {
  EmitterParams emitter;
  emitter.shape = shape;
  emitter.center = {1.0f, 2.0f, -3.0f};
  emitter.half_extent = {0.5f, 0.25f, 0.75f};
  emitter.velocity = {0.5f, -1.0f, 2.0f};
  emitter.velocity_spread = {0.2f, 0.3f, 0.4f};
  emitter.lifetime_min = 0.5f;
  emitter.lifetime_max = 2.5f;
  emitter.radius = 3.0f;
  emitter.radial_speed = 4.0f;
  emitter.tangential_speed = 2.0f;
  return emitter;
}

// Number of elements whose emitted x, y, z, lifetime or zero age differ bitwise from
// reference::Emit; only elements with `selected(i)` are compared.
template <class Selected>
size_t BitwiseMismatches(const Particles& got, const EmitterParams& emitter, uint32_t first_index,
                         const Selected& selected) {
  size_t mismatches = 0;
  for (size_t i = 0; i < got.count(); ++i) {
    if (!selected(i)) continue;
    const reference::EmittedParticle want =
        reference::Emit(emitter, kStream, first_index + static_cast<uint32_t>(i));
    const glm::vec4 position = got.positions.Get(i);
    const glm::vec4 velocity = got.velocities.Get(i);
    bool same = test::SameBits(got.lifetimes[i], want.lifetime) && got.ages[i] == 0.0f;
    for (int axis = 0; axis < 3; ++axis) {
      same = same && test::SameBits(position[axis], want.position[axis]) &&
             test::SameBits(velocity[axis], want.velocity[axis]);
    }
    mismatches += !same;
  }
  return mismatches;
}

TEST_CASE("EmitParticles matches reference::Emit bitwise for every shape on every target") {
  for (const EmitterShape shape : kShapes) {
    const EmitterParams emitter = TestEmitter(shape);
    for (const uint32_t first_index : {0u, 1000u, 0x1ffffff0u}) {
      // 0x1ffffff0: 8 * index wraps past 2^32 within the large sizes, as reference::Emit's does.
      INFO("shape " << ShapeName(shape) << ", first_index " << first_index);
      CheckKernelAgainstReference(
          test::kWritesPositions | test::kWritesVelocities | test::kWritesAges |
              test::kWritesLifetimes,
          [&](Particles& p) {
            EmitParticles(p.positions.view(), p.velocities.view(), p.ages.view(),
                          p.lifetimes.view(), emitter, kStream, first_index);
            CHECK(BitwiseMismatches(p, emitter, first_index, [](size_t) { return true; }) == 0);
          },
          [&](ParticlesAos& p) {
            for (size_t i = 0; i < p.positions.size(); ++i) {
              EmitInto(p, i, emitter, kStream, first_index + static_cast<uint32_t>(i));
            }
          });
    }
  }
}

TEST_CASE("RespawnDead matches reference::Emit bitwise for every shape on every target") {
  constexpr uint32_t kFirstIndex = 4096;
  for (const EmitterShape shape : kShapes) {
    INFO("shape " << ShapeName(shape));
    const EmitterParams emitter = TestEmitter(shape);
    CheckKernelAgainstReference(
        test::kWritesPositions | test::kWritesVelocities | test::kWritesAges |
            test::kWritesLifetimes | test::kWritesDead,
        [&](Particles& p) {
          const Particles input = p;
          RespawnDead(p.positions.view(), p.velocities.view(), p.ages.view(), p.lifetimes.view(),
                      p.dead.view(), emitter, kStream, kFirstIndex);
          CHECK(BitwiseMismatches(p, emitter, kFirstIndex,
                                  [&](size_t i) { return input.dead[i] != 0; }) == 0);
        },
        [&](ParticlesAos& p) {
          for (size_t i = 0; i < p.positions.size(); ++i) {
            if (p.dead[i] != 0)
              EmitInto(p, i, emitter, kStream, kFirstIndex + static_cast<uint32_t>(i));
            p.dead[i] = 0;
          }
        });
  }
}

TEST_CASE("RespawnDead with any shape leaves live particles bitwise untouched and clears flags") {
  for (const EmitterShape shape :
       {EmitterShape::kBox, EmitterShape::kSphere, EmitterShape::kRing}) {
    const EmitterParams emitter = TestEmitter(shape);
    for (const size_t count : test::kSizes) {
      INFO("shape " << ShapeName(shape) << ", count " << count);
      const Particles input = test::RandomParticles(count, static_cast<uint32_t>(count) + 5u);
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("target " << target.name);
        Particles got = input;
        RespawnDead(got.positions.view(), got.velocities.view(), got.ages.view(),
                    got.lifetimes.view(), got.dead.view(), emitter, kStream, 0);
        size_t live_changed = 0, dead_not_respawned = 0, flags_left = 0;
        for (size_t i = 0; i < count; ++i) {
          const bool dead = input.dead[i] != 0;
          const bool same = test::SameBits(got.ages[i], input.ages[i]) &&
                            test::SameBits(got.lifetimes[i], input.lifetimes[i]) &&
                            test::SameBits(got.positions.Get(i), input.positions.Get(i)) &&
                            test::SameBits(got.velocities.Get(i), input.velocities.Get(i));
          live_changed += !dead && !same;
          dead_not_respawned += dead && got.ages[i] != 0.0f;
          flags_left += got.dead[i] != 0;
        }
        CHECK(live_changed == 0);
        CHECK(dead_not_respawned == 0);
        CHECK(flags_left == 0);
      });
    }
  }
}

TEST_CASE("Every shape depends only on the particle index, not on the split") {
  constexpr size_t kCount = 1000;
  constexpr uint32_t kFirstIndex = 77;
  for (const EmitterShape shape :
       {EmitterShape::kBox, EmitterShape::kSphere, EmitterShape::kRing}) {
    INFO("shape " << ShapeName(shape));
    const EmitterParams emitter = TestEmitter(shape);
    const auto emit = [&](Particles& p, size_t begin, size_t n) {
      EmitParticles(p.positions.view().Slice(begin, n), p.velocities.view().Slice(begin, n),
                    p.ages.view().Slice(begin, n), p.lifetimes.view().Slice(begin, n), emitter,
                    kStream, kFirstIndex + static_cast<uint32_t>(begin));
    };
    ForEachTarget([&](const TargetUnderTest& target) {
      INFO("target " << target.name);
      Particles whole(kCount, 0.0f, 0);
      emit(whole, 0, kCount);
      // Splits on vector boundaries (kPadFloats: 16 on x86, 64 on aarch64).
      constexpr size_t kPad = kPadFloats;
      for (const size_t split : {kPad, 3 * kPad, kCount / 2 / kPad * kPad, kCount / kPad * kPad}) {
        INFO("split at " << split);
        Particles pieces(kCount, 0.0f, 0);
        emit(pieces, split, kCount - split);
        emit(pieces, 0, split);
        CHECK(test::BitwiseEqual(pieces, whole));
      }
    });
  }
}

Particles Emitted(const EmitterParams& emitter, size_t count) {
  Particles particles(count, 0.0f, 0);
  EmitParticles(particles.positions.view(), particles.velocities.view(), particles.ages.view(),
                particles.lifetimes.view(), emitter, kStream, 0);
  return particles;
}

TEST_CASE("Each shape ignores the fields it does not use") {
  constexpr size_t kCount = 1000;
  for (const EmitterShape shape : kShapes) {
    INFO("shape " << ShapeName(shape));
    const EmitterParams emitter = TestEmitter(shape);
    EmitterParams changed = emitter;
    if (shape != EmitterShape::kRing) {
      changed.radius = 17.0f;
      changed.tangential_speed = -5.0f;
    }
    if (shape != EmitterShape::kSphere) changed.radial_speed = 9.0f;
    if (shape == EmitterShape::kSphere) changed.velocity_spread = {7.0f, 8.0f, 9.0f};
    if (shape == EmitterShape::kRing) changed.half_extent.z = 11.0f;
    CHECK(test::BitwiseEqual(Emitted(emitter, kCount), Emitted(changed, kCount)));
  }
}

constexpr size_t kStatisticsCount = 100003;

TEST_CASE("Sphere bursts: speeds up to radial_speed along unit directions in every octant") {
  const EmitterParams emitter = TestEmitter(EmitterShape::kSphere);
  const Particles particles = Emitted(emitter, kStatisticsCount);
  std::array<size_t, 8> octant_counts{};
  size_t too_fast = 0, not_unit = 0, outside_box = 0;
  double sum_squares[3] = {0.0, 0.0, 0.0};
  double sum_speed = 0.0;
  for (size_t i = 0; i < kStatisticsCount; ++i) {
    const glm::vec4 p = particles.positions.Get(i);
    const glm::vec4 v = particles.velocities.Get(i);
    double relative[3];
    for (int axis = 0; axis < 3; ++axis) {
      relative[axis] = double{v[axis]} - emitter.velocity[axis];
      outside_box += std::abs(double{p[axis]} - emitter.center[axis]) > emitter.half_extent[axis];
    }
    const double speed = std::sqrt(relative[0] * relative[0] + relative[1] * relative[1] +
                                   relative[2] * relative[2]);
    // v = velocity + dir * s with s = radial_speed * u5 < radial_speed: |dir| is 1 to a few
    // float ulps (sin, cos within 7.7e-8, sqrt correctly rounded) and each of the 2-3 roundings
    // of v's components adds at most half an ulp of |v| < 8, i.e. 2.4e-7.
    const double drawn_speed = double{emitter.radial_speed} *
                               reference::Uniform(kStream, 8 * static_cast<uint32_t>(i) + 5);
    too_fast += speed > emitter.radial_speed + 2e-6;
    not_unit += std::abs(speed - drawn_speed) > 2e-6;
    if (speed > 0.5) {
      octant_counts[(relative[0] > 0) + 2 * (relative[1] > 0) + 4 * (relative[2] > 0)]++;
      for (int axis = 0; axis < 3; ++axis) {
        sum_squares[axis] += relative[axis] * relative[axis] / (speed * speed);
      }
    }
    sum_speed += speed;
  }
  CHECK(too_fast == 0);
  CHECK(not_unit == 0);
  CHECK(outside_box == 0);
  // About 7/8 of the particles have speed > 0.5 = radial_speed / 8; a uniform direction puts
  // 1/8 of them in each octant (binomial sigma ~100 of ~10,900: 10% is over 10 sigma).
  size_t counted = 0;
  for (const size_t count : octant_counts) counted += count;
  for (size_t octant = 0; octant < 8; ++octant) {
    INFO("octant " << octant);
    CHECK(std::abs(static_cast<double>(octant_counts[octant]) - counted / 8.0) < counted / 80.0);
  }
  // Uniform on the sphere: E[d_axis^2] = 1/3 for each axis (standard error ~0.001).
  for (int axis = 0; axis < 3; ++axis) {
    INFO("axis " << axis);
    CHECK(sum_squares[axis] / static_cast<double>(counted) == Approx(1.0 / 3.0).margin(0.01));
  }
  // Speed uniform in [0, radial_speed): mean radial_speed / 2 (standard error ~0.004).
  CHECK(sum_speed / kStatisticsCount == Approx(emitter.radial_speed / 2.0).margin(0.03));
}

TEST_CASE("Ring emitters: positions around the axis, velocity along the ring") {
  for (const float tangential_speed : {2.0f, -1.5f}) {
    INFO("tangential_speed " << tangential_speed);
    EmitterParams emitter = TestEmitter(EmitterShape::kRing);
    emitter.tangential_speed = tangential_speed;
    const Particles particles = Emitted(emitter, kStatisticsCount);
    std::array<size_t, 4> quadrant_counts{};
    size_t off_ring = 0, off_height = 0, off_tangent = 0, off_radial = 0;
    for (size_t i = 0; i < kStatisticsCount; ++i) {
      const glm::vec4 p = particles.positions.Get(i);
      const glm::vec4 v = particles.velocities.Get(i);
      const double dx = double{p.x} - emitter.center.x;
      const double dz = double{p.z} - emitter.center.z;
      const double distance = std::sqrt(dx * dx + dz * dz);
      // radius + half_extent.x * s rounds once, then cos, sin (within 7.7e-8) scale it and the
      // centre is added (half an ulp of |p| < 8 each): 1e-5 covers it with room.
      off_ring += distance < emitter.radius - emitter.half_extent.x - 1e-5 ||
                  distance > emitter.radius + emitter.half_extent.x + 1e-5;
      off_height += std::abs(double{p.y} - emitter.center.y) > emitter.half_extent.y;
      quadrant_counts[(dx > 0) + 2 * (dz > 0)]++;
      // Unit tangent (-sin theta, 0, cos theta) and radial (cos theta, 0, sin theta) from the
      // position (radius > half_extent.x, so the distance is positive).
      const double tangent[3] = {-dz / distance, 0.0, dx / distance};
      const double radial[3] = {dx / distance, 0.0, dz / distance};
      double along_tangent = 0.0, along_radial = 0.0, spread_tangent = 0.0, spread_radial = 0.0;
      for (int axis = 0; axis < 3; ++axis) {
        const double relative = double{v[axis]} - emitter.velocity[axis];
        along_tangent += relative * tangent[axis];
        along_radial += relative * radial[axis];
        spread_tangent += emitter.velocity_spread[axis] * std::abs(tangent[axis]);
        spread_radial += emitter.velocity_spread[axis] * std::abs(radial[axis]);
      }
      // The box spread adds at most velocity_spread * |unit vector| per axis on top of the swirl.
      off_tangent += std::abs(along_tangent - tangential_speed) > spread_tangent + 1e-5;
      off_radial += std::abs(along_radial) > spread_radial + 1e-5;
    }
    CHECK(off_ring == 0);
    CHECK(off_height == 0);
    CHECK(off_tangent == 0);
    CHECK(off_radial == 0);
    // theta = 2 pi u0 is uniform: a quarter of the ring per quadrant (sigma ~140 of ~25,000).
    for (size_t quadrant = 0; quadrant < 4; ++quadrant) {
      INFO("quadrant " << quadrant);
      CHECK(std::abs(static_cast<double>(quadrant_counts[quadrant]) - kStatisticsCount / 4.0) <
            kStatisticsCount / 40.0);
    }
  }
}

TEST_CASE("A ring without spread moves along its tangent at tangential_speed") {
  EmitterParams emitter = TestEmitter(EmitterShape::kRing);
  emitter.velocity = {0.0f, 0.0f, 0.0f};
  emitter.velocity_spread = {0.0f, 0.0f, 0.0f};
  emitter.half_extent = {0.0f, 0.0f, 0.0f};
  emitter.center = {0.0f, 0.0f, 0.0f};
  const Particles particles = Emitted(emitter, 1000);
  size_t wrong = 0;
  for (size_t i = 0; i < 1000; ++i) {
    const glm::vec4 p = particles.positions.Get(i);
    const glm::vec4 v = particles.velocities.Get(i);
    // p = radius (cos, 0, sin) and v = tangential_speed (-sin, 0, cos): v is p turned by 90
    // degrees from +x towards +z and scaled by tangential_speed / radius.
    const double scale = double{emitter.tangential_speed} / emitter.radius;
    wrong += std::abs(v.x - (-p.z * scale)) > 1e-6 || std::abs(v.z - p.x * scale) > 1e-6;
    wrong += p.y != 0.0f || v.y != 0.0f;
  }
  CHECK(wrong == 0);
}

}  // namespace
}  // namespace swarm
