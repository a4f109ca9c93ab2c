// What the window and the headless mode share: a scene's ParticleSystem, its renderer and the
// pointer's force, driven one fixed step at a time. Nothing here knows about SDL, so the headless
// mode and the tests run it without a display.
//
// Step k applies SceneConfig(scene, seed, k) (plus the pointer's force, if any): with no pointer,
// the state after k steps depends on (scene, seed, particle count, k) only, on every SIMD target
// and thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <optional>

#include "demos/particles/orbit_camera.h"
#include "demos/particles/scene.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"
#include "swarm/particles/particle_system.h"
#include "swarm/render/particle_renderer.h"

namespace swarm {

// The mouse's force: an attractor (left button) or repulsor (right) at a world point. It replaces
// the scene's own attractor while held.
struct PointerForce {
  glm::vec3 point{0.0f};
  bool repel = false;
};
inline constexpr float kPointerStrength = 300.0f;  // m^3/s^2
inline constexpr float kPointerSoftening = 1.0f;   // m

struct DemoSetup {
  size_t particles = 0;  // 0: the scene's default (SceneDefaultParticles)
  SceneKind scene = SceneKind::kFountain;
  uint64_t seed = 1;
  size_t width = 1280;
  size_t height = 720;
};

class ParticleDemo {
 public:
  // Creates the particles (accounted as kParticles) and the renderer's images (kImages) for a
  // pool of `pool`'s threads. Errors: the budget (the message names the category), sizes.
  static Result<ParticleDemo> Create(MemoryAccountant& accountant, ThreadPool& pool,
                                     const DemoSetup& setup);
  ParticleDemo() = default;

  // One step of kStepSeconds.
  Status Step();
  // Renders the current state into renderer().frame().
  Status Render(const glm::mat4& view_projection);

  // Starts `scene` afresh at step 0 with the count the user asked for (Resize or the setup), or
  // else the scene's default. The old particles are
  // released before the new ones are created, so this needs no more memory than the demo has;
  // on error (the budget taken meanwhile by a larger frame) the demo is left without particles
  // and must not be stepped again.
  Status Restart(SceneKind scene);
  // Changes the particle count (ParticleSystem::Resize; an interacting scene restarts with the
  // new count instead, since its particles cannot be added or removed mid-run); on error
  // nothing changes (a failed restart leaves the demo as Restart says).
  Status Resize(size_t particles);
  // Resizes the frame (reallocates the renderer's images); on error nothing changes.
  Status SetFrameSize(size_t width, size_t height);
  void CycleColoring();
  void SetPointer(const std::optional<PointerForce>& pointer) { pointer_ = pointer; }

  SceneKind scene() const { return scene_; }
  uint64_t seed() const { return seed_; }
  uint64_t steps() const { return system_.steps_taken(); }
  size_t particles() const { return system_.size(); }
  const ParticleSystem& system() const { return system_; }
  const ParticleRenderer& renderer() const { return renderer_; }

 private:
  // The particles a scene starts with: the requested count, or the scene's default.
  size_t CountFor(SceneKind scene) const;

  MemoryAccountant* accountant_ = nullptr;
  ThreadPool* pool_ = nullptr;
  SceneKind scene_ = SceneKind::kFountain;
  uint64_t seed_ = 1;
  size_t requested_particles_ = 0;  // 0: each scene's default
  ParticleSystem system_;
  ParticleRenderer renderer_;
  std::optional<PointerForce> pointer_;
};

// The camera a scene starts with (the window's until the user moves it; always the headless one).
OrbitCamera SceneStartCamera(SceneKind scene);

}  // namespace swarm
