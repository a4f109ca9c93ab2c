// The particle demo's scenes: each is a ParticleConfig (emitter, gravity, drag, box, attractor,
// interaction) that may change with the step number. SceneConfig is a pure function of (scene,
// seed, step, particle count), so a run is reproduced exactly by its seed and step count: the
// headless mode and the window step the same configurations and draw the same frames. The last
// three scenes make particles interact (swarm/particles/particle_interactions.h); their sizes
// follow the particle count, so any count fills the same volume.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/vec3.hpp>
#include <string>
#include <string_view>

#include "swarm/core/status.h"
#include "swarm/particles/particle_system.h"

namespace swarm {

enum class SceneKind : uint8_t {
  kFountain,
  kExplosion,
  kRing,
  kGalaxy,
  kSnow,
  kFluid,
  kGranular,
  kFlock
};
inline constexpr size_t kSceneCount = 8;

// "fountain", "explosion", "ring", "galaxy", "snow", "fluid", "granular", "flock": the --scene
// names, in key order 1-8.
const char* SceneName(SceneKind scene);
SceneKind SceneAt(size_t index);  // index < kSceneCount
// Parses a --scene value; the error names the flag and lists the scenes.
Result<SceneKind> ParseSceneName(std::string_view name);
std::string SceneNames();

// The simulation step of the demo (60 Hz), in seconds.
inline constexpr float kStepSeconds = 1.0f / 60.0f;

// Explosion bursts: every kBurstPeriodSteps steps all particles die together and the next burst
// starts at a new centre.
inline constexpr uint64_t kBurstPeriodSteps = 120;

// The particle count a scene runs with unless the user asks for another: 1,000,000 for the
// scenes without interactions; fluid 100,000, granular 200,000, flock 250,000.
size_t SceneDefaultParticles(SceneKind scene);

// The configuration in force for step `step` (0-based; step 0 is also the creation) of a system
// of `particles` particles.
ParticleConfig SceneConfig(SceneKind scene, uint64_t seed, uint64_t step,
                           size_t particles = 1'000'000);

// The explosion's burst that step `step` belongs to, and its centre: a point drawn from
// (seed, burst) alone, inside the scene's box with a margin.
uint64_t BurstIndex(uint64_t step);
glm::vec3 BurstCenter(uint64_t seed, uint64_t burst);

// The speed at the end of the speed palette: about the fastest the scene's particles move.
float SceneFullColorSpeed(SceneKind scene);

// Where the orbit camera starts for a scene (it always looks at SceneCenter()).
struct SceneView {
  float azimuth = 0.6f;     // radians about +y, 0 = looking along -z
  float elevation = 0.35f;  // radians above the xz plane
  float distance = 36.0f;   // m from the centre
};
SceneView SceneStartView(SceneKind scene);

// The middle of every scene's box: the camera looks at it and the pointer's plane contains it.
glm::vec3 SceneCenter();

}  // namespace swarm
