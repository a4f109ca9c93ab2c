// Tests of the particle demo's scenes and of ParticleDemo (demos/particles/scene.h,
// particle_demo.h): names and their errors, configurations that are valid and a pure function of
// (scene, seed, step), explosion bursts that die and respawn together at the next centre, a ring
// that keeps orbiting at its radius, and the demo's restart, resize and pointer behaviour.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <string>

#include "demos/particles/particle_demo.h"
#include "demos/particles/scene.h"
#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/particles/emit.h"
#include "swarm/particles/particle_system.h"

namespace swarm {
namespace {

bool SameConfig(const ParticleConfig& a, const ParticleConfig& b) {
  const EmitterParams& ea = a.emitter;
  const EmitterParams& eb = b.emitter;
  return a.gravity == b.gravity && a.drag_per_second == b.drag_per_second &&
         a.box.min == b.box.min && a.box.max == b.box.max &&
         a.box.restitution == b.box.restitution && a.box.friction == b.box.friction &&
         a.attractor_enabled == b.attractor_enabled && a.attractor.center == b.attractor.center &&
         a.attractor.strength == b.attractor.strength &&
         a.attractor.softening == b.attractor.softening && a.seed == b.seed &&
         ea.center == eb.center && ea.half_extent == eb.half_extent && ea.velocity == eb.velocity &&
         ea.velocity_spread == eb.velocity_spread && ea.lifetime_min == eb.lifetime_min &&
         ea.lifetime_max == eb.lifetime_max && ea.shape == eb.shape && ea.radius == eb.radius &&
         ea.radial_speed == eb.radial_speed && ea.tangential_speed == eb.tangential_speed;
}

// Steps `system` as the demo does: the scene's configuration of each step, then the step.
void StepScene(ParticleSystem& system, SceneKind scene, uint64_t seed, uint64_t steps,
               ThreadPool& pool) {
  for (uint64_t step = 0; step < steps; ++step) {
    REQUIRE(system.Configure(SceneConfig(scene, seed, system.steps_taken())).ok());
    REQUIRE(system.Step(kStepSeconds, pool).ok());
  }
}

TEST_CASE("scene names round-trip and unknown names are refused with the list") {
  for (size_t index = 0; index < kSceneCount; ++index) {
    const SceneKind scene = SceneAt(index);
    Result<SceneKind> parsed = ParseSceneName(SceneName(scene));
    REQUIRE(parsed.ok());
    CHECK(parsed.value() == scene);
  }
  Result<SceneKind> bad = ParseSceneName("volcano");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message() ==
        "--scene: unknown scene 'volcano' (expected one of fountain, explosion, ring, galaxy, "
        "snow, fluid, granular, flock)");
  CHECK_FALSE(ParseSceneName("").ok());
  CHECK_FALSE(ParseSceneName("Fountain").ok());
}

TEST_CASE("every scene's configuration is valid and a pure function of (scene, seed, step)") {
  for (size_t index = 0; index < kSceneCount; ++index) {
    const SceneKind scene = SceneAt(index);
    INFO("scene " << SceneName(scene));
    for (uint64_t step : {uint64_t{0}, uint64_t{1}, kBurstPeriodSteps - 1, kBurstPeriodSteps,
                          uint64_t{5000}, uint64_t{1} << 40}) {
      const ParticleConfig config = SceneConfig(scene, 7, step);
      CHECK(ValidateParticleConfig(config).ok());
      CHECK(config.seed == 7);
      CHECK(SameConfig(config, SceneConfig(scene, 7, step)));
    }
    CHECK(SceneFullColorSpeed(scene) > 0.0f);
  }
}

TEST_CASE("burst centres depend on seed and burst only and stay inside the box") {
  const ParticleConfig box = SceneConfig(SceneKind::kExplosion, 1, 0);
  for (uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{0xFFFFFFFF00000000ull}}) {
    for (uint64_t burst = 0; burst < 64; ++burst) {
      const glm::vec3 center = BurstCenter(seed, burst);
      CHECK(center == BurstCenter(seed, burst));
      for (int axis = 0; axis < 3; ++axis) {
        CHECK(center[axis] > box.box.min[axis] + 3.0f);
        CHECK(center[axis] < box.box.max[axis] - 3.0f);
      }
    }
    CHECK(BurstCenter(seed, 0) != BurstCenter(seed, 1));
  }
  // Both halves of a 64-bit seed matter.
  CHECK(BurstCenter(1, 0) != BurstCenter(2, 0));
  CHECK(BurstCenter(1, 0) != BurstCenter(1 | (uint64_t{1} << 32), 0));
  // Burst k covers steps [k P - 1, (k + 1) P - 1): the step that respawns it counts as its own.
  CHECK(BurstIndex(0) == 0);
  CHECK(BurstIndex(kBurstPeriodSteps - 2) == 0);
  CHECK(BurstIndex(kBurstPeriodSteps - 1) == 1);
  CHECK(BurstIndex(2 * kBurstPeriodSteps - 2) == 1);
  CHECK(BurstIndex(2 * kBurstPeriodSteps - 1) == 2);
  CHECK(SceneConfig(SceneKind::kExplosion, 3, kBurstPeriodSteps - 1).emitter.center ==
        BurstCenter(3, 1));
}

