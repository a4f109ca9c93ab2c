// A complete particle system: the state (positions, velocities, ages, lifetimes, dead flags) in
// accounted SoA buffers and one fused step that runs, per tile,
//   attractor (optional) -> semi-implicit Euler -> box collision -> ageing -> respawn of the dead.
// This is what the demos and the game-loop example drive; it is also the state the determinism
// tests hash.
//
// Step() validates dt, then allocates nothing: steady-state stepping costs no memory traffic
// beyond the state itself (tests count allocations over 1,000 steps).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"
#include "swarm/core/tile_pipeline.h"
#include "swarm/kernels/particles/emit.h"
#include "swarm/kernels/particles/integrate.h"
#include "swarm/particles/interaction_state.h"
#include "swarm/particles/particle_interactions.h"

namespace swarm {

struct ParticleConfig {
  glm::vec3 gravity{0.0f, -9.81f, 0.0f};
  float drag_per_second = 0.1f;
  BoxParams box{{-10.0f, 0.0f, -10.0f}, {10.0f, 20.0f, 10.0f}, 0.6f, 0.05f};
  bool attractor_enabled = false;
  AttractorParams attractor;  // its dt_seconds is ignored: Step's dt is used
  EmitterParams emitter;
  uint64_t seed = 1;
  TileSchedule schedule;
  // Granular contact, fluid or flocking between the particles (particle_interactions.h); with
  // one, particles neither age nor respawn (the attractor, gravity, drag and box still apply).
  InteractionConfig interaction;
};

class ParticleSystem {
 public:
  // Allocates and emits `count` particles (random stream 0 of the seed).
  static Result<ParticleSystem> Create(MemoryAccountant& accountant, size_t count,
                                       const ParticleConfig& config);
  ParticleSystem() = default;

  // Advances every particle by dt_seconds. Errors (dt <= 0 or not finite) leave the state as is.
  Status Step(float dt_seconds, ThreadPool& pool);

  // Grows or shrinks the system, keeping the first min(size, count) particles bit for bit; new
  // particles are emitted immediately. Interacting systems cannot be resized (an error): create
  // a new one. Growing past the capacity allocates the whole new state
  // before releasing the old (peak: old + new). On error (budget) nothing changes, including the
  // accountant's bytes in use.
  Status Resize(size_t count);

  // Replaces the configuration after validating it; the state is kept. The interaction's kind
  // cannot change (an error): create a new system.
  Status Configure(const ParticleConfig& config);

  size_t size() const { return positions_.size(); }
  uint32_t steps_taken() const { return steps_taken_; }
  const ParticleConfig& config() const { return config_; }
  const Vec4Buffer& positions() const { return positions_; }
  const Vec4Buffer& velocities() const { return velocities_; }
  const FloatArray& ages() const { return ages_; }
  const FloatArray& lifetimes() const { return lifetimes_; }
  // Writable views of the state, for callers that place or push particles between steps (tests,
  // Python). Values are checked by the next Step where it matters (an interacting step refuses
  // non-finite positions, naming the first).
  Vec4View mutable_positions() { return positions_.view(); }
  Vec4View mutable_velocities() { return velocities_.view(); }
  bool interacting() const { return interactions_.active(); }
  // Interacting systems keep their storage in cell order: ids()[slot] is the index the particle
  // had at creation (empty without interactions). radii() and masses() are per slot too.
  std::span<const uint32_t> ids() const { return interactions_.ids(); }
  const InteractionState& interactions() const { return interactions_; }

  // XXH3 hash of the whole state (see swarm/core/state_hash.h).
  uint64_t StateHash() const;

 private:
  ParticleArrays Arrays();

  Vec4Buffer positions_;
  Vec4Buffer velocities_;
  FloatArray ages_;
  FloatArray lifetimes_;
  ByteArray dead_;
  InteractionState interactions_;
  ParticleConfig config_;
  uint32_t steps_taken_ = 0;
};

Status ValidateParticleConfig(const ParticleConfig& config);

}  // namespace swarm
