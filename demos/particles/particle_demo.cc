#include "demos/particles/particle_demo.h"

#include <algorithm>
#include <utility>

namespace swarm {
namespace {

// Exposure follows the particle density: with p pixels and n particles covering about a tenth
// of the frame, a covered pixel holds ~10 n / p particles, and a radiance near 1 there keeps the
// x / (1 + x) tone map out of saturation, so the palette's colours survive at any count.
constexpr float kExposurePerParticleDensity = 0.08f;
constexpr float kMinExposure = 0.01f;
constexpr float kMaxExposure = 0.5f;

RenderSettings SettingsFor(SceneKind scene, size_t width, size_t height, size_t particles,
                           ParticleColoring coloring) {
  RenderSettings settings;
  settings.width = width;
  settings.height = height;
  settings.coloring = coloring;
  settings.full_color_speed = SceneFullColorSpeed(scene);
  const float pixels_per_particle =
      static_cast<float>(width * height) / static_cast<float>(std::max<size_t>(particles, 1));
  settings.exposure =
      std::clamp(kExposurePerParticleDensity * pixels_per_particle, kMinExposure, kMaxExposure);
  return settings;
}

}  // namespace

Result<ParticleDemo> ParticleDemo::Create(MemoryAccountant& accountant, ThreadPool& pool,
                                          const DemoSetup& setup) {
  ParticleDemo demo;
  demo.accountant_ = &accountant;
  demo.pool_ = &pool;
  demo.scene_ = setup.scene;
  demo.seed_ = setup.seed;
  demo.requested_particles_ = setup.particles;
  const size_t count = demo.CountFor(setup.scene);
  Result<ParticleSystem> system =
      ParticleSystem::Create(accountant, count, SceneConfig(setup.scene, setup.seed, 0, count));
  if (!system.ok()) return system.status();
  demo.system_ = std::move(system).value();
  Result<ParticleRenderer> renderer = ParticleRenderer::Create(
      accountant,
      SettingsFor(setup.scene, setup.width, setup.height, count, ParticleColoring::kSpeed),
      pool.num_threads());
  if (!renderer.ok()) return renderer.status();
  demo.renderer_ = std::move(renderer).value();
  return demo;
}

Status ParticleDemo::Step() {
  ParticleConfig config = SceneConfig(scene_, seed_, system_.steps_taken(), system_.size());
  if (pointer_.has_value()) {
    config.attractor_enabled = true;
    config.attractor.center = pointer_->point;
    config.attractor.strength = pointer_->repel ? -kPointerStrength : kPointerStrength;
    config.attractor.softening = kPointerSoftening;
  }
  if (Status s = system_.Configure(config); !s.ok()) return s;
  return system_.Step(kStepSeconds, *pool_);
}

Status ParticleDemo::Render(const glm::mat4& view_projection) {
  return renderer_.Render(*pool_, view_projection, system_);
}

size_t ParticleDemo::CountFor(SceneKind scene) const {
  return requested_particles_ > 0 ? requested_particles_ : SceneDefaultParticles(scene);
}

Status ParticleDemo::Restart(SceneKind scene) {
  const size_t count = CountFor(scene);
  system_ = ParticleSystem();
  Result<ParticleSystem> system =
      ParticleSystem::Create(*accountant_, count, SceneConfig(scene, seed_, 0, count));
  if (!system.ok()) return system.status();
  system_ = std::move(system).value();
  scene_ = scene;
  const RenderSettings& current = renderer_.settings();
  return renderer_.Configure(
      SettingsFor(scene, current.width, current.height, count, current.coloring));
}

Status ParticleDemo::Resize(size_t particles) {
  if (system_.interacting()) {
    const size_t previous = requested_particles_;
    requested_particles_ = particles;
    Status status = Restart(scene_);
    if (!status.ok()) requested_particles_ = previous;
    return status;
  }
  if (Status s = system_.Resize(particles); !s.ok()) return s;
  requested_particles_ = particles;
  const RenderSettings& current = renderer_.settings();
  // The frame size is unchanged, so this only sets the exposure and cannot fail.
  Status status = renderer_.Configure(
      SettingsFor(scene_, current.width, current.height, particles, current.coloring));
  SWARM_ASSERT(status.ok());
  return {};
}

Status ParticleDemo::SetFrameSize(size_t width, size_t height) {
  const RenderSettings& current = renderer_.settings();
  return renderer_.Configure(SettingsFor(scene_, width, height, system_.size(), current.coloring));
}

void ParticleDemo::CycleColoring() {
  RenderSettings settings = renderer_.settings();
  settings.coloring = settings.coloring == ParticleColoring::kSpeed ? ParticleColoring::kAge
                                                                    : ParticleColoring::kSpeed;
  // Only the colouring changes, which the current settings already passed validation with.
  Status status = renderer_.Configure(settings);
  SWARM_ASSERT(status.ok());
}

OrbitCamera SceneStartCamera(SceneKind scene) {
  const SceneView view = SceneStartView(scene);
  return OrbitCamera(SceneCenter(), view.azimuth, view.elevation, view.distance);
}

}  // namespace swarm
