#include "demos/particles/scene.h"

#include <cmath>

#include "swarm/kernels/base/lowbias32.h"
#include "swarm/kernels/particles/emit.h"
#include "swarm/particles/interaction_presets.h"

namespace swarm {
namespace {

constexpr const char* kSceneNames[kSceneCount] = {"fountain", "explosion", "ring",     "galaxy",
                                                  "snow",     "fluid",     "granular", "flock"};

// Every scene shares the default box, 20 m on a side with the floor at y = 0.
constexpr glm::vec3 kBoxMin{-10.0f, 0.0f, -10.0f};
constexpr glm::vec3 kBoxMax{10.0f, 20.0f, 10.0f};

// Speed of a circular orbit of radius r around a Plummer-softened attractor: the centripetal
// acceleration v^2 / r equals strength r / (r^2 + eps^2)^(3/2)
// (swarm/kernels/particles/integrate.h), so v = r sqrt(strength / (r^2 + eps^2)^(3/2)).
float CircularOrbitSpeed(float strength, float softening, float radius) {
  const float softened = radius * radius + softening * softening;
  return radius * std::sqrt(strength / (softened * std::sqrt(softened)));
}

// u in [0, 1) from (seed, burst, axis) alone: a lowbias32 hash of the counter under a key
// derived from both halves of the seed, top 24 bits (the kernels' random numbers do the same).
float BurstUniform(uint64_t seed, uint64_t burst, uint32_t axis) {
  const uint32_t key =
      LowBias32(static_cast<uint32_t>(seed) ^ LowBias32(static_cast<uint32_t>(seed >> 32)));
  const uint32_t counter = static_cast<uint32_t>(burst * 3 + axis);
  return static_cast<float>(LowBias32(key ^ LowBias32(counter)) >> 8) * 0x1.0p-24f;
}

ParticleConfig BaseConfig(uint64_t seed) {
  ParticleConfig config;
  config.seed = seed;
  config.box = BoxParams{kBoxMin, kBoxMax, 0.5f, 0.05f};
  return config;
}

ParticleConfig Fountain(uint64_t seed) {
  ParticleConfig config = BaseConfig(seed);
  config.drag_per_second = 0.05f;
  config.emitter.shape = EmitterShape::kBox;
  config.emitter.center = {0.0f, 0.5f, 0.0f};
  config.emitter.half_extent = {0.3f, 0.1f, 0.3f};
  config.emitter.velocity = {0.0f, 15.0f, 0.0f};
  config.emitter.velocity_spread = {3.0f, 1.0f, 3.0f};
  // Every particle is born at once; lifetimes spread over [0.5, 4.5] s make the deaths, and so
  // the re-emissions, a steady stream within a few seconds.
  config.emitter.lifetime_min = 0.5f;
  config.emitter.lifetime_max = 4.5f;
  return config;
}

// A particle emitted at age 0 dies in the step whose age sum first reaches its lifetime. Half a
// step below the period keeps float rounding of the summed ages away from the boundary, so every
// particle of a burst dies in step kBurstPeriodSteps - 1 of its burst and respawns there with the
// next burst's centre (BurstIndex counts that step as the next burst).
ParticleConfig Explosion(uint64_t seed, uint64_t step) {
  ParticleConfig config = BaseConfig(seed);
  config.gravity = {0.0f, -4.0f, 0.0f};
  config.drag_per_second = 0.6f;
  config.box.restitution = 0.6f;
  const float lifetime = (static_cast<float>(kBurstPeriodSteps) - 0.5f) * kStepSeconds;
  config.emitter.shape = EmitterShape::kSphere;
  config.emitter.center = BurstCenter(seed, BurstIndex(step));
  config.emitter.half_extent = {0.2f, 0.2f, 0.2f};
  config.emitter.velocity = {0.0f, 0.0f, 0.0f};
  config.emitter.velocity_spread = {0.3f, 0.3f, 0.3f};
  config.emitter.radial_speed = 14.0f;
  config.emitter.lifetime_min = lifetime;
  config.emitter.lifetime_max = lifetime;
  return config;
}

// A ring in the xz plane through the centre, launched at the circular-orbit speed of the central
// attractor without gravity or drag: it keeps orbiting, spreading slowly with the velocity spread.
ParticleConfig Ring(uint64_t seed) {
  ParticleConfig config = BaseConfig(seed);
  config.gravity = {0.0f, 0.0f, 0.0f};
  config.drag_per_second = 0.0f;
  config.attractor_enabled = true;
  config.attractor.center = SceneCenter();
  config.attractor.strength = 200.0f;
  config.attractor.softening = 0.5f;
  const float radius = 6.0f;
  config.emitter.shape = EmitterShape::kRing;
  config.emitter.center = SceneCenter();
  config.emitter.radius = radius;
  config.emitter.half_extent = {0.15f, 0.15f, 0.15f};
  config.emitter.velocity = {0.0f, 0.0f, 0.0f};
  config.emitter.velocity_spread = {0.25f, 0.25f, 0.25f};
  config.emitter.tangential_speed =
      CircularOrbitSpeed(config.attractor.strength, config.attractor.softening, radius);
  config.emitter.lifetime_min = 8.0f;
  config.emitter.lifetime_max = 12.0f;
  return config;
}

// A wide ring launched below orbital speed with some drag: particles spiral into the attractor,
// so the disc is densest at its core and the rim is refilled as particles die.
ParticleConfig Galaxy(uint64_t seed) {
  ParticleConfig config = BaseConfig(seed);
  config.gravity = {0.0f, 0.0f, 0.0f};
  config.drag_per_second = 0.08f;
  config.attractor_enabled = true;
  config.attractor.center = SceneCenter();
  config.attractor.strength = 400.0f;
  config.attractor.softening = 1.0f;
  // Born between radius -+ 2 m (half_extent.x is the ring's radial spread, .y its thickness).
  const float radius = 7.0f;
  config.emitter.shape = EmitterShape::kRing;
  config.emitter.center = SceneCenter();
  config.emitter.radius = radius;
  config.emitter.half_extent = {2.0f, 0.2f, 0.0f};
  config.emitter.velocity = {0.0f, 0.0f, 0.0f};
  config.emitter.velocity_spread = {1.2f, 0.2f, 1.2f};
  config.emitter.tangential_speed =
      0.85f * CircularOrbitSpeed(config.attractor.strength, config.attractor.softening, radius);
  config.emitter.lifetime_min = 4.0f;
  config.emitter.lifetime_max = 10.0f;
  return config;
}

// A snow globe: flakes appear anywhere in the box (all particles are born at once, so flakes
// born at the ceiling would fall as one sheet) and drift down in a light wind; strong drag caps
// their speed at g / k (about 3 m/s), and the floor neither bounces nor lets them slide, so they
// settle where they land until they melt (die).
ParticleConfig Snow(uint64_t seed) {
  ParticleConfig config = BaseConfig(seed);
  config.drag_per_second = 3.0f;
  config.box.restitution = 0.0f;
  config.box.friction = 1.0f;
  config.emitter.shape = EmitterShape::kBox;
  config.emitter.center = SceneCenter();
  config.emitter.half_extent = (kBoxMax - kBoxMin) * 0.49f;
  config.emitter.velocity = {0.8f, -1.5f, 0.2f};
  config.emitter.velocity_spread = {0.6f, 0.4f, 0.6f};
  config.emitter.lifetime_min = 3.0f;
  config.emitter.lifetime_max = 9.0f;
  return config;
}

// The interacting scenes are the library's presets (swarm/particles/interaction_presets.h) in
// the scenes' box, with the scene's seed.
ParticleConfig Interacting(ParticleConfig (*preset)(const BoxParams&, size_t), uint64_t seed,
                           size_t particles) {
  ParticleConfig config = preset(BaseConfig(seed).box, particles);
  config.seed = seed;
  return config;
}

}  // namespace

size_t SceneDefaultParticles(SceneKind scene) {
  switch (scene) {
    case SceneKind::kFluid:
      return 100'000;
    case SceneKind::kGranular:
      return 200'000;
    case SceneKind::kFlock:
      return 250'000;
    default:
      return 1'000'000;
  }
}

const char* SceneName(SceneKind scene) { return kSceneNames[static_cast<size_t>(scene)]; }

SceneKind SceneAt(size_t index) { return static_cast<SceneKind>(index % kSceneCount); }

std::string SceneNames() {
  std::string names;
  for (const char* name : kSceneNames) {
    if (!names.empty()) names += ", ";
    names += name;
  }
  return names;
}

Result<SceneKind> ParseSceneName(std::string_view name) {
  for (size_t index = 0; index < kSceneCount; ++index) {
    if (name == kSceneNames[index]) return SceneAt(index);
  }
  return InvalidArgument("--scene: unknown scene '" + std::string(name) + "' (expected one of " +
                         SceneNames() + ")");
}

glm::vec3 SceneCenter() { return (kBoxMin + kBoxMax) * 0.5f; }

float SceneFullColorSpeed(SceneKind scene) {
  constexpr float kSpeeds[kSceneCount] = {16.0f, 14.0f, 8.0f, 12.0f, 4.0f, 8.0f, 6.0f, 5.0f};
  return kSpeeds[static_cast<size_t>(scene)];
}

SceneView SceneStartView(SceneKind scene) {
  switch (scene) {
    case SceneKind::kFountain:
      return {0.6f, 0.3f, 40.0f};
    case SceneKind::kExplosion:
      return {0.6f, 0.35f, 38.0f};
    case SceneKind::kRing:
      return {0.6f, 0.6f, 26.0f};
    case SceneKind::kGalaxy:
      return {0.6f, 0.85f, 24.0f};
    case SceneKind::kSnow:
      return {0.6f, 0.4f, 46.0f};
    case SceneKind::kFluid:
      return {0.45f, 0.45f, 40.0f};
    case SceneKind::kGranular:
      return {0.6f, 0.45f, 40.0f};
    case SceneKind::kFlock:
      return {0.6f, 0.3f, 42.0f};
  }
  return {};
}

uint64_t BurstIndex(uint64_t step) { return (step + 1) / kBurstPeriodSteps; }

glm::vec3 BurstCenter(uint64_t seed, uint64_t burst) {
  // A margin from the walls so most of a burst is visible before it reaches them.
  const glm::vec3 low{-6.0f, 6.0f, -6.0f};
  const glm::vec3 high{6.0f, 15.0f, 6.0f};
  glm::vec3 center;
  for (uint32_t axis = 0; axis < 3; ++axis) {
    center[axis] = low[axis] + (high[axis] - low[axis]) * BurstUniform(seed, burst, axis);
  }
  return center;
}

ParticleConfig SceneConfig(SceneKind scene, uint64_t seed, uint64_t step, size_t particles) {
  switch (scene) {
    case SceneKind::kFountain:
      return Fountain(seed);
    case SceneKind::kExplosion:
      return Explosion(seed, step);
    case SceneKind::kRing:
      return Ring(seed);
    case SceneKind::kGalaxy:
      return Galaxy(seed);
    case SceneKind::kSnow:
      return Snow(seed);
    case SceneKind::kFluid:
      return Interacting(DamBreakPreset, seed, particles);
    case SceneKind::kGranular:
      return Interacting(SandDumpPreset, seed, particles);
    case SceneKind::kFlock:
      return Interacting(FlockPreset, seed, particles);
  }
  return Fountain(seed);
}

}  // namespace swarm
