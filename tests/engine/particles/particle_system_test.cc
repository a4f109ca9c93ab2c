// Tests for swarm/particles/particle_system.h: the fused step is deterministic across SIMD targets
// and thread counts, agrees with an independent scalar re-implementation of the step (AoS
// glm::vec4, swarm/kernels/particles/integrate_reference.h), and its boundaries (dt, config,
// budget, resize) refuse bad requests without changing the state.
#include "swarm/particles/particle_system.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <glm/vec4.hpp>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/state_hash.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/base/targets.h"
#include "swarm/kernels/particles/emit_reference.h"
#include "swarm/kernels/particles/integrate_reference.h"
#include "tests/support/for_each_target.h"
#include "tests/support/golden.h"
#include "tests/support/padding.h"

namespace swarm {
namespace {

constexpr float kDt = 1.0f / 60.0f;

// The demo's scene with the attractor on and short lives, so that within a few dozen steps
// particles die and respawn (the respawn path draws from a fresh random stream every step).
ParticleConfig ShortLivedConfig(size_t tile_elements = 1024) {
  ParticleConfig config;
  config.attractor_enabled = true;
  config.attractor.center = {0.0f, 10.0f, 0.0f};
  config.attractor.strength = 50.0f;
  config.attractor.softening = 0.5f;
  config.emitter.center = {0.0f, 1.0f, 0.0f};
  config.emitter.velocity = {0.0f, 12.0f, 0.0f};
  config.emitter.velocity_spread = {3.0f, 2.0f, 3.0f};
  config.emitter.lifetime_min = 0.2f;
  config.emitter.lifetime_max = 0.6f;
  config.seed = 12345;
  config.schedule.tile_elements = tile_elements;
  config.schedule.min_elements_per_thread = 0;  // small test systems still use every thread
  return config;
}

uint64_t RunAndHash(size_t count, size_t steps, size_t threads, const ParticleConfig& config) {
  MemoryAccountant memory;
  Result<ParticleSystem> system = ParticleSystem::Create(memory, count, config);
  REQUIRE(system.ok());
  ThreadPool pool(threads);
  for (size_t step = 0; step < steps; ++step) REQUIRE(system->Step(kDt, pool).ok());
  REQUIRE(system->steps_taken() == steps);
  // Every particle is younger than its lifetime: the dead were respawned (lifetimes are at most
  // 0.6 s and the run is far longer).
  size_t expired = 0;
  for (size_t i = 0; i < count; ++i) expired += system->ages()[i] >= system->lifetimes()[i];
  CHECK(expired == 0);
  return system->StateHash();
}

TEST_CASE("1000 steps give the golden state hash on every SIMD target and thread count") {
  const size_t count = 5003;  // five tiles of 1024, the last one short
  const ParticleConfig config = ShortLivedConfig();
  MemoryAccountant memory;
  const uint64_t initial = ParticleSystem::Create(memory, count, config)->StateHash();

  std::vector<uint64_t> hashes;
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    REQUIRE(ActiveKernelTarget() == target.bits);
    for (size_t threads : {size_t{1}, size_t{2}}) {
      INFO("target " << target.name << ", " << threads << " threads");
      hashes.push_back(RunAndHash(count, 1000, threads, config));
      CHECK(hashes.back() == hashes.front());
    }
  });
  REQUIRE(hashes.size() >= 2);
  CHECK(hashes.front() != initial);
  test::CheckGolden("particles.short_lived.5003_particles.1000_steps", hashes.front());
}

TEST_CASE("The state hash does not depend on the tile size") {
  const uint64_t expected = RunAndHash(3001, 100, 1, ShortLivedConfig(4096));
  for (size_t tile : {test::PaddedBytes(1), 3 * test::PaddedBytes(1), size_t{1024}, size_t{8192}}) {
    INFO("tile " << tile);
    CHECK(RunAndHash(3001, 100, 2, ShortLivedConfig(tile)) == expected);
  }
}

// An independent scalar version of ParticleSystem on AoS arrays, built from the reference kernels
// and following particle_system.cc's stream numbering: stream 0 emits particle i at creation,
// and step k (0-based) respawns dead particle i from stream k + 1.
struct ReferenceSystem {
  std::vector<glm::vec4> positions;
  std::vector<glm::vec4> velocities;
  std::vector<float> ages;
  std::vector<float> lifetimes;
  std::vector<uint8_t> dead;
  uint32_t steps = 0;
  size_t respawns = 0;

