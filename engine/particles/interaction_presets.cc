#include "swarm/particles/interaction_presets.h"

#include <algorithm>
#include <cmath>

namespace swarm {
namespace {

constexpr float kSphereVolume = 4.18879020f;  // 4/3 pi
constexpr float kFrameSeconds = 1.0f / 60.0f;

// The edge of a cube holding `volume` m^3 split among `particles`: their lattice spacing.
float SpacingFor(float volume, size_t particles) {
  return std::cbrt(volume / static_cast<float>(std::max<size_t>(particles, 1)));
}

ParticleConfig InBox(const BoxParams& box) {
  ParticleConfig config;
  config.box = box;
  config.drag_per_second = 0.0f;
  config.emitter.velocity = {0.0f, 0.0f, 0.0f};
  return config;
}

}  // namespace

ParticleConfig DamBreakPreset(const BoxParams& box, size_t particles) {
  ParticleConfig config = InBox(box);
  config.box.restitution = 0.0f;
  config.box.friction = 0.0f;
  const glm::vec3 size = box.max - box.min;
  const glm::vec3 block{0.35f * size.x, 0.4f * size.y, size.z};
  const float spacing = SpacingFor(block.x * block.y * block.z, particles);
  config.emitter.center = box.min + 0.5f * block;
  config.emitter.half_extent = 0.5f * block;
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

ParticleConfig SandDumpPreset(const BoxParams& box, size_t particles) {
  ParticleConfig config = InBox(box);
  config.box.restitution = 0.2f;
  config.box.friction = 0.5f;
  const glm::vec3 size = box.max - box.min;
  const glm::vec3 block{0.8f * size.x, 0.25f * size.y, 0.8f * size.z};
  const float spacing = SpacingFor(block.x * block.y * block.z, particles);
  config.emitter.center = {0.5f * (box.min.x + box.max.x),
                           box.min.y + 0.1f * size.y + 0.5f * block.y,
                           0.5f * (box.min.z + box.max.z)};
  config.emitter.half_extent = 0.5f * block;
  InteractionConfig& interaction = config.interaction;
  interaction.kind = InteractionKind::kGranular;
  interaction.lattice_spacing = spacing;
  interaction.lattice_jitter = 0.05f;
  interaction.substeps = 6;
  GranularConfig& granular = interaction.granular;
  granular.radius_min = 0.45f * spacing;
  granular.radius_max = 0.55f * spacing;
  granular.density = 1500.0f;
  // Contact time pi sqrt(m / 2k) = 10 substeps, for the average grain's mass m.
  const float radius = 0.5f * spacing;
  const float mass = granular.density * (kSphereVolume * (radius * radius * radius));
  const float contact = 10.0f * kFrameSeconds / static_cast<float>(interaction.substeps);
  granular.contact.stiffness = 9.8696044f * mass / (2.0f * contact * contact);
  granular.contact.restitution = 0.3f;
  granular.contact.friction = 0.6f;
  granular.contact.tangential_damping = 20.0f;
  return config;
}

ParticleConfig FlockPreset(const BoxParams& box, size_t particles) {
  ParticleConfig config = InBox(box);
  config.gravity = {0.0f, 0.0f, 0.0f};
  config.box.restitution = 1.0f;
  config.box.friction = 0.0f;
  const glm::vec3 size = box.max - box.min;
  config.emitter.shape = EmitterShape::kBox;
  config.emitter.center = 0.5f * (box.min + box.max);
  config.emitter.half_extent = 0.45f * size;
  config.emitter.velocity_spread = {3.0f, 3.0f, 3.0f};
  InteractionConfig& interaction = config.interaction;
  interaction.kind = InteractionKind::kFlock;
  FlockParams& flock = interaction.flock;
  // 30 boids in a sphere of the view radius at the mean density.
  flock.view_radius =
      std::cbrt(30.0f * size.x * size.y * size.z /
                (kSphereVolume * static_cast<float>(std::max<size_t>(particles, 1))));
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

}  // namespace swarm
