// What a ParticleSystem with interactions owns beyond its core state, and its step
// (swarm/particles/particle_interactions.h describes the models and the step's order).
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
#include "swarm/particles/neighbor_blocks.h"
#include "swarm/particles/neighbor_grid.h"
#include "swarm/particles/particle_interactions.h"

namespace swarm {

// The core arrays of a particle system, which an interacting step moves into cell order.
struct ParticleArrays {
  Vec4Buffer* positions;
  Vec4Buffer* velocities;
  FloatArray* ages;
  FloatArray* lifetimes;
};

// Everything the step of one interaction step needs to know about its system.
struct InteractionStepParams {
  glm::vec3 gravity{0.0f};
  float drag_per_second = 0.0f;
  BoxParams box;
  float dt_seconds = 0.0f;
  TileSchedule schedule;
  const AttractorParams* attractor = nullptr;  // applied before integration when given
};

class InteractionState {
 public:
  // The arrays for `count` particles of `config` (which is valid and not kNone).
  static Result<InteractionState> Create(MemoryAccountant& accountant, size_t count,
                                         const InteractionConfig& config);
  InteractionState() = default;

  // Places the particles on the lattice if the config asks for one, draws the radii (granular)
  // from (seed, particle index) and sets the ids to 0, 1, ...
  void Initialize(const ParticleArrays& arrays, const InteractionConfig& config,
                  const EmitterParams& emitter, uint64_t seed);

  // One step: grid and cell order (granular: when the contact lists are out of date, with them),
  // the model's passes and integration.
  Status Step(const ParticleArrays& arrays, const InteractionConfig& config,
              const InteractionStepParams& params, ThreadPool& pool);

  bool active() const { return active_; }
  std::span<const uint32_t> ids() const { return {ids_.view().data, ids_.size()}; }
  const FloatArray& radii() const { return radii_; }
  const FloatArray& masses() const { return masses_; }
  const NeighborGrid& grid() const { return grid_; }
  const NeighborBlocks& lists() const { return lists_; }
  // Fluids: each particle's density at the last iteration of the last step (per slot).
  const FloatArray& densities() const { return densities_; }
  const FloatArray& lambdas() const { return lambdas_; }
  const InteractionStats& stats() const { return stats_; }

 private:
  explicit InteractionState(MemoryAccountant& accountant) : grid_(accountant), lists_(accountant) {}
  // Sorts every per-particle array into the grid's order.
  void Reorder(const ParticleArrays& arrays, ThreadPool& pool);
  // The grid over `at` (the positions or the fluid's predictions) and the storage in its order.
  Status Rebuild(const ParticleArrays& arrays, const Vec4Buffer& at, float radius,
                 ThreadPool& pool);
  // Granular: rebuilds the grid, the cell order and the contact lists if a grain has moved more
  // than half the lists' skin since the last build.
  Status UpdateLists(const ParticleArrays& arrays, const InteractionConfig& config,
                     ThreadPool& pool);
  void StepGranular(const ParticleArrays& arrays, const InteractionConfig& config,
                    const InteractionStepParams& params, ThreadPool& pool);
  void StepFlock(const ParticleArrays& arrays, const InteractionConfig& config,
                 const InteractionStepParams& params, ThreadPool& pool);
  // The fluid's prediction (before the grid: it is built over the predicted positions), and
  // the rest of its step.
  void PredictFluid(const ParticleArrays& arrays, const InteractionStepParams& params,
                    ThreadPool& pool);
  void StepFluid(const ParticleArrays& arrays, const InteractionConfig& config,
                 const InteractionStepParams& params, ThreadPool& pool);
  SortedGrid Sorted(const ParticleArrays& arrays) const;

  bool active_ = false;
  NeighborGrid grid_;
  NeighborBlocks lists_;  // granular contact lists
  Vec4Buffer listed_at_;  // granular: where the grains were when the lists were built
  bool listed_ = false;   // the lists match the particles' storage order
  FloatArray radii_;
  FloatArray masses_;
  PaddedArray<uint32_t> ids_;
  FloatArray neighbor_counts_;
  // Fluids only: predicted positions, the constraint multipliers, densities and vorticity.
  Vec4Buffer predicted_;
  FloatArray lambdas_;
  FloatArray compliances_;
  FloatArray densities_;
  Vec4Buffer omega_;
  // Spare arrays the reorder gathers into (then copies back from, so the originals keep their
  // buffers), reused as the passes' outputs (forces, new velocities).
  Vec4Buffer spare_vec4_;
  FloatArray spare_float_;
  InteractionStats stats_;
};

}  // namespace swarm
