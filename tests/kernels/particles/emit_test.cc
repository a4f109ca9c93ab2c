// Tests for the box emitter of kernels/emit.* (EmitParticles, RespawnDead): against the scalar
// reference on every compiled target, the emitter's ranges, and RespawnDead with every flag set
// equal to EmitParticles. Every shape, independence from how a range is split and RespawnDead's
// untouched live particles: emit_shapes_test.cc.
#include "swarm/kernels/particles/emit.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "swarm/kernels/base/random.h"
#include "swarm/kernels/particles/emit_reference.h"
#include "tests/kernels/particles/particle_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::CheckKernelAgainstReference;
using test::EmitInto;
using test::ForEachTarget;
using test::PaddedScalars;
using test::Particles;
using test::ParticlesAos;
using test::TargetUnderTest;

constexpr RandomStream kStream{0x0123456789abcdefull, 42};

EmitterParams TestEmitter() {
  EmitterParams emitter;
  emitter.center = {1.0f, 2.0f, -3.0f};
  emitter.half_extent = {0.5f, 0.25f, 2.0f};
  emitter.velocity = {0.0f, 5.0f, -1.0f};
  emitter.velocity_spread = {1.0f, 0.5f, 3.0f};
  emitter.lifetime_min = 1.0f;
  emitter.lifetime_max = 3.0f;
  return emitter;
}

TEST_CASE("EmitParticles matches reference::Emit on every target") {
  const EmitterParams emitter = TestEmitter();
  for (const uint32_t first_index : {0u, 1000u, 0x1ffffff0u}) {
    // 0x1ffffff0: 8 * index wraps past 2^32 within the large sizes, as reference::Emit's does.
    INFO("first_index " << first_index);
    CheckKernelAgainstReference(
        test::kWritesPositions | test::kWritesVelocities | test::kWritesAges |
            test::kWritesLifetimes,
        [&](Particles& p) {
          EmitParticles(p.positions.view(), p.velocities.view(), p.ages.view(), p.lifetimes.view(),
                        emitter, kStream, first_index);
        },
        [&](ParticlesAos& p) {
          for (size_t i = 0; i < p.positions.size(); ++i) {
            EmitInto(p, i, emitter, kStream, first_index + static_cast<uint32_t>(i));
          }
        });
  }
}

TEST_CASE("EmitParticles stays inside the emitter's ranges") {
  constexpr size_t kCount = 100003;
  const EmitterParams emitter = TestEmitter();
  Particles particles(kCount, 0.0f, 0);
  EmitParticles(particles.positions.view(), particles.velocities.view(), particles.ages.view(),
                particles.lifetimes.view(), emitter, kStream, 0);
  size_t outside = 0;
  for (size_t i = 0; i < kCount; ++i) {
    const glm::vec4 p = particles.positions.Get(i);
    const glm::vec4 v = particles.velocities.Get(i);
    for (int axis = 0; axis < 3; ++axis) {
      // In double the differences are exact; rounding is monotone, so the float results of
      // center + half_extent * s for s in [-1, 1) cannot leave [center - h, center + h].
      outside += std::abs(double{p[axis]} - emitter.center[axis]) > emitter.half_extent[axis];
      outside += std::abs(double{v[axis]} - emitter.velocity[axis]) > emitter.velocity_spread[axis];
    }
    outside += !(particles.lifetimes[i] >= emitter.lifetime_min &&
                 particles.lifetimes[i] <= emitter.lifetime_max);
    outside += particles.ages[i] != 0.0f;
  }
  CHECK(outside == 0);
}

TEST_CASE("RespawnDead matches reference::Emit for dead particles on every target") {
  const EmitterParams emitter = TestEmitter();
  constexpr uint32_t kFirstIndex = 4096;
  CheckKernelAgainstReference(
      test::kWritesPositions | test::kWritesVelocities | test::kWritesAges |
          test::kWritesLifetimes | test::kWritesDead,
      [&](Particles& p) {
        RespawnDead(p.positions.view(), p.velocities.view(), p.ages.view(), p.lifetimes.view(),
                    p.dead.view(), emitter, kStream, kFirstIndex);
      },
      [&](ParticlesAos& p) {
        for (size_t i = 0; i < p.positions.size(); ++i) {
          if (p.dead[i] != 0)
            EmitInto(p, i, emitter, kStream, kFirstIndex + static_cast<uint32_t>(i));
          p.dead[i] = 0;
        }
      });
}

TEST_CASE("RespawnDead with every flag set equals EmitParticles") {
  constexpr size_t kCount = 1000;
  constexpr uint32_t kFirstIndex = 31;
  const EmitterParams emitter = TestEmitter();
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Particles respawned = test::RandomParticles(kCount, 7);
    Particles emitted = respawned;
    std::fill(respawned.dead.data(), respawned.dead.data() + kCount, uint8_t{1});
    RespawnDead(respawned.positions.view(), respawned.velocities.view(), respawned.ages.view(),
                respawned.lifetimes.view(), respawned.dead.view(), emitter, kStream, kFirstIndex);
    EmitParticles(emitted.positions.view(), emitted.velocities.view(), emitted.ages.view(),
                  emitted.lifetimes.view(), emitter, kStream, kFirstIndex);
    std::fill(emitted.dead.data(), emitted.dead.data() + kCount, uint8_t{0});
    CHECK(test::BitwiseEqual(respawned, emitted));
  });
}

}  // namespace
}  // namespace swarm
