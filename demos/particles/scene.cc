#include "demos/particles/scene.h"

#include <algorithm>
#include <cmath>

#include "swarm/kernels/emit.h"
#include "swarm/kernels/lowbias32.h"

namespace swarm {
namespace {

constexpr const char* kSceneNames[kSceneCount] = {"fountain", "explosion", "ring",     "galaxy",
                                                  "snow",     "fluid",     "granular", "flock"};

// Every scene shares the default box, 20 m on a side with the floor at y = 0.
constexpr glm::vec3 kBoxMin{-10.0f, 0.0f, -10.0f};
constexpr glm::vec3 kBoxMax{10.0f, 20.0f, 10.0f};

// Speed of a circular orbit of radius r around a Plummer-softened attractor: the centripetal
// acceleration v^2 / r equals strength r / (r^2 + eps^2)^(3/2) (kernels/integrate.h), so
// v = r sqrt(strength / (r^2 + eps^2)^(3/2)).
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

// The edge of a cube holding `volume` m^3 split among `particles`: their lattice spacing.
float SpacingFor(float volume, size_t particles) {
  return std::cbrt(volume / static_cast<float>(std::max<size_t>(particles, 1)));
}

// A dam break: a block of water 8 m deep against the -x wall, the full width of the box, falls
// and runs across the floor. Position Based Fluids with a kernel of two particle spacings (about
// 30 neighbours), 4 iterations, one step per frame.
ParticleConfig Fluid(uint64_t seed, size_t particles) {
  ParticleConfig config = BaseConfig(seed);
  config.drag_per_second = 0.0f;
  config.box.restitution = 0.0f;
  config.box.friction = 0.0f;
  const glm::vec3 block{7.0f, 8.0f, kBoxMax.z - kBoxMin.z};
  const float spacing = SpacingFor(block.x * block.y * block.z, particles);
  config.emitter.center = {kBoxMin.x + 0.5f * block.x, 0.5f * block.y, 0.0f};
  config.emitter.half_extent = 0.5f * block;
  config.emitter.velocity = {0.0f, 0.0f, 0.0f};
  InteractionConfig& interaction = config.interaction;
  interaction.kind = InteractionKind::kFluid;
  interaction.lattice_spacing = spacing;
  FluidParams& fluid = interaction.fluid;
  fluid.kernel_radius = 2.0f * spacing;
  fluid.rest_density = 1000.0f;
  fluid.particle_mass = fluid.rest_density * spacing * spacing * spacing;
  fluid.iterations = 4;
  fluid.viscosity = 0.02f;
  fluid.vorticity = 0.05f;
  return config;
}

// A sand dump: a block of grains 16 m square over the middle of the box, its base 2 m up,
// collapses onto the floor and spreads into a pile against the walls. Grains of radius
// 0.45-0.55 spacings (the spacing chosen so the block is ~5 m tall at any count), contacts stiff
// enough that the pile's weight presses them by ~10% of a radius, six substeps per frame (a
// tenth of the contact time each).
ParticleConfig Granular(uint64_t seed, size_t particles) {
  ParticleConfig config = BaseConfig(seed);
  config.drag_per_second = 0.0f;
  config.box.restitution = 0.2f;
  config.box.friction = 0.5f;
  const glm::vec3 block{16.0f, 5.0f, 16.0f};
  const float spacing = SpacingFor(block.x * block.y * block.z, particles);
  config.emitter.center = {0.0f, 2.0f + 0.5f * block.y, 0.0f};
  config.emitter.half_extent = 0.5f * block;
  config.emitter.velocity = {0.0f, 0.0f, 0.0f};
  InteractionConfig& interaction = config.interaction;
  interaction.kind = InteractionKind::kGranular;
  interaction.lattice_spacing = spacing;
  interaction.lattice_jitter = 0.05f;
  interaction.substeps = 6;
  GranularConfig& granular = interaction.granular;
  granular.radius_min = 0.45f * spacing;
  granular.radius_max = 0.55f * spacing;
  granular.density = 1500.0f;
  // Contact time pi sqrt(m / 2k) = 10 substeps = 28 ms, for the average grain's mass m.
  const float radius = 0.5f * spacing;
  const float mass = granular.density * 4.18879f * radius * radius * radius;
  const float contact_seconds = 10.0f * kStepSeconds / static_cast<float>(interaction.substeps);
  granular.contact.stiffness =
      3.14159265f * 3.14159265f * mass / (2.0f * contact_seconds * contact_seconds);
  granular.contact.restitution = 0.3f;
  granular.contact.friction = 0.6f;
  granular.contact.tangential_damping = 20.0f;
  return config;
}

// A flock: boids born all through the box at random, flying at 2-5 m/s, see their neighbours
// within the radius holding ~30 of them at the flock's mean density, keep apart within 40% of it,
// align and cohere, and turn away from the walls.
ParticleConfig Flock(uint64_t seed, size_t particles) {
  ParticleConfig config = BaseConfig(seed);
  config.gravity = {0.0f, 0.0f, 0.0f};
  config.drag_per_second = 0.0f;
  config.box.restitution = 1.0f;
  config.box.friction = 0.0f;
  config.emitter.shape = EmitterShape::kBox;
  config.emitter.center = SceneCenter();
  config.emitter.half_extent = (kBoxMax - kBoxMin) * 0.45f;
  config.emitter.velocity = {0.0f, 0.0f, 0.0f};
  config.emitter.velocity_spread = {3.0f, 3.0f, 3.0f};
  InteractionConfig& interaction = config.interaction;
  interaction.kind = InteractionKind::kFlock;
  FlockParams& flock = interaction.flock;
  const glm::vec3 box = kBoxMax - kBoxMin;
  // 30 boids in a sphere of the view radius at the mean density.
  flock.view_radius = std::cbrt(30.0f * box.x * box.y * box.z /
                                (4.18879f * static_cast<float>(std::max<size_t>(particles, 1))));
  flock.separation_radius = 0.4f * flock.view_radius;
  flock.separation_weight = 2.0f * flock.view_radius;
  flock.alignment_weight = 1.5f;
  flock.cohesion_weight = 1.0f;
  flock.min_speed = 2.0f;
  flock.max_speed = 5.0f;
  flock.wall_margin = 2.0f;
  flock.wall_weight = 20.0f;
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
      return Fluid(seed, particles);
    case SceneKind::kGranular:
      return Granular(seed, particles);
    case SceneKind::kFlock:
      return Flock(seed, particles);
  }
  return Fountain(seed);
}

}  // namespace swarm