TEST_CASE("explosion bursts are synchronous: every particle respawns at the next centre at once") {
  MemoryAccountant memory;
  ThreadPool pool(2);
  const uint64_t seed = 11;
  const size_t count = 3000;
  ParticleSystem system =
      ParticleSystem::Create(memory, count, SceneConfig(SceneKind::kExplosion, seed, 0)).value();
  for (uint64_t burst = 1; burst <= 2; ++burst) {
    INFO("burst " << burst);
    // Up to the step before the respawn, nobody has died: every age is the same sum of steps.
    StepScene(system, SceneKind::kExplosion, seed,
              burst * kBurstPeriodSteps - 1 - system.steps_taken(), pool);
    const float age = system.ages()[0];
    CHECK(age > 0.0f);
    for (size_t i = 0; i < count; ++i) REQUIRE(system.ages()[i] == age);
    // The next step kills and re-emits all of them around the next burst's centre.
    StepScene(system, SceneKind::kExplosion, seed, 1, pool);
    const glm::vec3 center = BurstCenter(seed, burst);
    const EmitterParams emitter = SceneConfig(SceneKind::kExplosion, seed, 0).emitter;
    for (size_t i = 0; i < count; ++i) {
      REQUIRE(system.ages()[i] == 0.0f);
      const glm::vec3 offset = glm::vec3(system.positions().Get(i)) - center;
      for (int axis = 0; axis < 3; ++axis) {
        REQUIRE(std::abs(offset[axis]) <= emitter.half_extent[axis] * 1.0001f);
      }
      const glm::vec3 velocity(system.velocities().Get(i));
      REQUIRE(glm::length(velocity - emitter.velocity) <= emitter.radial_speed * 1.0001f);
    }
  }
}

TEST_CASE("the ring keeps orbiting at its radius") {
  MemoryAccountant memory;
  ThreadPool pool(1);
  const size_t count = 2000;
  const ParticleConfig config = SceneConfig(SceneKind::kRing, 5, 0);
  ParticleSystem system = ParticleSystem::Create(memory, count, config).value();
  // Three seconds: about half an orbit, well inside the lifetimes (>= 8 s).
  StepScene(system, SceneKind::kRing, 5, 180, pool);
  double radius_sum = 0;
  double height_sum = 0;
  for (size_t i = 0; i < count; ++i) {
    const glm::vec3 offset = glm::vec3(system.positions().Get(i)) - SceneCenter();
    radius_sum += std::hypot(offset.x, offset.z);
    height_sum += std::abs(offset.y);
  }
  CHECK(radius_sum / count == Approx(config.emitter.radius).margin(0.5));
  CHECK(height_sum / count < 1.0);
}

TEST_CASE("ParticleDemo: restart reproduces the start, resize keeps or refuses, pointer pulls") {
  MemoryAccountant memory;
  ThreadPool pool(2);
  DemoSetup setup;
  setup.particles = 4096;
  setup.scene = SceneKind::kFountain;
  setup.seed = 3;
  setup.width = 64;
  setup.height = 48;
  ParticleDemo demo = ParticleDemo::Create(memory, pool, setup).value();
  const uint64_t start_hash = demo.system().StateHash();
  for (int step = 0; step < 10; ++step) REQUIRE(demo.Step().ok());
  const uint64_t hash_after_10 = demo.system().StateHash();
  CHECK(demo.steps() == 10);

  SECTION("restart goes back to step 0 of the same run") {
    REQUIRE(demo.Restart(SceneKind::kFountain).ok());
    CHECK(demo.steps() == 0);
    CHECK(demo.system().StateHash() == start_hash);
    for (int step = 0; step < 10; ++step) REQUIRE(demo.Step().ok());
    CHECK(demo.system().StateHash() == hash_after_10);
    const size_t particle_bytes = memory.Stats(MemoryCategory::kParticles).bytes_in_use;
    REQUIRE(demo.Restart(SceneKind::kGalaxy).ok());
    CHECK(demo.scene() == SceneKind::kGalaxy);
    CHECK(demo.particles() == 4096);
    // The old particles are released before the new ones exist.
    CHECK(memory.Stats(MemoryCategory::kParticles).peak_bytes == particle_bytes);
  }
  SECTION("resize within the budget changes the count, beyond it changes nothing") {
    REQUIRE(demo.Resize(8192).ok());
    CHECK(demo.particles() == 8192);
    REQUIRE(demo.Resize(2048).ok());
    CHECK(demo.particles() == 2048);
    memory.SetBudget(memory.Total().bytes_in_use + 1024);
    const uint64_t hash = demo.system().StateHash();
    Status refused = demo.Resize(1 << 20);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.code() == ErrorCode::kOverBudget);
    CHECK(refused.message().find("particles") != std::string::npos);
    CHECK(demo.particles() == 2048);
    CHECK(demo.system().StateHash() == hash);
    REQUIRE(demo.Step().ok());
  }
  SECTION("a held pointer replaces the scene's force; releasing it restores the scene") {
    REQUIRE(demo.Restart(SceneKind::kFountain).ok());
    demo.SetPointer(PointerForce{SceneCenter() + glm::vec3(5.0f, 0.0f, 0.0f), false});
    for (int step = 0; step < 10; ++step) REQUIRE(demo.Step().ok());
    CHECK(demo.system().StateHash() != hash_after_10);
    CHECK(demo.system().config().attractor_enabled);
    CHECK(demo.system().config().attractor.strength == kPointerStrength);
    demo.SetPointer(PointerForce{SceneCenter(), true});
    REQUIRE(demo.Step().ok());
    CHECK(demo.system().config().attractor.strength == -kPointerStrength);
    demo.SetPointer(std::nullopt);
    REQUIRE(demo.Step().ok());
    CHECK_FALSE(demo.system().config().attractor_enabled);
  }
  SECTION("frame size and colouring reconfigure the renderer") {
    REQUIRE(demo.SetFrameSize(80, 40).ok());
    CHECK(demo.renderer().settings().width == 80);
    CHECK(demo.renderer().settings().height == 40);
    Status bad = demo.SetFrameSize(4, 40);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.message().find("width") != std::string::npos);
    CHECK(demo.renderer().settings().width == 80);
    demo.CycleColoring();
    CHECK(demo.renderer().settings().coloring == ParticleColoring::kAge);
    demo.CycleColoring();
    CHECK(demo.renderer().settings().coloring == ParticleColoring::kSpeed);
  }
}