  ReferenceSystem(size_t count, const ParticleConfig& config)
      : positions(count), velocities(count), ages(count, 0.0f), lifetimes(count), dead(count, 0) {
    for (uint32_t i = 0; i < count; ++i) {
      const reference::EmittedParticle e = reference::Emit(config.emitter, {config.seed, 0}, i);
      positions[i] = e.position;
      velocities[i] = e.velocity;
      lifetimes[i] = e.lifetime;
    }
  }

  void Step(const ParticleConfig& config, float dt) {
    if (config.attractor_enabled) {
      AttractorParams attractor = config.attractor;
      attractor.dt_seconds = dt;
      reference::ApplyAttractor(positions, velocities, attractor);
    }
    reference::IntegrateEuler(positions, velocities,
                              EulerParams{config.gravity, config.drag_per_second, dt});
    reference::CollideBox(positions, velocities, config.box);
    reference::AdvanceAge(ages, lifetimes, dead, dt);
    for (uint32_t i = 0; i < positions.size(); ++i) {
      if (dead[i] == 0) continue;
      const reference::EmittedParticle e =
          reference::Emit(config.emitter, {config.seed, steps + 1}, i);
      // The respawn writes x, y, z; lane w belongs to the caller and is kept.
      positions[i] = glm::vec4(glm::vec3(e.position), positions[i].w);
      velocities[i] = glm::vec4(glm::vec3(e.velocity), velocities[i].w);
      ages[i] = 0.0f;
      lifetimes[i] = e.lifetime;
      dead[i] = 0;
      ++respawns;
    }
    ++steps;
  }
};

// |a - b| <= kAbsolute + kRelative * |b| per component. The two computations perform the same
// IEEE operations in the same order, so they should agree to the bit (checked separately); the
// tolerance keeps a reordering visible as a small difference instead of only a hash mismatch.
constexpr float kAbsolute = 1e-5f;
constexpr float kRelative = 1e-5f;

TEST_CASE("ParticleSystem matches a scalar AoS re-implementation of the step on every target") {
  const size_t count = 37;
  const size_t steps = 200;
  ParticleConfig config = ShortLivedConfig();
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    for (size_t threads : {size_t{1}, size_t{2}}) {
      INFO("target " << target.name << ", " << threads << " threads");
      config.schedule.tile_elements = test::PaddedBytes(1);  // the smallest tile
      MemoryAccountant memory;
      Result<ParticleSystem> system = ParticleSystem::Create(memory, count, config);
      REQUIRE(system.ok());
      ReferenceSystem reference(count, config);
      ThreadPool pool(threads);
      for (size_t step = 0; step < steps; ++step) {
        REQUIRE(system->Step(kDt, pool).ok());
        reference.Step(config, kDt);
      }
      REQUIRE(reference.respawns > count);  // every particle lived several lives

      std::vector<glm::vec4> positions(count);
      std::vector<glm::vec4> velocities(count);
      REQUIRE(system->positions().CopyTo(positions).ok());
      REQUIRE(system->velocities().CopyTo(velocities).ok());
      size_t outside_tolerance = 0;
      size_t bitwise_differences = 0;
      for (size_t i = 0; i < count; ++i) {
        for (int axis = 0; axis < 4; ++axis) {
          for (const auto& [got, want] :
               {std::pair{positions[i][axis], reference.positions[i][axis]},
                std::pair{velocities[i][axis], reference.velocities[i][axis]}}) {
            outside_tolerance += !(std::abs(got - want) <= kAbsolute + kRelative * std::abs(want));
            bitwise_differences += std::memcmp(&got, &want, sizeof(float)) != 0;
          }
        }
      }
      CHECK(outside_tolerance == 0);
      CHECK(bitwise_differences == 0);
      CHECK(std::memcmp(system->ages().span().data(), reference.ages.data(),
                        count * sizeof(float)) == 0);
      CHECK(std::memcmp(system->lifetimes().span().data(), reference.lifetimes.data(),
                        count * sizeof(float)) == 0);
    }
  });
}

