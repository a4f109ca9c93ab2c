// Interacting particles: the part of a ParticleSystem's step that makes particles collide (DEM
// granular contact), flow (Position Based Fluids) or flock (boids), on top of one neighbour grid.
//
// Each step (fluid, flock) or whenever grains may have closed in by the contact lists' skin
// (granular: GranularConfig::list_skin, so the substeps of stiff contacts reuse one grid and one
// set of lists) the grid is rebuilt over the particles and the particles' storage is sorted into
// its cell order (every per-particle array moves together; ids() maps each slot back to the
// particle's index at creation). The model's passes run over tiles of particles in parallel,
// reading their neighbours from the whole arrays and writing only their own tile (kernels/
// particle_interactions.h). Interacting particles do not age or die: the emitter places them once
// (or a lattice does), and the model moves them from then on.
//
// Determinism: the grid, the sort, the lists and every neighbour sum have a fixed order, and the
// decision to rebuild depends on the positions alone, so a run gives the same bits on every SIMD
// target and thread count. Memory: all per-particle arrays are allocated
// at creation (category particles); steady-state steps allocate nothing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/core/status.h"
#include "swarm/kernels/particles/interaction_kernels.h"

namespace swarm {

enum class InteractionKind : uint8_t { kNone, kGranular, kFluid, kFlock };
const char* InteractionName(InteractionKind kind);

struct GranularConfig {
  float radius_min = 0.1f;  // particle radii are drawn uniformly in [radius_min, radius_max]
  float radius_max = 0.1f;
  float density = 1000.0f;  // kg/m^3: mass = density * 4/3 pi r^3
  GranularParams contact;
  // The contact lists reach list_skin contact distances (twice radius_max) beyond the contact
  // distance, and are rebuilt (grid, cell order, lists) once the box of all grains'
  // displacements since the last build has a diagonal of that skin: no pair can have closed in
  // by more before. A wider skin lists more pairs, which every substep walks, and rebuilds less
  // often. In [0, 1]; 0 rebuilds whenever grains moved relative to each other.
  float list_skin = 0.25f;
};

struct InteractionConfig {
  InteractionKind kind = InteractionKind::kNone;
  // > 0: particles start on a cubic lattice of this spacing filling the emitter's box (in index
  // order, x fastest), with the emitter's velocity; 0: where the emitter puts them.
  float lattice_spacing = 0.0f;
  // Each lattice point moved by up to +-lattice_jitter / 2 spacings per axis (drawn from the seed
  // and the particle's index), so a lattice of spheres does not stand in perfect columns.
  float lattice_jitter = 0.0f;
  // Each Step(dt) runs this many steps of dt / substeps (a stiff contact needs steps a tenth of
  // its contact time, shorter than a frame).
  int substeps = 1;
  GranularConfig granular;
  FluidParams fluid;
  FlockParams flock;  // flock.box is ignored: the system's box is used
};

// Checks every parameter of the kind in use (the others are ignored).
Status ValidateInteraction(const InteractionConfig& config);

// The radius the neighbour grid is built for: the largest contact distance (twice the largest
// particle radius), the fluid's kernel radius or the flock's view radius; 0 without
// interactions.
float InteractionRadius(const InteractionConfig& config);

// The radius granular contact lists are built for: InteractionRadius (1 + granular.list_skin).
float ListRadius(const InteractionConfig& config);

// What the last step of an interacting system measured, for a HUD or a log.
struct InteractionStats {
  double neighbor_seconds = 0.0;     // grid builds, the sort of the storage into cell order and
                                     // (granular) the contact lists and their checks
  uint64_t grid_builds = 0;          // since the system was created (all substeps)
  double interaction_seconds = 0.0;  // the model's passes and the integration
  double average_neighbors = 0.0;    // particles within the interaction radius, per particle
};

}  // namespace swarm