TEST_CASE("ParticleDemo::Create names the category the budget refused") {
  MemoryAccountant memory(64 * 1024);
  ThreadPool pool(1);
  DemoSetup setup;
  setup.particles = 100000;
  Result<ParticleDemo> demo = ParticleDemo::Create(memory, pool, setup);
  REQUIRE_FALSE(demo.ok());
  CHECK(demo.status().code() == ErrorCode::kOverBudget);
  CHECK(demo.status().message().find("particles") != std::string::npos);
  CHECK(memory.Total().bytes_in_use == 0);
}

TEST_CASE("interacting scenes run in the demo, stay in their box and restart on a resize") {
  for (SceneKind scene : {SceneKind::kFluid, SceneKind::kGranular, SceneKind::kFlock}) {
    INFO("scene " << SceneName(scene));
    MemoryAccountant memory;
    ThreadPool pool(2);
    DemoSetup setup;
    setup.scene = scene;
    setup.particles = 4000;
    setup.width = 64;
    setup.height = 36;
    Result<ParticleDemo> created = ParticleDemo::Create(memory, pool, setup);
    REQUIRE(created.ok());
    ParticleDemo& demo = created.value();
    REQUIRE(demo.system().interacting());
    for (int step = 0; step < 30; ++step) REQUIRE(demo.Step().ok());
    const ParticleConfig config = SceneConfig(scene, setup.seed, 0, 4000);
    const ConstVec4View p = demo.system().positions().view();
    size_t outside = 0;
    for (size_t i = 0; i < p.count; ++i) {
      for (size_t axis = 0; axis < 3; ++axis) {
        outside +=
            !(p.Lane(axis)[i] >= config.box.min[axis] && p.Lane(axis)[i] <= config.box.max[axis]);
      }
    }
    CHECK(outside == 0);
    CHECK(demo.system().interactions().stats().average_neighbors > 1.0);
    // Interacting particles cannot be added mid-run: a resize starts the scene anew.
    REQUIRE(demo.Resize(2000).ok());
    CHECK(demo.particles() == 2000);
    CHECK(demo.steps() == 0);
  }
}

TEST_CASE("each scene starts with its own particle count unless one is asked for") {
  CHECK(SceneDefaultParticles(SceneKind::kFountain) == 1'000'000);
  CHECK(SceneDefaultParticles(SceneKind::kFluid) == 100'000);
  CHECK(SceneDefaultParticles(SceneKind::kGranular) == 200'000);
  CHECK(SceneDefaultParticles(SceneKind::kFlock) == 250'000);
  MemoryAccountant memory;
  ThreadPool pool(1);
  DemoSetup setup;
  setup.scene = SceneKind::kFlock;
  setup.width = 64;
  setup.height = 36;
  Result<ParticleDemo> demo = ParticleDemo::Create(memory, pool, setup);
  REQUIRE(demo.ok());
  CHECK(demo->particles() == 250'000);
  REQUIRE(demo->Restart(SceneKind::kFluid).ok());
  CHECK(demo->particles() == 100'000);
}

}  // namespace
}  // namespace swarm