TEST_CASE("Step with a bad dt returns an error and leaves the state unchanged") {
  MemoryAccountant memory;
  Result<ParticleSystem> system = ParticleSystem::Create(memory, 1000, ShortLivedConfig());
  REQUIRE(system.ok());
  ThreadPool pool(2);
  for (int i = 0; i < 10; ++i) REQUIRE(system->Step(kDt, pool).ok());
  const uint64_t before = system->StateHash();
  for (float dt :
       {0.0f, -kDt, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
        -std::numeric_limits<float>::infinity()}) {
    INFO("dt " << dt);
    const Status status = system->Step(dt, pool);
    CHECK(status.code() == ErrorCode::kInvalidArgument);
    CHECK_THAT(status.message(), Catch::Contains("dt_seconds must be finite and > 0"));
    CHECK(system->StateHash() == before);
    CHECK(system->steps_taken() == 10);
  }
}

TEST_CASE("Create and Configure reject invalid configurations") {
  MemoryAccountant memory;
  const auto expect = [&](const ParticleConfig& config, const char* expected) {
    Result<ParticleSystem> system = ParticleSystem::Create(memory, 100, config);
    REQUIRE_FALSE(system.ok());
    CHECK(system.status().code() == ErrorCode::kInvalidArgument);
    CHECK_THAT(system.status().message(), Catch::Contains(expected));
  };
  ParticleConfig config = ShortLivedConfig();
  config.gravity.y = std::numeric_limits<float>::quiet_NaN();
  expect(config, "gravity must be finite");
  config = ShortLivedConfig();
  config.box.restitution = 1.5f;
  expect(config, "restitution must be in [0, 1], got 1.5");
  config = ShortLivedConfig();
  config.attractor.softening = 0.0f;
  expect(config, "attractor softening must be finite and > 0, got 0");
  config.attractor_enabled = false;  // a disabled attractor is not validated
  CHECK(ParticleSystem::Create(memory, 100, config).ok());
  config = ShortLivedConfig();
  config.schedule.tile_elements = 0;
  expect(config, "tile_elements");
  config.schedule.tile_elements = 100;
  expect(config, "tile_elements");
  // A multiple of the float padding is not enough: every tile also slices the byte array of
  // dead flags, whose slices must start on multiples of the byte padding
  // (swarm/kernels/base/views.h).
  config.schedule.tile_elements = test::PaddedFloats(1);
  const std::string multiple = "tile_elements must be a positive multiple of " +
                               std::to_string(test::PaddedBytes(1)) + ", got " +
                               std::to_string(test::PaddedFloats(1));
  expect(config, multiple.c_str());
  config.schedule.tile_elements = 3 * test::PaddedFloats(1);
  expect(config, ("got " + std::to_string(3 * test::PaddedFloats(1))).c_str());
  CHECK(memory.Total().bytes_in_use == 0);

  Result<ParticleSystem> system = ParticleSystem::Create(memory, 100, ShortLivedConfig());
  REQUIRE(system.ok());
  config = ShortLivedConfig();
  config.emitter.lifetime_min = -1.0f;
  const Status status = system->Configure(config);
  CHECK(status.code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(status.message(), Catch::Contains("emitter lifetime_min"));
  CHECK(system->config().emitter.lifetime_min == ShortLivedConfig().emitter.lifetime_min);
}

// Bytes one particle system of `count` particles holds: positions and velocities (4 padded float
// lanes each), ages and lifetimes (padded floats) and the dead flags (padded bytes).
size_t SystemBytes(size_t count) {
  const size_t floats = test::PaddedFloats(count);
  const size_t bytes = test::PaddedBytes(count);
  return 2 * (16 * floats) + 2 * (4 * floats) + bytes;
}

TEST_CASE("Create over the budget returns kOverBudget and holds no memory") {
  MemoryAccountant memory(SystemBytes(10000) - 64);
  Result<ParticleSystem> system = ParticleSystem::Create(memory, 10000, ShortLivedConfig());
  REQUIRE_FALSE(system.ok());
  CHECK(system.status().code() == ErrorCode::kOverBudget);
  CHECK_THAT(system.status().message(),
             Catch::Contains("particles") && Catch::Contains(FormatBytes(SystemBytes(10000) - 64)));
  CHECK(memory.Total().bytes_in_use == 0);
  CHECK(memory.Total().live_allocations == 0);

  MemoryAccountant exact(SystemBytes(10000));
  CHECK(ParticleSystem::Create(exact, 10000, ShortLivedConfig()).ok());
}

// The first `count` particles of a system, as one hash.
uint64_t PrefixHash(const ParticleSystem& system, size_t count) {
  const ConstVec4View p = system.positions().view();
  const ConstVec4View v = system.velocities().view();
  return StateHasher()
      .Add(ConstVec4View{p.data, count, p.lane_stride})
      .Add(ConstVec4View{v.data, count, v.lane_stride})
      .Add(ConstFloatView{system.ages().span().data(), count})
      .Add(ConstFloatView{system.lifetimes().span().data(), count})
      .Digest();
}

TEST_CASE("Resize keeps the first particles bit-exact and emits the new ones") {
  MemoryAccountant memory;
  const ParticleConfig config = ShortLivedConfig();
  ThreadPool pool(2);

  SECTION("growing right after Create equals creating the larger system") {
    Result<ParticleSystem> grown = ParticleSystem::Create(memory, 1000, config);
    REQUIRE(grown.ok());
    REQUIRE(grown->Resize(3000).ok());
    Result<ParticleSystem> created = ParticleSystem::Create(memory, 3000, config);
    REQUIRE(created.ok());
    CHECK(grown->StateHash() == created->StateHash());
  }
  SECTION("growing after steps: old particles kept, new ones from the current stream") {
    for (size_t old_size : {size_t{1000}, size_t{1024}, size_t{20}, size_t{0}}) {
      INFO("old size " << old_size);
      Result<ParticleSystem> system = ParticleSystem::Create(memory, old_size, config);
      REQUIRE(system.ok());
      for (int i = 0; i < 25; ++i) REQUIRE(system->Step(kDt, pool).ok());
      const uint64_t kept = PrefixHash(*system, old_size);
      const size_t new_size = old_size + 1111;
      REQUIRE(system->Resize(new_size).ok());
      REQUIRE(system->size() == new_size);
      CHECK(PrefixHash(*system, old_size) == kept);
      size_t wrong = 0;
      for (uint32_t i = static_cast<uint32_t>(old_size); i < new_size; ++i) {
        const reference::EmittedParticle e =
            reference::Emit(config.emitter, {config.seed, system->steps_taken()}, i);
        const glm::vec4 p = system->positions().Get(i);
        const glm::vec4 v = system->velocities().Get(i);
        wrong += std::memcmp(&p, &e.position, sizeof(p)) != 0;
        wrong += std::memcmp(&v, &e.velocity, sizeof(v)) != 0;
        wrong += system->ages()[i] != 0.0f;
        wrong += std::memcmp(&system->lifetimes()[i], &e.lifetime, sizeof(float)) != 0;
      }
      CHECK(wrong == 0);
      REQUIRE(system->Step(kDt, pool).ok());  // and the grown system keeps stepping
    }
  }
  SECTION("shrinking keeps the first particles") {
    Result<ParticleSystem> system = ParticleSystem::Create(memory, 3000, config);
    REQUIRE(system.ok());
    for (int i = 0; i < 25; ++i) REQUIRE(system->Step(kDt, pool).ok());
    const uint64_t kept = PrefixHash(*system, 1234);
    REQUIRE(system->Resize(1234).ok());
    CHECK(system->size() == 1234);
    CHECK(system->StateHash() == kept);
  }
}

TEST_CASE("Resize over the budget changes nothing") {
  const size_t old_size = 1000;
  const size_t new_size = 5000;
  // Room for the system plus one grown position buffer: the first reservation succeeds, a later
  // one is refused, and the request as a whole must leave no trace.
  MemoryAccountant memory(SystemBytes(old_size) + 16 * test::PaddedFloats(new_size));
  Result<ParticleSystem> system = ParticleSystem::Create(memory, old_size, ShortLivedConfig());
  REQUIRE(system.ok());
  ThreadPool pool(1);
  for (int i = 0; i < 10; ++i) REQUIRE(system->Step(kDt, pool).ok());
  const uint64_t before = system->StateHash();
  const CategoryStats stats_before = memory.Total();
  REQUIRE(stats_before.bytes_in_use == SystemBytes(old_size));

  const Status status = system->Resize(new_size);
  CHECK(status.code() == ErrorCode::kOverBudget);
  CHECK_THAT(status.message(), Catch::Contains("particles"));
  CHECK(system->size() == old_size);
  CHECK(system->StateHash() == before);
  CHECK(system->positions().capacity() == test::PaddedFloats(old_size));
  CHECK(memory.Total().bytes_in_use == stats_before.bytes_in_use);
  CHECK(memory.Total().live_allocations == stats_before.live_allocations);
  // Still usable afterwards.
  REQUIRE(system->Step(kDt, pool).ok());
}

}  // namespace
}  // namespace swarm
